/**
 * adapter `hosted_repo`: releases of a project on a repository host that speaks the GitLab REST v4
 * releases API (the usual self-hosted one), read with a read-scoped service token:
 *   GET {api_url}/projects/{url-encoded project}/releases?per_page=100&page=N   (PRIVATE-TOKEN header)
 * Releases are the tags `cli/v<semver>` (spec 1, Versioning 5); their assets are the release links
 * named `mandi_<version>_<os>_<arch>.tar.gz|.zip`, and checksums come from a `checksums.txt` link
 * (`<sha256>  <file name>` per line, as sha256sum prints) or a `<asset>.sha256` link per asset.
 * Downloads go through the platform, which sends the token (to the api_url's origin only) and streams.
 */
import { CLI_NAME, assemble, canonicalArch, canonicalOs, cleanVersion, type Release, type ReleaseAsset, type ReleaseManifest } from '../../../../sdk/cli/upgrade/release-manifest';
import type { OutboundRequest } from '../../../kernel/net/outbound-request';
import type { OutboundPolicy } from '../../../kernel/net/outbound-policy';
import { ReleaseSourceError, upstream, upstreamJson } from './upstream';

export const TAG_PREFIX = 'cli/v';
export const TOKEN_HEADER = 'private-token';
/** Newest releases listed (each costs a checksum request); older ones are not offered. */
const MAX_RELEASES = 20;
const MAX_PAGES = 10;

interface RepoLink {
  name?: unknown;
  url?: unknown;
  direct_asset_url?: unknown;
}

interface RepoRelease {
  tag_name?: unknown;
  description?: unknown;
  released_at?: unknown;
  upcoming_release?: unknown;
  _links?: { self?: unknown };
  assets?: { links?: RepoLink[] };
}

export interface HostedRepoConfig {
  project: string;
  api_url: string;
}

const ASSET_NAME = new RegExp(`^${CLI_NAME}_(.+)_([a-z0-9]+)_([a-z0-9_]+)\\.(tar\\.gz|zip)$`, 'i');

/** Request options that carry the token to the repository host and nowhere else. */
export function repoRequest(c: HostedRepoConfig, token: string | undefined, policy: OutboundPolicy): OutboundRequest {
  const headers: Record<string, string> = token ? { [TOKEN_HEADER]: token } : {};
  return { policy, headers, credentialHeaders: [TOKEN_HEADER], credentialOrigin: new URL(c.api_url).origin };
}

export async function loadHostedRepoManifest(c: HostedRepoConfig, token: string | undefined, policy: OutboundPolicy): Promise<ReleaseManifest> {
  const req = repoRequest(c, token, policy);
  const listed: RepoRelease[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { body, res } = await upstreamJson(`${c.api_url}/projects/${encodeURIComponent(c.project)}/releases?per_page=100&page=${page}`, req);
    if (!Array.isArray(body)) throw new ReleaseSourceError('the releases API did not answer with a list');
    listed.push(...(body as RepoRelease[]));
    const next = res.headers['x-next-page'];
    if (!next || Array.isArray(next) || Number(next) <= page) break;
  }
  const candidates = listed
    .map((r) => ({ r, version: typeof r.tag_name === 'string' && r.tag_name.startsWith(TAG_PREFIX) ? cleanVersion(r.tag_name.slice(TAG_PREFIX.length)) : undefined }))
    .filter((x): x is { r: RepoRelease; version: string } => !!x.version && x.r.upcoming_release !== true);
  const newest = assemble('stable', candidates.map(({ r, version }) => bare(r, version))).releases.slice(0, MAX_RELEASES);
  const byVersion = new Map(candidates.map((x) => [x.version, x.r]));
  const releases = await Promise.all(newest.map(async (rel) => ({ ...rel, assets: await assetsOf(byVersion.get(rel.version)!, rel.version, req) })));
  return assemble('stable', releases);
}

function bare(r: RepoRelease, version: string): Release {
  const releasedAt = typeof r.released_at === 'string' && !Number.isNaN(Date.parse(r.released_at)) ? new Date(r.released_at).toISOString() : '';
  return { version, released_at: releasedAt, notes: typeof r.description === 'string' ? r.description : '', notes_url: typeof r._links?.self === 'string' ? r._links.self : '', assets: [] };
}

async function assetsOf(r: RepoRelease, version: string, req: OutboundRequest): Promise<ReleaseAsset[]> {
  const links = (r.assets?.links ?? []).filter((l): l is { name: string; url: string; direct_asset_url?: unknown } => typeof l.name === 'string' && typeof l.url === 'string');
  const hrefOf = (l: RepoLink) => (typeof l.direct_asset_url === 'string' ? l.direct_asset_url : (l.url as string));
  const checksumFile = links.find((l) => l.name === 'checksums.txt' || l.name === `${CLI_NAME}_${version}_checksums.txt`);
  const sums = checksumFile ? parseChecksums(await fetchText(hrefOf(checksumFile), req)) : new Map<string, string>();
  const assets: ReleaseAsset[] = [];
  for (const link of links) {
    const m = ASSET_NAME.exec(link.name);
    if (!m || cleanVersion(m[1]) !== version) continue;
    let sha256 = sums.get(link.name);
    const own = links.find((l) => l.name === `${link.name}.sha256`);
    if (!sha256 && own) sha256 = parseChecksums(await fetchText(hrefOf(own), req), link.name).get(link.name);
    assets.push({ os: canonicalOs(m[2]), arch: canonicalArch(m[3]), url: hrefOf(link), filename: link.name, ...(sha256 ? { sha256 } : {}) });
  }
  return assets;
}

async function fetchText(url: string, req: OutboundRequest): Promise<string> {
  const res = await upstream(url, req);
  const text = await res.text(1024 * 1024).catch((err: Error) => {
    throw new ReleaseSourceError(err.message);
  });
  if (res.status !== 200) throw new ReleaseSourceError(`checksum file answered ${res.status}`);
  return text;
}

/** `<hex>  <name>` lines (sha256sum; `*name` in binary mode); a lone hash is for `single`. */
export function parseChecksums(text: string, single?: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^([0-9a-fA-F]{64})(?:\s+\*?(.+?))?\s*$/.exec(line.trim());
    if (!m) continue;
    const name = m[2] ?? single;
    if (name) out.set(name, m[1].toLowerCase());
  }
  return out;
}
