/**
 * Boots a real platform for a test file: a fresh central database on the test PostgreSQL server
 * (see global-setup.mjs), the drivers REDIS_URL selects, and a real HTTP listener on a free port.
 * `close()` stops it and drops every database it created.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../core/config';
import { createLogger, type Logger } from '../../core/logger';
import { startPlatform, type Platform } from '../../core/platform';
import { databaseUrl, dropDatabase } from '../../core/data/pg-admin';
import { tenantDbName } from '../../core/data/tenant-databases';
import { readOutbox } from '../../core/mail/outbox';
import { inviteAndJoin } from '../../sdk/test-member';

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

export function testServerUrl(): string {
  const url = process.env.MANDI_TEST_PG_URL;
  if (!url) throw new Error('MANDI_TEST_PG_URL is not set: run the tests through jest (global-setup starts PostgreSQL).');
  return url;
}

export async function startTestPlatform(env: Record<string, string> = {}, centralDb?: string, logger?: Logger): Promise<TestPlatform> {
  const dbName = centralDb ?? `mandi_t_${randomBytes(5).toString('hex')}`;
  // Files a platform writes (mail outbox, documents, registry blobs) go to a folder of this run.
  const dataDir = path.join(os.tmpdir(), `mandi-test-${dbName}`);
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl(testServerUrl(), dbName),
    REDIS_URL: process.env.REDIS_URL ?? '',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ROOT_DOMAIN: 'mandi.test',
    TENANT_POOL_IDLE_MS: '5000',
    REDIS_PREFIX: `mandi-test-${dbName}`,
    DATA_DIR: dataDir,
    ...env,
  });
  const platform = await startPlatform(config, logger ?? createLogger(config.logLevel));

  const api = apiClient(platform.url);

  const install = async (slug = 'acme') => {
    const res = await api('/install/owner', {
      body: { organization_name: 'Acme Stores', organization_slug: slug, name: 'Ada Owner', email: `ada@${slug}.example`, password: 'correct-horse-battery' },
    });
    if (res.status !== 201) throw new Error(`install failed: ${res.status} ${JSON.stringify(res.body)}`);
    return { token: res.body.token as string, tenantId: res.body.tenant.id as string, alias: slug, userId: res.body.user.id as number };
  };

  const close = async () => {
    const tenantIds = (await platform.central.models.Tenant.findAll({ attributes: ['id'] }).catch(() => [])).map((t) => t.id);
    await platform.stop();
    for (const id of tenantIds) await dropDatabase(testServerUrl(), tenantDbName(id));
    if (!centralDb) await dropDatabase(testServerUrl(), dbName);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const mails = () => readOutbox(path.join(config.dataDir, 'outbox'));
  return { platform, url: platform.url, config, api, mails, install, close };
}

/**
 * Adds a member with a role to a tenant the way a person joins (invitation, mailed link, own
 * password; see sdk/test-member.ts); returns their token in that tenant. A super admin adding to
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
