/**
 * The background version check (spec 1, Client releases rules 3 and 4). After every successful
 * command the CLI looks at ~/.mandi/upgrade-check.json:
 *   - older than 24 hours (or missing): a detached copy of the CLI (`mandi __upgrade-check`) fetches
 *     the manifest and rewrites the file, so the user's command never waits for the network;
 *   - names a newer version: a one-line nudge goes to stderr, at most once every 6 hours, and only
 *     when stdout is a terminal (scripts piping our output never see it).
 * Disabled by `no_telemetry: true` in ~/.mandi/config.json, by PLATFORM_NO_UPGRADE_CHECK=1, and always
 * in development builds. Network failures are silent.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { CLI_VERSION, IS_RELEASE_BUILD } from './build-info';
import { configDir, loadCliConfig } from './cli-config';
import { resolveManifest } from './resolve-manifest';

export const CHECK_COMMAND = '__upgrade-check';
export const CHECK_TTL_MS = 24 * 3600 * 1000;
export const NUDGE_EVERY_MS = 6 * 3600 * 1000;

export interface CheckCache {
  checked_at: string;
  latest?: string;
  min_supported?: string;
  nudged_at?: string;
}

const cacheFile = () => path.join(configDir(), 'upgrade-check.json');

export function checkEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return IS_RELEASE_BUILD && env.PLATFORM_NO_UPGRADE_CHECK !== '1' && !loadCliConfig(env).noTelemetry;
}

export function readCache(): CheckCache | undefined {
  try {
    const v = JSON.parse(readFileSync(cacheFile(), 'utf8')) as CheckCache;
    return typeof v.checked_at === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Written whole under a temporary name and renamed, so a reader never sees half a file. */
export function writeCache(cache: CheckCache): void {
  const file = cacheFile();
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(cache, null, 2) + '\n', { mode: 0o600 });
  renameSync(tmp, file);
}

/** Runs after a command succeeded (never after `upgrade` itself or the check). */
export function afterCommand(now: number = Date.now()): void {
  if (!checkEnabled()) return;
  try {
    const cache = readCache();
    const stale = !cache || now - Date.parse(cache.checked_at) >= CHECK_TTL_MS || Number.isNaN(Date.parse(cache.checked_at));
    // Nudge first: the background check keeps the nudge time it finds, so it must find this one.
    if (cache && process.stdout.isTTY) nudge(cache, now);
    if (stale) startBackgroundCheck();
  } catch {
    // The check is a courtesy: it never fails the user's command.
  }
}

function nudge(cache: CheckCache, now: number): void {
  if (!cache.latest || !semver.valid(cache.latest) || !semver.valid(CLI_VERSION) || !semver.gt(cache.latest, CLI_VERSION)) return;
  if (cache.nudged_at && now - Date.parse(cache.nudged_at) < NUDGE_EVERY_MS) return;
  const unsupported = cache.min_supported && semver.valid(cache.min_supported) && semver.lt(CLI_VERSION, cache.min_supported);
  process.stderr.write(`${unsupported ? `mandi ${CLI_VERSION} is no longer supported` : `A new version of mandi is available`}: ${CLI_VERSION} → ${cache.latest}. Run \`mandi upgrade\`.\n`);
  writeCache({ ...cache, nudged_at: new Date(now).toISOString() });
}

function startBackgroundCheck(): void {
  // argv[1] is how the user invoked us (the executable itself in a release build).
  const child = spawn(process.execPath, [CHECK_COMMAND], { detached: true, stdio: 'ignore', windowsHide: true, env: process.env });
  child.on('error', () => undefined);
  child.unref();
}

/** The hidden `mandi __upgrade-check`: fetch, record, and say nothing whatever happens. */
export async function runBackgroundCheck(now: () => number = Date.now): Promise<void> {
  const previous = readCache();
  try {
    const { manifest } = await resolveManifest(loadCliConfig());
    writeCache({ checked_at: new Date(now()).toISOString(), latest: manifest.latest, min_supported: manifest.min_supported, nudged_at: previous?.nudged_at });
  } catch {
    // Offline or a broken source: remember that we tried, so the next commands do not all retry,
    // and keep what we knew.
    try {
      writeCache({ ...previous, checked_at: new Date(now()).toISOString() });
    } catch {
      // not even the cache folder is writable: nothing to do, silently
    }
  }
}
