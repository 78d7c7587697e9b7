/**
 * Step 1 of Client releases rule 2: the release manifest comes from the platform (GET /cli/releases,
 * with the configured token and tenant) and, when the platform lacks the endpoint (404, 501) or no
 * platform is configured, from the public mirror.
 */
import { ManifestFormatError, parseManifest, type ReleaseManifest } from './release-manifest';
import type { CliConfig } from './cli-config';
import { serverError } from './errors';
import { get, type Credentials } from './release-http';

export interface ResolvedManifest {
  manifest: ReleaseManifest;
  source: 'platform' | 'mirror';
  /** Sent with downloads that go to the platform's origin. */
  credentials?: Credentials;
}

export function platformCredentials(config: CliConfig): Credentials | undefined {
  if (!config.platformUrl) return undefined;
  const headers: Record<string, string> = {};
  if (config.token) headers.authorization = `Bearer ${config.token}`;
  if (config.tenant) headers['x-tenant'] = config.tenant;
  return { origin: new URL(config.platformUrl).origin, headers };
}

export async function resolveManifest(config: CliConfig): Promise<ResolvedManifest> {
  if (config.platformUrl) {
    const credentials = platformCredentials(config);
    const url = `${config.platformUrl.replace(/\/+$/, '')}/api/v1/cli/releases`;
    const fetched = await get(url, { credentials, accept: 'application/json' });
    const { response } = fetched;
    if (response.status !== 404 && response.status !== 501) {
      return { manifest: await readManifest(fetched, url), source: 'platform', credentials };
    }
    await response.body?.cancel();
    fetched.done();
  }
  const fetched = await get(config.mirrorUrl, { accept: 'application/json' });
  return { manifest: await readManifest(fetched, config.mirrorUrl), source: 'mirror' };
}

async function readManifest(fetched: Awaited<ReturnType<typeof get>>, url: string): Promise<ReleaseManifest> {
  const { response } = fetched;
  let text: string;
  try {
    text = await response.text();
  } finally {
    fetched.done();
  }
  if (response.status !== 200) {
    let detail = '';
    try {
      detail = (JSON.parse(text) as { message?: string }).message ?? '';
    } catch {
      // not JSON: the status says enough
    }
    const hint = response.status === 401 ? ' (check the token in ~/.mandi/config.json)' : '';
    throw serverError(`${new URL(url).host} answered ${response.status}${detail ? `: ${detail}` : ''}${hint}`);
  }
  try {
    const manifest = parseManifest(JSON.parse(text)).manifest;
    // Relative asset URLs are relative to where the manifest came from.
    for (const r of manifest.releases) for (const a of r.assets) a.url = new URL(a.url, fetched.url).href;
    return manifest;
  } catch (err) {
    if (err instanceof ManifestFormatError || err instanceof SyntaxError) throw serverError(`the release manifest from ${new URL(url).host} is unusable: ${err.message}`);
    throw err;
  }
}
