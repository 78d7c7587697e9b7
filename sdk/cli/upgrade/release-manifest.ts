/**
 * The client release manifest, schema_version 1 (spec 1, Client release manifest), shared by the
 * platform (which normalises what release sources publish) and the `mandi` CLI (which reads it).
 *
 * Naming (spec 1, Client releases rule 2 and the manifest notes): an asset is named
 * `mandi_<version>_<os>_<arch>` plus `.tar.gz` or `.zip`; the os field says `darwin` where file names
 * say `macos`. Architectures are written amd64 and arm64; x64, x86_64 and aarch64 are read as those.
 */
import semver from 'semver';

export const CLI_NAME = 'mandi';
export const SCHEMA_VERSION = 1;
export const ARCHIVE_EXTENSIONS = ['.tar.gz', '.zip'] as const;

export interface ReleaseAsset {
  os: string;
  arch: string;
  url: string;
  /** Lowercase hex; without it the client cannot verify the download. */
  sha256?: string;
  size?: number;
  filename: string;
}

export interface Release {
  version: string;
  released_at: string;
  notes: string;
  notes_url: string;
  assets: ReleaseAsset[];
}

export interface ReleaseManifest {
  schema_version: 1;
  channel: string;
  latest: string;
  min_supported: string;
  releases: Release[];
}

const OS_ALIASES: Record<string, string> = { darwin: 'darwin', macos: 'darwin', osx: 'darwin', linux: 'linux', windows: 'windows', win32: 'windows' };
const ARCH_ALIASES: Record<string, string> = { amd64: 'amd64', x64: 'amd64', x86_64: 'amd64', arm64: 'arm64', aarch64: 'arm64' };

/** The os as the manifest's os field writes it (darwin, linux, windows), or the input lowercased. */
export const canonicalOs = (os: string) => OS_ALIASES[os.toLowerCase()] ?? os.toLowerCase();
export const canonicalArch = (arch: string) => ARCH_ALIASES[arch.toLowerCase()] ?? arch.toLowerCase();
/** The os as file names write it: macos for darwin. */
export const osInFileName = (os: string) => (canonicalOs(os) === 'darwin' ? 'macos' : canonicalOs(os));

/** What this process runs on, in manifest terms. */
export function hostPlatform(platform: string = process.platform, arch: string = process.arch): { os: string; arch: string } {
  return { os: canonicalOs(platform), arch: canonicalArch(arch) };
}

export function assetBaseName(version: string, os: string, arch: string): string {
  return `${CLI_NAME}_${version}_${osInFileName(os)}_${canonicalArch(arch)}`;
}

export const archiveExtension = (name: string) => ARCHIVE_EXTENSIONS.find((ext) => name.toLowerCase().endsWith(ext));

/** The file name generated when an asset has none: the url's archive extension, else .zip on Windows and .tar.gz elsewhere. */
export function defaultFileName(version: string, os: string, arch: string, url: string): string {
  let ext: string | undefined;
  try {
    ext = archiveExtension(new URL(url, 'https://relative.invalid/').pathname);
  } catch {
    ext = undefined;
  }
  return assetBaseName(version, os, arch) + (ext ?? (canonicalOs(os) === 'windows' ? '.zip' : '.tar.gz'));
}

/** "v1.2.3" and "1.2.3" are the same release; anything else that is not SemVer is not a release. */
export function cleanVersion(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const parsed = semver.valid(v.trim().replace(/^v/, ''));
  return parsed ?? undefined;
}

export interface ParsedManifest {
  manifest: ReleaseManifest;
  /** What was wrong and left out; a manifest with problems is still usable for what remains. */
  problems: string[];
}

export class ManifestFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ManifestFormatError';
  }
}

/**
 * Reads a schema_version 1 manifest: releases newest first, versions cleaned, missing file names
 * generated, asset os/arch canonical. Releases or assets that cannot be used are dropped and listed
 * in `problems`. Throws ManifestFormatError when nothing usable is left or the shape is wrong.
 */
