/**
 * Shared by the registry and ring tests: real packages of the stock fixture (built with the sdk's
 * buildModule and packed with packModule, as `mandi module pack` does), published over HTTP, and
 * helpers for tenants in rings and for waiting on lifecycle operations.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildModule } from '../../sdk/build/build-module';
import { packModule, type PackResult } from '../../sdk/package';
import { addMember, type TestPlatform } from '../support/test-platform';

export const fixture = (name: string) => path.join(__dirname, 'fixtures', name);

const packed = new Map<string, Promise<PackResult>>();

/** Builds and packs a fixture folder (by name, or any module folder by absolute path) once per test file. */
export function pack(name: string): Promise<PackResult> {
  let p = packed.get(name);
  if (!p) {
    const dir = path.isAbsolute(name) ? name : fixture(name);
    p = (async () => {
      await buildModule(dir);
      const outDir = await mkdtemp(path.join(os.tmpdir(), 'mandi-pkg-'));
      return packModule(dir, { outDir });
    })();
    packed.set(name, p);
  }
  return p;
}

export interface RawResponse {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON of any shape under test
  bytes: Buffer;
  headers: Headers;
}

/** A request with a binary body (the package upload), over real HTTP. */
export async function rawRequest(tp: TestPlatform, method: string, urlPath: string, opts: { token?: string; body?: Buffer; headers?: Record<string, string> } = {}): Promise<RawResponse> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body) headers['content-type'] ??= 'application/gzip';
  const res = await fetch(`${tp.url}/api/v1${urlPath}`, { method, headers, body: opts.body ? new Uint8Array(opts.body) : undefined });
  const bytes = Buffer.from(await res.arrayBuffer());
  let body: unknown = bytes.toString('utf8');
  try {
    body = JSON.parse(body as string);
  } catch {
    /* binary or text: the test reads bytes */
  }
  return { status: res.status, body, bytes, headers: res.headers };
}

export async function publish(tp: TestPlatform, token: string, name: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const pkg = await pack(name);
  return rawRequest(tp, 'POST', '/registry/packages', { token, body: pkg.buffer, headers });
}

export async function publishOk(tp: TestPlatform, token: string, name: string): Promise<void> {
  const res = await publish(tp, token, name);
  if (res.status !== 201) throw new Error(`publish ${name} failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** Promotes and waits for the outcome; returns the HTTP answer (200 with the operation, or the error). */
export function promote(tp: TestPlatform, token: string, ring: string, module: string, version: string, from?: string) {
  return tp.api(`/rings/${ring}/promote?wait=true`, { token, body: { module, version, ...(from ? { from } : {}) } });
}

export async function promoteOk(tp: TestPlatform, token: string, ring: string, module: string, version: string, from?: string) {
  const res = await promote(tp, token, ring, module, version, from);
  if (res.status !== 200 || res.body.operation?.status !== 'completed') throw new Error(`promote failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.operation;
}

export interface ShopTenant {
  id: string;
  alias: string;
  /** Token of an admin member of the tenant (module routes are matched in the X-Tenant tenant). */
  token: string;
}

/** A tenant created by the super admin in the given ring, with an admin member to act in it. */
export async function tenantIn(tp: TestPlatform, owner: { token: string; alias: string }, alias: string, ring: string): Promise<ShopTenant> {
  const res = await tp.api('/admin/tenants', { token: owner.token, tenant: owner.alias, body: { name: `Shop ${alias}`, alias, ring } });
  if (res.status !== 201) throw new Error(`create tenant failed: ${res.status} ${JSON.stringify(res.body)}`);
  const admin = await addMember(tp, owner.token, alias, { email: `admin@${alias}.example`, name: `Admin of ${alias}`, role: 'admin' }, owner.alias);
  return { id: res.body.tenant.id, alias, token: admin.token };
}

/** Calls the API in a tenant as its admin. */
export function inTenant(tp: TestPlatform, tenant: ShopTenant, urlPath: string, init: { method?: string; body?: unknown } = {}) {
  return tp.api(urlPath, { ...init, token: tenant.token, tenant: tenant.alias });
}

export function busCall(tp: TestPlatform, tenantId: string, op: string, input: unknown) {
  return tp.platform.kernel.bus.call({ kind: 'core' }, op, input, { tenantId, user: null });
}

/** The versions installed per tenant id, as the central database records them. */
export async function installedVersions(tp: TestPlatform, alias: string): Promise<Record<string, string>> {
  const rows = await tp.platform.central.models.ModuleInstall.findAll({ where: { alias, status: 'installed' } });
  return Object.fromEntries(rows.map((r) => [r.tenant_id, r.version]));
}

/** Ids of the module's migrations that have run in the tenant's database. */
export function appliedMigrations(tp: TestPlatform, tenantId: string, alias: string): Promise<string[]> {
  return tp.platform.kernel.moduleData.appliedMigrations(tenantId, alias);
}
