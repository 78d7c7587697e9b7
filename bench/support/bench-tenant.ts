/**
 * What benchmarks do to a fresh bench platform before measuring: install the owner (and with it the
 * first tenant) over REST, call the REST API as that owner, and add a module from a local folder
 * (built with the sdk first, so a bench always measures the current source).
 */
import { loadModuleFromDir } from '../../core/kernel/modules/loaded-module';
import type { Platform } from '../../core/platform';
import { buildModule } from '../../sdk/build/build-module';
import type { BenchPlatform } from './bench-platform';

/**
 * A REST call under /api/v1 as the owner, in the owner's tenant; a JSON body, or a package as
 * `gzip`. Resolves to the parsed answer; any status from 300 up is an error (a bench must not
 * measure failures).
 */
export type BenchApi = <T = unknown>(method: string, urlPath: string, body?: unknown, gzip?: Buffer) => Promise<T>;

export interface BenchOwner {
  token: string;
  tenantId: string;
  /** Headers of a JSON request as the owner, for load generators that send their own requests. */
  headers: Record<string, string>;
  api: BenchApi;
}

/** bench: a bench platform, or any platform with a way to record the tenant (an app node's own). */
export async function installOwner(bench: Pick<BenchPlatform, 'platform' | 'track'>, organization: { name: string; slug: string }): Promise<BenchOwner> {
  const res = await fetch(`${bench.platform.url}/api/v1/install/owner`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ organization_name: organization.name, organization_slug: organization.slug, name: 'Bea Bench', email: 'bea@bench.example', password: 'bench-password-123' }),
  });
  const owner = (await res.json()) as { token: string; tenant: { id: string } };
  if (res.status !== 201) throw new Error(`install failed: ${res.status} ${JSON.stringify(owner)}`);
  const tenantId = bench.track(owner.tenant.id);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${owner.token}`, 'x-tenant': tenantId };
  const api: BenchApi = async (method, urlPath, body, gzip) => {
    const res = await fetch(`${bench.platform.url}/api/v1${urlPath}`, {
      method,
      headers: gzip ? { ...headers, 'content-type': 'application/gzip' } : headers,
      body: gzip ? new Uint8Array(gzip) : body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${urlPath}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as never;
  };
  return { token: owner.token, tenantId, headers, api };
}

/** Builds the module in dir and makes it installable on this platform (no registry, no ring). */
export async function addLocalModule(platform: Platform, dir: string): Promise<void> {
  await buildModule(dir);
  platform.kernel.source.add(await loadModuleFromDir(dir));
}
