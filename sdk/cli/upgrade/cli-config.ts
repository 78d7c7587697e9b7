/**
 * The CLI's own settings, in ~/.mandi/config.json (the same folder keeps the upgrade-check cache):
 *   { "platform_url": "https://acme.mandi.example", "tenant": "acme", "token": "mnd_…", "no_telemetry": false }
 * MANDI_URL, MANDI_TENANT and MANDI_TOKEN override the file (CI runners have no home to write).
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_MIRROR_URL } from './build-info';

export interface CliConfig {
  platformUrl?: string;
  tenant?: string;
  token?: string;
  noTelemetry: boolean;
  mirrorUrl: string;
}

export const configDir = (env: NodeJS.ProcessEnv = process.env) => path.join(env.HOME && process.platform !== 'win32' ? env.HOME : os.homedir(), '.mandi');

export function loadCliConfig(env: NodeJS.ProcessEnv = process.env): CliConfig {
  let file: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(path.join(configDir(env), 'config.json'), 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) file = parsed as Record<string, unknown>;
  } catch {
    // No file or not JSON: defaults. A broken config must not break every command.
  }
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  return {
    platformUrl: str(env.MANDI_URL) ?? str(file.platform_url),
    tenant: str(env.MANDI_TENANT) ?? str(file.tenant),
    token: str(env.MANDI_TOKEN) ?? str(file.token),
    noTelemetry: file.no_telemetry === true,
    mirrorUrl: str(env.MANDI_RELEASES_MIRROR_URL) ?? DEFAULT_MIRROR_URL,
  };
}
