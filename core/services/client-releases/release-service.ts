/**
 * Which release source serves a tenant (its own channel, else the platform default), the normalised
 * manifest for it, and where each asset is fetched from. Upstream manifests are cached briefly per
 * source; the cache key includes a hash of the token, so a tenant naming another tenant's private
 * repository without its token never gets that tenant's cached answer.
 */
import { createHash } from 'node:crypto';
import type { ReleaseManifest } from '../../../sdk/cli/upgrade/release-manifest';
import type { Cache } from '../../kernel/drivers';
import { notFound } from '../../kernel/errors';
import { releaseErrors } from './errors';
import type { ChannelSource } from './channel-config';
import type { ChannelStore } from './channel-store';
import { httpsPolicy, type Environment } from '../../kernel/net/outbound-policy';
import { loadBucketManifest } from './sources/bucket-source';
import { loadHostedRepoManifest, repoRequest } from './sources/hosted-repo-source';
import { loadManifestAt } from './sources/static-source';
import type { OutboundRequest } from '../../kernel/net/outbound-request';

export type AssetDelivery = { mode: 'redirect'; url: string } | { mode: 'stream'; url: string; request: OutboundRequest; filename: string; size?: number };

export interface ReleaseServiceDeps {
  store: ChannelStore;
  cache: Cache;
  cacheSeconds: number;
  defaultSource: ChannelSource | undefined;
  env: Environment;
  /** The tenant's `webhooks.allow_private_networks` (core/kernel/tenancy/private-networks.ts). */
  allowsPrivateNetworks: (tenantId: string) => Promise<boolean>;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export class ReleaseService {
  constructor(private readonly deps: ReleaseServiceDeps) {}

  get defaultSource(): ChannelSource | undefined {
    return this.deps.defaultSource;
  }

  async sourceFor(tenantId: string): Promise<ChannelSource | undefined> {
    const stored = await this.deps.store.get(tenantId);
    if (!stored) return this.deps.defaultSource;
    const token = stored.config.adapter === 'hosted_repo' && stored.hasToken ? await this.deps.store.token(tenantId) : undefined;
    // A tenant chose these URLs: private addresses only when a platform admin allowed them for it.
    return { config: stored.config, token, policy: httpsPolicy(this.deps.env, await this.deps.allowsPrivateNetworks(tenantId)) };
  }

  /** The manifest for the tenant's channel with every asset URL pointing at this platform (Client releases rule 6). */
  async manifestFor(tenantId: string, apiBase: string): Promise<ReleaseManifest> {
    const upstream = await this.upstreamManifest(await this.requireSource(tenantId));
    return {
      ...upstream,
      releases: upstream.releases.map((r) => ({
        ...r,
        assets: r.assets.map((a) => ({ ...a, url: `${apiBase}/cli/releases/${encodeURIComponent(r.version)}/download/${encodeURIComponent(a.filename)}` })),
      })),
    };
  }

  /** Where the bytes of one asset come from; only assets the manifest lists can be asked for. */
  async assetFor(tenantId: string, version: string, filename: string): Promise<AssetDelivery> {
    const source = await this.requireSource(tenantId);
    const manifest = await this.upstreamManifest(source);
    const release = manifest.releases.find((r) => r.version === version.replace(/^v/, ''));
    const asset = release?.assets.find((a) => a.filename === filename);
    if (!release || !asset) throw notFound(`No asset ${filename} in release ${version}.`, { version, filename });
    const c = source.config;
    if (c.adapter !== 'hosted_repo') return { mode: 'redirect', url: asset.url };
    return { mode: 'stream', url: asset.url, request: { ...repoRequest(c, source.token, source.policy), timeoutMs: 30_000 }, filename, size: asset.size };
  }

  private async requireSource(tenantId: string): Promise<ChannelSource> {
    const source = await this.sourceFor(tenantId);
    if (!source) throw releaseErrors.noChannel();
    return source;
  }

  private upstreamManifest(source: ChannelSource): Promise<ReleaseManifest> {
    const load = () => {
      const c = source.config;
      if (c.adapter === 'static') return loadManifestAt(c.manifest_url, source.policy);
      if (c.adapter === 'bucket') return loadBucketManifest(c, source.policy);
      return loadHostedRepoManifest(c, source.token, source.policy);
    };
    if (this.deps.cacheSeconds <= 0) return load();
    const key = `cli-releases:manifest:${sha256(JSON.stringify({ config: source.config, token: source.token ? sha256(source.token) : null, allowPrivate: source.policy.allowPrivate }))}`;
    return this.deps.cache.wrap(key, this.deps.cacheSeconds, load);
  }
}