export function parseManifest(raw: unknown): ParsedManifest {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ManifestFormatError('the manifest is not a JSON object');
  const m = raw as Record<string, unknown>;
  if (m.schema_version !== SCHEMA_VERSION) throw new ManifestFormatError(`unsupported schema_version ${JSON.stringify(m.schema_version)} (expected 1)`);
  if (!Array.isArray(m.releases)) throw new ManifestFormatError('releases must be an array');
  const problems: string[] = [];
  const releases: Release[] = [];
  for (const [i, r] of (m.releases as unknown[]).entries()) {
    const release = parseRelease(r, `releases[${i}]`, problems);
    if (release) releases.push(release);
  }
  return { manifest: assemble(typeof m.channel === 'string' && m.channel ? m.channel : 'stable', releases, cleanVersion(m.latest), cleanVersion(m.min_supported), problems), problems };
}

/** Builds a manifest from releases, choosing latest (highest stable, else highest) and min_supported when not given. */
export function assemble(channel: string, releases: Release[], latest?: string, minSupported?: string, problems: string[] = []): ReleaseManifest {
  const byVersion = new Map<string, Release>();
  for (const r of releases) {
    if (byVersion.has(r.version)) problems.push(`release ${r.version} is listed twice; the first is kept`);
    else byVersion.set(r.version, r);
  }
  const sorted = [...byVersion.values()].sort((a, b) => semver.rcompare(a.version, b.version));
  if (!sorted.length) throw new ManifestFormatError('the manifest lists no usable release');
  const stable = sorted.filter((r) => !semver.prerelease(r.version));
  const chosenLatest = latest && byVersion.has(latest) ? latest : (stable[0] ?? sorted[0]).version;
  if (latest && !byVersion.has(latest)) problems.push(`latest ${latest} is not among the releases; using ${chosenLatest}`);
  return {
    schema_version: 1,
    channel,
    latest: chosenLatest,
    min_supported: minSupported ?? sorted[sorted.length - 1].version,
    releases: sorted,
  };
}

function parseRelease(raw: unknown, at: string, problems: string[]): Release | undefined {
  if (!raw || typeof raw !== 'object') return void problems.push(`${at} is not an object`);
  const r = raw as Record<string, unknown>;
  const version = cleanVersion(r.version);
  if (!version) return void problems.push(`${at}.version ${JSON.stringify(r.version)} is not SemVer`);
  const assets: ReleaseAsset[] = [];
  for (const [j, a] of (Array.isArray(r.assets) ? r.assets : []).entries()) {
    const asset = parseAsset(a, version, `${at}.assets[${j}]`, problems);
    if (asset) assets.push(asset);
  }
  const releasedAt = typeof r.released_at === 'string' && !Number.isNaN(Date.parse(r.released_at)) ? new Date(r.released_at).toISOString() : '';
  return {
    version,
    released_at: releasedAt,
    notes: typeof r.notes === 'string' ? r.notes : '',
    notes_url: typeof r.notes_url === 'string' ? r.notes_url : '',
    assets,
  };
}

function parseAsset(raw: unknown, version: string, at: string, problems: string[]): ReleaseAsset | undefined {
  if (!raw || typeof raw !== 'object') return void problems.push(`${at} is not an object`);
  const a = raw as Record<string, unknown>;
  if (typeof a.os !== 'string' || !a.os || typeof a.arch !== 'string' || !a.arch || typeof a.url !== 'string' || !a.url) {
    return void problems.push(`${at} needs os, arch and url`);
  }
  const os = canonicalOs(a.os);
  const arch = canonicalArch(a.arch);
  const asset: ReleaseAsset = { os, arch, url: a.url, filename: typeof a.filename === 'string' && a.filename ? a.filename : defaultFileName(version, os, arch, a.url) };
  if (/[/\\]/.test(asset.filename) || asset.filename.startsWith('.')) return void problems.push(`${at}.filename ${JSON.stringify(asset.filename)} is not a plain file name`);
  if (typeof a.sha256 === 'string' && /^[0-9a-fA-F]{64}$/.test(a.sha256)) asset.sha256 = a.sha256.toLowerCase();
  else if (a.sha256 !== undefined) problems.push(`${at}.sha256 is not 64 hex digits; left out`);
  if (Number.isInteger(a.size) && (a.size as number) >= 0) asset.size = a.size as number;
  return asset;
}
