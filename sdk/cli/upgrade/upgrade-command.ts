/**
 * `mandi upgrade [--check] [--force] [--target <version>] [--dry-run] [--allow-homebrew]`
 * (spec 1, Client releases rules 1, 2, 5 and 6):
 *   resolve the release (platform, else public mirror) → refuse package-manager installs → pick the
 *   asset for this os/arch → download with progress and verify its SHA-256 → extract the executable
 *   next to the old one → check it runs and reports the version → replace the old one atomically.
 * Every failure before the last step leaves the installed binary exactly as it was.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { CLI_VERSION, IS_RELEASE_BUILD } from './build-info';
import { loadCliConfig } from './cli-config';
import { downloadVerified, type Downloaded } from './download';
import { EXIT, UpgradeError, fromFsError, refusal, serverError } from './errors';
import { extractExecutable, executableName } from './extract';
import { packageManagerPath } from './package-manager';
import { notesBetween, pickAsset, planUpgrade } from './plan';
import { hostPlatform } from './release-manifest';
import { removeLeftover, replaceBinary, stagingPath } from './replace-binary';
import { resolveManifest } from './resolve-manifest';
import { assertVersion } from './verify-executable';
import { downloadProgress, say, shout } from './upgrade-output';

export interface UpgradeOptions {
  check?: boolean;
  force?: boolean;
  target?: string;
  dryRun?: boolean;
  allowHomebrew?: boolean;
}

export function registerUpgradeCommand(program: Command): void {
  program
    .command('upgrade')
    .description('upgrade mandi to the latest release of your channel (or --target a version)')
    .option('--check', 'only compare with the latest release and print its notes')
    .option('--force', 'reinstall even when already up to date')
    .option('--target <version>', 'install this version (also to downgrade)')
    .option('--dry-run', 'download and verify, but do not replace the installed binary')
    .option('--allow-homebrew', 'upgrade even though a package manager (Homebrew) installed this binary')
    .action(async (opts: UpgradeOptions) => {
      try {
        await upgrade(opts);
      } catch (err) {
        const known = err instanceof UpgradeError;
        shout(known ? err.message : `unexpected failure: ${(err as Error).stack ?? String(err)}`);
        process.exitCode = known ? err.exitCode : EXIT.fileSystem;
      }
    });
}

export async function upgrade(opts: UpgradeOptions, binary: string = process.execPath): Promise<void> {
  const installing = !opts.check && !opts.dryRun;
  // Running from source, process.execPath is node itself: never replace that.
  if (installing && !IS_RELEASE_BUILD) throw refusal('this is a development build of mandi (run from source); only a release build can replace itself');
  if (IS_RELEASE_BUILD) await removeLeftover(binary);

  const config = loadCliConfig();
  const { manifest, source, credentials } = await resolveManifest(config);
  const plan = planUpgrade(manifest, CLI_VERSION, { target: opts.target, force: opts.force });

  if (opts.check) {
    if (plan.action === 'none') say(plan.reason);
    else {
      say(`mandi ${plan.release.version} is available (installed: ${CLI_VERSION}, channel ${manifest.channel}, from the ${source})`);
      const notes = plan.kind === 'upgrade' ? notesBetween(manifest, CLI_VERSION, plan.release.version) : [plan.release];
      for (const r of notes) say(`\n## ${r.version}${r.released_at ? ` (${r.released_at.slice(0, 10)})` : ''}\n${r.notes.trim() || '(no notes)'}${r.notes_url ? `\n${r.notes_url}` : ''}`);
      say(`\nRun \`mandi upgrade${opts.target ? ` --target ${plan.release.version}` : ''}\` to install it.`);
    }
    return;
  }
  if (plan.action === 'none') return say(plan.reason);

  const managed = packageManagerPath(binary);
  if (managed && !opts.allowHomebrew) {
    throw refusal(`${managed} was installed by a package manager; upgrade it with that (e.g. \`brew upgrade mandi\`), or pass --allow-homebrew`);
  }

  const { os, arch } = hostPlatform();
  const asset = pickAsset(plan.release, os, arch);
  if (!asset) throw serverError(`release ${plan.release.version} has no asset for ${os}/${arch} (looked for mandi_${plan.release.version}_${os === 'darwin' ? 'macos' : os}_${arch}.tar.gz or .zip)`);

  const bar = downloadProgress(asset.filename);
  let downloaded: Downloaded;
  try {
    downloaded = await downloadVerified(asset, credentials, (done, total) => bar.update(done, total));
  } finally {
    bar.stop();
  }
  say(`✔ downloaded ${asset.filename} (${downloaded.bytes} bytes), sha256 verified`);

  const staged = opts.dryRun ? path.join(downloaded.dir, executableName()) : stagingPath(binary);
  try {
    try {
      await extractExecutable(downloaded.file, staged);
    } catch (err) {
      throw err instanceof UpgradeError ? err : fromFsError(err, `writing ${staged}`);
    }
    await assertVersion(staged, plan.release.version);
    if (opts.dryRun) return say(`dry run: mandi ${plan.release.version} would replace ${binary} (${CLI_VERSION}); nothing was changed`);
    await replaceBinary(binary, staged);
    say(`✔ mandi ${CLI_VERSION} → ${plan.release.version} (${plan.kind}) at ${binary}`);
  } finally {
    if (!opts.dryRun) await rm(staged, { force: true }).catch(() => undefined);
    await downloaded.cleanup();
  }
}
