/**
 * Shared by the reseller catalog tests: a test host whose tenant is level 0 of the reseller
 * network (the super admin's), sub-resellers made under it through the platform's own API, each
 * with the module installed and an admin of its own, and requests as any of them.
 */
import path from 'node:path';
import { createTestHost, type TestHost } from '../../../sdk/testing';

export const CATALOG_DIR = path.resolve(__dirname, '..');
/** Records the catalog's events (fixtures/recorder). */
export const RECORDER_DIR = path.resolve(__dirname, 'fixtures', 'recorder');

export function startHost(opts: { recorder?: boolean } = {}): Promise<TestHost> {
  return createTestHost({ modulePath: CATALOG_DIR, withModules: opts.recorder ? [RECORDER_DIR] : [] });
}

/** The catalog events the recorder fixture received, oldest first. */
export async function recorded(host: TestHost, event: string): Promise<Array<Record<string, unknown>>> {
  const { events } = await host.call<{ events: Array<{ payload: Record<string, unknown> }> }>('recorder.list', { event });
  return events.map((e) => e.payload);
}

export interface Member {
  tenant: string;
  token: string;
}

export interface Reply {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
}

/** A real HTTP request to /api/v1 as `who`, in `who`'s tenant unless `tenant` says otherwise. */
export async function api(host: TestHost, who: Member, method: string, p: string, body?: unknown, extra: Record<string, string> = {}): Promise<Reply> {
  const res = await fetch(`${host.url}/api/v1${p}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${who.token}`, 'x-tenant': who.tenant, ...extra },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** A sub-reseller under `parent` (made by the super admin), with the catalog installed and an admin. */
export async function subReseller(host: TestHost, name: string, alias: string, parent: string, modules = ['reseller_catalog']): Promise<Member> {
  const made = await host.request('POST', '/admin/tenants', { name, alias, parent_tenant: parent });
  if (made.status !== 201) throw new Error(`POST /admin/tenants: ${made.status} ${JSON.stringify(made.body)}`);
  const tenant = made.body.tenant.id as string;
  for (const m of modules) await host.installModule(m, { tenant });
  const { token } = await host.addMember({ email: `admin@${alias}.example`, role: 'admin', name: `${name} admin` }, tenant);
  return { tenant, token };
}

/** A member of `who`'s tenant whose role holds only `permissions` (POST /roles by the tenant's admin). */
export async function memberWith(host: TestHost, who: Member, role: string, permissions: string[]): Promise<Member> {
  const made = await api(host, who, 'POST', '/roles', { name: role, description: `catalog test role ${role}`, permissions });
  if (made.status !== 201) throw new Error(`POST /roles: ${made.status} ${JSON.stringify(made.body)}`);
  const { token } = await host.addMember({ email: `${role}@${who.tenant}.example`, role, name: `Member ${role}` }, who.tenant);
  return { tenant: who.tenant, token };
}
