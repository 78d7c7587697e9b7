/**
 * createTestHost: runs a module in the real platform — real isolated-vm sandbox, real bus, real
 * PostgreSQL — for a module author's own tests. It boots a platform on a free port with a fresh
 * central database, installs the platform (one tenant, one owner), builds and installs the module
 * (and any modules it depends on), and hands back ways to call it.
 *
 * PostgreSQL: MANDI_TEST_PG_URL (set by the project's jest global setup) or DATABASE_URL.
 * Redis: REDIS_URL when set, else in-process drivers.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../core/config';
import { createLogger } from '../core/logger';
import { startPlatform, type Platform } from '../core/platform';
import { databaseUrl, dropDatabase } from '../core/data/pg-admin';
import { tenantDbName } from '../core/data/tenant-databases';
import { loadModuleFromDir } from '../core/modules/loaded-module';
import { buildModule } from './build/build-module';
import { EVENTS_QUEUE, deliveryJobId } from '../core/bus/events';
import { backoffDelay } from '../core/drivers/queue/schedule';
import { readOutbox } from '../core/mail/outbox';
import { inviteAndJoin } from './test-member';

export interface TestHostOptions {
  /** Folder of the module under test (holding module.json). */
  modulePath: string;
  /** Folders of other modules to install first (e.g. one whose operations yours consumes). */
  withModules?: string[];
  /** Build each module with esbuild before loading it (default true). */
  build?: boolean;
  /** Extra environment settings for the platform (see the README's table). */
  env?: Record<string, string>;
}

export interface CallOptions {
  /** Call as this module (api.consumes applies) instead of as the tenant owner over the edge. */
  asModule?: string;
}

export interface TestHost {
  platform: Platform;
  /** Base URL of the running platform, e.g. http://127.0.0.1:41234 */
  url: string;
  tenantId: string;
  /** Bearer token of the tenant owner (every permission). */
  token: string;
  /** Calls a bus operation for the tenant, as its owner (or as a module). Rejects with the typed error. */
  call<O = unknown>(operation: string, input?: unknown, opts?: CallOptions): Promise<O>;
  /**
   * A member of the tenant (or, as the super admin owner, of another tenant) with `role`, joined the
   * way people join: invited, accepting the mailed link with their own password. Returns their token.
   */
  addMember(member: { email: string; role: string; name?: string; password?: string }, tenant?: string): Promise<{ token: string; userId: number }>;
  /** A real HTTP request to /api/v1 as the owner; returns status and parsed JSON. */
  request(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
  /**
   * Emits an event for the tenant as the platform would (subscribers get it through the queue).
   * With `{settle: true}` it resolves only once every module subscriber has handled it (or failed
   * for good), so a test can assert on the effect — or on the absence of one.
   */
  emit(event: string, payload: unknown, opts?: { settle?: boolean }): Promise<string>;
  /** Waits until `check` passes (e.g. an event handler's effect), polling up to `timeoutMs`. */
  eventually<T>(check: () => Promise<T>, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

async function settled(platform: Platform, jobId: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await platform.drivers.queue.getJob(EVENTS_QUEUE, jobId);
    if (job && (job.state === 'completed' || job.state === 'failed')) return;
    if (Date.now() > deadline) throw new Error(`event delivery ${jobId} did not finish within ${timeoutMs} ms (state: ${job?.state ?? 'unknown'})`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function serverUrl(): string {
  const url = process.env.MANDI_TEST_PG_URL || process.env.DATABASE_URL;
  if (!url) throw new Error('createTestHost needs PostgreSQL: run under the project jest setup (MANDI_TEST_PG_URL) or set DATABASE_URL.');
  return url;
}

export async function createTestHost(opts: TestHostOptions): Promise<TestHost> {
  const dirs = [...(opts.withModules ?? []), opts.modulePath].map((d) => path.resolve(d));
  if (opts.build !== false) for (const dir of dirs) await buildModule(dir);
  const central = `mandi_th_${randomBytes(5).toString('hex')}`;
  // Mail (invitations included) goes to this host's own outbox, never shared with another host.
  const dataDir = path.join(os.tmpdir(), `mandi-th-${central}`);
  const config = loadConfig({
    DATA_DIR: dataDir,
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl(serverUrl(), central),
    REDIS_URL: process.env.REDIS_URL ?? '',
    REDIS_PREFIX: `mandi-th-${central}`,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // A handler that fails is retried within a second or two, not half a minute.
    EVENT_RETRY_BACKOFF_MS: '100',
    ...opts.env,
  });
  // emit({settle}) waits out every retry a failing subscriber gets, plus time to run them.
  const { attempts, backoffMs } = config.eventDelivery;
  const settleMs = 15_000 + Array.from({ length: attempts - 1 }, (_, i) => backoffDelay({ type: 'exponential', delay: backoffMs }, i + 1)).reduce((a, b) => a + b, 0);
  const platform = await startPlatform(config, createLogger(config.logLevel));
  try {
    const mods = [];
    for (const dir of dirs) mods.push(await loadModuleFromDir(dir));
    for (const mod of mods) platform.kernel.source.add(mod);

    const request = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(`${platform.url}/api/v1${p}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}`, 'x-tenant': tenantId } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    let token = '';
    let tenantId = '';
    const installed = await request('POST', '/install/owner', {
      organization_name: 'Test Organisation',
      organization_slug: 'test-org',
      name: 'Test Owner',
      email: 'owner@test-org.example',
      password: 'test-host-password',
    });
    if (installed.status !== 201) throw new Error(`test host install failed: ${JSON.stringify(installed.body)}`);
    token = installed.body.token;
    tenantId = installed.body.tenant.id;
    for (const mod of mods) await platform.kernel.modules.install(tenantId, mod.alias, mod.manifest.version);

    const owner = await platform.central.models.User.findOne({ where: { email: 'owner@test-org.example' } });
    const user = { id: owner!.id, email: owner!.email, name: owner!.name, isSuperAdmin: true };

    return {
      platform,
      url: platform.url,
      tenantId,
      token,
      call: (operation, input, callOpts) =>
        platform.kernel.bus.call(
          callOpts?.asModule ? { kind: 'module', alias: callOpts.asModule } : { kind: 'edge', via: 'http' },
          operation,
          input,
          { tenantId, user, permissions: new Set(['*']) },
        ) as Promise<never>,
      request,
      addMember: (member, tenant = tenantId) =>
        inviteAndJoin({ url: platform.url, adminToken: token, adminTenant: tenantId, tenant, mails: () => readOutbox(path.join(config.dataDir, 'outbox')), ...member }),
      emit: async (event, payload, emitOpts) => {
        const id = await platform.kernel.events.emit(tenantId, event, payload, 'test');
        if (emitOpts?.settle) {
          const subscribers = (await platform.kernel.modules.modulesFor(tenantId)).subscribersOf(event);
          for (const m of subscribers) await settled(platform, deliveryJobId(id, m.alias), settleMs);
        }
        return id;
      },
      eventually: async (check, timeoutMs = 10_000) => {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          try {
            return await check();
          } catch (err) {
            if (Date.now() > deadline) throw err;
            await new Promise((r) => setTimeout(r, 50));
          }
        }
      },
      close: async () => {
        const tenants = (await platform.central.models.Tenant.findAll({ attributes: ['id'] })).map((t) => t.id);
        await platform.stop();
        for (const id of tenants) await dropDatabase(serverUrl(), tenantDbName(id));
        await dropDatabase(serverUrl(), central);
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await platform.stop();
    await dropDatabase(serverUrl(), central).catch(() => undefined);
    throw err;
  }
}
