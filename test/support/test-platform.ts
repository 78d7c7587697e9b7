/**
 * A real platform for a core test file, booted the one way tests boot one (core/testing, the same
 * code under createTestHost), with the core suites' defaults and an HTTP client that can set
 * any header. `close()` stops it and drops every database it created.
 */
import http from 'node:http';
import { bootTestPlatform, type Config, type Logger, type Platform } from '../../core/testing';
import { inviteAndJoin } from '../../sdk/testing/members';

export { testServerUrl } from '../../core/testing';

export interface TestPlatform {
  platform: Platform;
  url: string;
  config: Config;
  api(path: string, init?: ApiInit): Promise<ApiResponse>;
  /** Every mail the platform sent so far, oldest first (its outbox; an SMTP stand-in replaces this). */
  mails(): Promise<Array<{ to: string | string[]; subject: string; text: string }>>;
  /** Installs the platform: first tenant + owner (super admin); returns their token. */
  install(slug?: string): Promise<{ token: string; tenantId: string; alias: string; userId: number }>;
  close(): Promise<void>;
}

export interface ApiInit {
  method?: string;
  body?: unknown;
  rawBody?: string;
  token?: string;
  tenant?: string;
  headers?: Record<string, string>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON of any shape under test
}

/** node:http rather than fetch: fetch may not set the Host header, which tenant routing tests need. */
export function httpRequest(url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: Headers; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
        resolve({ status: res.statusCode ?? 0, headers: h, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Calls the API of the platform listening at `url` (in this process or another). */
export function apiClient(url: string): (path: string, init?: ApiInit) => Promise<ApiResponse> {
  return async (path, init = {}) => {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    if (init.tenant) headers['x-tenant'] = init.tenant;
    let body: string | undefined = init.rawBody;
    if (init.body !== undefined) body = JSON.stringify(init.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await httpRequest(`${url}/api/v1${path}`, init.method ?? (body !== undefined ? 'POST' : 'GET'), headers, body);
    let parsed: unknown = res.text;
    try {
      parsed = res.text ? JSON.parse(res.text) : undefined;
    } catch {
      /* not JSON: the test sees the text */
    }
    return { status: res.status, headers: res.headers, body: parsed };
  };
}

export async function startTestPlatform(env: Record<string, string> = {}, centralDb?: string, logger?: Logger): Promise<TestPlatform> {
  const { platform, config, mails, close } = await bootTestPlatform({ env: { ROOT_DOMAIN: 'mandi.test', TENANT_POOL_IDLE_MS: '5000', ...env }, centralDb, logger });
  const api = apiClient(platform.url);

  return { platform, url: platform.url, config, api, mails, install: (slug?: string) => installOwner(api, slug), close };
}

/** The first tenant and its owner (POST /install/owner), on a platform of its own or a real process. */
export async function installOwner(api: ReturnType<typeof apiClient>, slug = 'acme') {
  const res = await api('/install/owner', {
    body: { organization_name: 'Acme Stores', organization_slug: slug, name: 'Ada Owner', email: `ada@${slug}.example`, password: 'correct-horse-battery' },
  });
  if (res.status !== 201) throw new Error(`install failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { token: res.body.token as string, tenantId: res.body.tenant.id as string, alias: slug, userId: res.body.user.id as number };
}

/**
 * Adds a member with a role to a tenant the way a person joins (invitation, mailed link, own
 * password; see sdk/testing/members.ts); returns their token in that tenant. A super admin adding to
 * another tenant passes `actingFrom`, the tenant of their token.
 */
export async function addMember(
  tp: TestPlatform,
  adminToken: string,
  tenant: string,
  member: { email: string; name?: string; role?: string; password?: string },
  actingFrom = tenant,
): Promise<{ token: string; userId: number }> {
  return inviteAndJoin({ url: tp.url, adminToken, adminTenant: actingFrom, tenant, mails: () => tp.mails(), ...member });
}
