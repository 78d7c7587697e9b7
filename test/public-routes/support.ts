/** A platform with the widgetry fixture (public routes under /api/widget) in two tenants, and a client for /api/<prefix>/... */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { buildModule } from '../../sdk/build/build-module';
import { loadModuleFromDir } from '../../core/kernel/modules/loaded-module';
import type { Logger } from '../../core/kernel/logger';
import { httpRequest, startTestPlatform, type TestPlatform } from '../support/test-platform';

export const fixture = (name: string) => path.join(__dirname, 'fixtures', name);

export async function addFixture(tp: TestPlatform, dir: string): Promise<void> {
  await buildModule(dir);
  tp.platform.kernel.source.add(await loadModuleFromDir(dir));
}

export interface WidgetPlatform {
  tp: TestPlatform;
  owner: Awaited<ReturnType<TestPlatform['install']>>;
  globexId: string;
  /** Calls /api/v1<path> as the owner in acme, or (tenant 'globex') acting in globex. */
  asOwner(p: string, body?: unknown, tenant?: 'acme' | 'globex'): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
  /** Opens a widget in the tenant: its token made by the host, the widget stored in the tenant's database; answers the token. */
  openWidget(tenant: 'acme' | 'globex', name: string, domains?: string[]): Promise<string>;
}

export async function widgetPlatform(env: Record<string, string> = {}, logger?: Logger): Promise<WidgetPlatform> {
  const tp = await startTestPlatform(env, undefined, logger);
  const owner = await tp.install('acme');
  const made = await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Globex', alias: 'globex' } });
  await addFixture(tp, fixture('widgetry'));
  for (const tenant of ['acme', 'globex'] as const) {
    const res = await tp.api('/modules/widgetry/install', { token: owner.token, tenant: 'acme', headers: tenant === 'globex' ? { 'x-effective-tenant': 'globex' } : {}, body: {} });
    if (res.status !== 201) throw new Error(`install widgetry in ${tenant}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const asOwner: WidgetPlatform['asOwner'] = (p, body, tenant = 'acme') =>
    tp.api(p, { token: owner.token, tenant: 'acme', headers: tenant === 'globex' ? { 'x-effective-tenant': 'globex' } : {}, ...(body === undefined ? {} : { body }) });
  const openWidget: WidgetPlatform['openWidget'] = async (tenant, name, domains = []) => {
    const res = await asOwner('/widgetry/widgets', { name, domains }, tenant);
    if (res.status !== 201) throw new Error(`open widget in ${tenant}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.token as string;
  };
  return { tp, owner, globexId: made.body.tenant.id, asOwner, openWidget };
}

export interface PublicResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
}

/** A request to /api<path> with no token: what a browser or a webhook sender does. */
export async function callPublic(url: string, p: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<PublicResponse> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await httpRequest(`${url}/api${p}`, init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body);
  let parsed: unknown = res.text;
  try {
    parsed = res.text ? JSON.parse(res.text) : undefined;
  } catch {
    /* not JSON: the test sees the text */
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** A random token of the widget length (spec 2, Limits: 32 characters). */
export const newToken = (): string => randomBytes(24).toString('base64url');
