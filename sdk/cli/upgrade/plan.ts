/**
 * Which release to install and which of its assets fits this machine (Client releases rules 1-2):
 * the latest by default; --target any listed version (also older: a downgrade); --force reinstalls
 * even when nothing is newer. The asset is the one named mandi_<version>_<os>_<arch>.tar.gz|.zip.
 */
import semver from 'semver';
import { CLI_NAME, archiveExtension, canonicalArch, canonicalOs, cleanVersion, type Release, type ReleaseAsset, type ReleaseManifest } from './release-manifest';
import { serverError } from './errors';

export type Plan =
  | { action: 'none'; reason: string; release?: Release }
  | { action: 'install'; release: Release; kind: 'upgrade' | 'downgrade' | 'reinstall' };

export function planUpgrade(manifest: ReleaseManifest, current: string, opts: { target?: string; force?: boolean }): Plan {
  if (opts.target !== undefined) {
    const version = cleanVersion(opts.target);
    if (!version) throw serverError(`--target ${opts.target} is not a version (SemVer, e.g. 1.4.2)`);
    const release = manifest.releases.find((r) => r.version === version);
    if (!release) throw serverError(`release ${version} is not in the ${manifest.channel} channel (available: ${manifest.releases.map((r) => r.version).join(', ')})`);
    if (version === current && !opts.force) return { action: 'none', reason: `mandi ${current} is already installed (use --force to reinstall it)`, release };
    return { action: 'install', release, kind: kindOf(current, version) };
  }
  const latest = manifest.releases.find((r) => r.version === manifest.latest) ?? manifest.releases[0];
  if (!opts.force && semver.valid(current) && !semver.gt(latest.version, current)) {
    return { action: 'none', reason: `mandi ${current} is up to date (latest ${latest.version})`, release: latest };
  }
  if (opts.force && semver.valid(current) && !semver.gt(latest.version, current)) {
    const same = manifest.releases.find((r) => r.version === current);
    if (!same) throw serverError(`release ${current} is not in the ${manifest.channel} channel, so it cannot be reinstalled`);
    return { action: 'install', release: same, kind: 'reinstall' };
  }
  return { action: 'install', release: latest, kind: kindOf(current, latest.version) };
}

function kindOf(current: string, next: string): 'upgrade' | 'downgrade' | 'reinstall' {
  if (!semver.valid(current)) return 'upgrade';
  return semver.gt(next, current) ? 'upgrade' : semver.lt(next, current) ? 'downgrade' : 'reinstall';
}

/** The asset for os/arch by its file name; Windows prefers .zip, elsewhere .tar.gz comes first. */
export function pickAsset(release: Release, os: string, arch: string): ReleaseAsset | undefined {
  const pattern = new RegExp(`^${CLI_NAME}_(.+)_([a-z0-9]+)_([a-z0-9_]+)(\\.tar\\.gz|\\.zip)$`, 'i');
  const wanted = { os: canonicalOs(os), arch: canonicalArch(arch) };
  const matches = release.assets.filter((a) => {
    const m = pattern.exec(a.filename);
    return !!m && cleanVersion(m[1]) === release.version && canonicalOs(m[2]) === wanted.os && canonicalArch(m[3]) === wanted.arch;
  });
  const order = wanted.os === 'windows' ? ['.zip', '.tar.gz'] : ['.tar.gz', '.zip'];
  return matches.sort((a, b) => order.indexOf(archiveExtension(a.filename)!) - order.indexOf(archiveExtension(b.filename)!))[0];
}

/** Release notes from just after `from` up to `to`, newest first, for --check. */
export function notesBetween(manifest: ReleaseManifest, from: string, to: string): Release[] {
  return manifest.releases.filter((r) => (!semver.valid(from) || semver.gt(r.version, from)) && semver.lte(r.version, to));
}
