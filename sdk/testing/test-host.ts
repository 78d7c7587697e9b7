/**
 * createTestHost: runs a module in the real platform — real isolated-vm sandbox, real bus, real
 * PostgreSQL — for a module author's own tests. It boots a platform on a free port with a fresh
 * central database, installs the platform (one tenant, one owner), builds and installs the module
 * (and any modules it depends on), and hands back ways to call it.
 *
 * PostgreSQL: MANDI_TEST_PG_URL (set by the project's jest global setup) or DATABASE_URL.
 * Redis: REDIS_URL when set, else in-process drivers.
 */
import path from 'node:path';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { bootTestPlatform, createLogger, type DeliveryState, type StandInOptions } from '../../core/testing';
import type { JobInfo } from '../runtime/jobs';
import { buildModule } from '../build/build-module';
import { inviteAndJoin } from './members';
import { startSmtpSink } from './smtp-sink';

export type { DeliveryState, StandInOptions };

export interface TestHostOptions {
  /** Folder of the module under test (holding module.json). */
  modulePath: string;
  /** Folders of other modules to install first (e.g. one whose operations yours consumes). */
  withModules?: string[];
  /** Build each module with esbuild before loading it (default true). */
  build?: boolean;
  /** Extra environment settings for the platform (see docs/reference/environment.md). */
  env?: Record<string, string>;
  /** Keep every log line the platform writes, at debug level, for logLines() (e.g. to check no secret is ever logged). */
  captureLogs?: boolean;
  /**
   * Send mail over SMTP to a real SMTP server the host starts on 127.0.0.1, instead of writing it to
   * the outbox: for a test of the mail transport itself. inbox() reads either.
   */
  smtp?: boolean;
}

export interface CallOptions {
  /** Call as this module (api.consumes applies) instead of as the tenant owner over the edge. */
  asModule?: string;
}

/** The platform clock (every time rule and host.now() reads it), settable by the test. */
export interface TestClock {
  now(): number;
  /** now() reads `at` and the clock runs on from there. */
  set(at: Date | number): void;
  /** now() reads `at` (default: the current reading) until set, advanced or reset. */
  freeze(at?: Date | number): void;
  advance(ms: number): void;
  /** Back to real time. */
  reset(): void;
}

/** A mail the platform sent, from the outbox or the SMTP server of `smtp: true`. */
export interface TestMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** Positional (`$1`: an array) or named (`:name`: an object) parameters of a SQL statement. */
export type SqlParams = unknown[] | Record<string, unknown>;
export type SqlRunner = <T = Record<string, unknown>>(query: string, params?: SqlParams) => Promise<T[]>;

export interface TestHost {
  /** Base URL of the running platform, e.g. http://127.0.0.1:41234 */
  url: string;
  tenantId: string;
  /** Bearer token of the tenant owner (every permission). */
  token: string;
  /** Name of the tenant's own database on the PostgreSQL server (to tell its traffic from the central database's). */
  tenantDatabase: string;
  /** Calls a bus operation for the tenant, as its owner (or as a module). Rejects with the typed error. */
  call<O = unknown>(operation: string, input?: unknown, opts?: CallOptions): Promise<O>;
  /**
   * A member of the tenant (or, as the super admin owner, of another tenant) with `role`, joined the
   * way people join: invited, accepting the mailed link with their own password. Returns their token.
   */
  addMember(member: { email: string; role: string; name?: string; password?: string }, tenant?: string): Promise<{ token: string; userId: number }>;
  /** A real HTTP request to /api/v1 as the owner; returns status and parsed JSON. */
  request(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
  /** The same as another member of the test tenant, with their bearer token (e.g. from addMember). */
  requestAs(token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
  /** A member of the test tenant whose new role `role` holds only `permissions` (POST /roles, then addMember); returns their token. */
  memberWith(role: string, permissions: string[]): Promise<string>;
  /** Installs a module the host has loaded in the tenant (or another one, e.g. made with POST /admin/tenants). */
  installModule(alias: string, opts?: { tenant?: string; version?: string }): Promise<void>;
  /** Uninstalls a module from the tenant (its data stays, as with DELETE /modules/{alias}). */
  uninstallModule(alias: string, opts?: { tenant?: string }): Promise<void>;

  /** The platform clock. Reset it after a test that moved it. */
  clock: TestClock;
  /**
   * Queues every schedule due at `at` (default clock.now()), as the minute tick does, without waiting
   * for the timer; resolves to how many runs were queued. With `{settle: true}` it resolves once the
   * tenant's runs of the slots due then (and any run of the slot before still going) have finished.
   */
  runSchedules(at?: number, opts?: { settle?: boolean }): Promise<number>;
  /** Runs the schedule `name` (of `module`, when two modules have one of that name) now and resolves with its result. */
  runSchedule(name: string, opts?: { module?: string; at?: Date | number }): Promise<unknown>;

  /**
   * Runs the tenant's module jobs (manifest `jobs`) that are pending and due at `at` (default
   * clock.now()) now, each to its end: its attempts back to back, without backoff waits. So a job
   * enqueued with delaySeconds: 60 runs here once the test has advanced the clock by a minute.
   * Resolves with the jobs as they ended, oldest first.
   */
  runJobs(at?: number): Promise<JobInfo[]>;
  /** A module job of the tenant as jobs.get shows it, wherever it was enqueued from. */
  job(id: string): Promise<JobInfo>;
  /** Waits for a module job to end on its own (through the queue, real time) and resolves with it. */
  settleJob(id: string, timeoutMs?: number): Promise<JobInfo>;

  /**
   * Emits an event for the tenant as the platform would (subscribers get it through the queue).
   * With `{settle: true}` it resolves only once every module subscriber has handled it (or failed
   * for good), so a test can assert on the effect — or on the absence of one.
   */
  emit(event: string, payload: unknown, opts?: { settle?: boolean }): Promise<string>;
  /** Resolves once every module's delivery of the event `eventId` has finished (handled, or failed for good). */
  settle(eventId: string): Promise<void>;
  /** Waits for one module's delivery of `eventId` to finish and says how it ended. */
  delivery(eventId: string, module: string): Promise<DeliveryState>;
  /**
   * Hands the event `eventId` to `module` once more, as at-least-once delivery may (after a node died
   * mid-handler); resolves with how that delivery ended. `module` may name a host part's subscription, e.g. "core:workflows".
   */
  redeliver(eventId: string, module: string): Promise<DeliveryState>;
  /** Waits until `check` passes (e.g. an event handler's effect), polling up to `timeoutMs`. */
  eventually<T>(check: () => Promise<T>, timeoutMs?: number): Promise<T>;

  /** Every mail the platform sent so far, oldest first. */
  inbox(): Promise<TestMail[]>;
  /** The first mail (sent already or within `timeoutMs`) that matches. */
  waitForMail(match: (m: TestMail) => boolean, timeoutMs?: number): Promise<TestMail>;

  /**
   * A read-only query on the tenant's database, for assertions: it runs in a READ ONLY transaction,
   * so a write is refused. `settings` are planner settings for this query alone (e.g. to EXPLAIN).
   */
  sql<T = Record<string, unknown>>(query: string, params?: SqlParams, opts?: { settings?: Record<string, string> }): Promise<T[]>;
  /**
   * Writes to the tenant's database in one transaction, to arrange a state the API cannot reach (a
   * crash mid-send, a concurrent writer holding a row lock). Never for assertions: use sql().
   */
  arrange<T>(fn: (sql: SqlRunner) => Promise<T>): Promise<T>;
  /**
   * Answers a consumed operation (one of a module the test does not install) with `handler`, a real
   * bus registration: the caller's api.consumes, the rate limit, the schemas and the audit apply.
   * Returns the removal.
   */
  standIn(operation: string, handler: (input: unknown) => unknown, opts?: StandInOptions): () => void;
  /** How many times the sandbox ran the handler of `operation` on this host so far. */
  handlerCalls(operation: string): number;
  /** The platform's log lines so far (JSON, one per line): only with `captureLogs`, else empty. */
  logLines(): string[];
  /** The tenant's audit rows so far (bus calls and admin actions), oldest first, pending ones flushed first. */
  auditRows(): Promise<Array<{ actor_type: string; actor_id: string | null; action: string; target: string | null; status: string; details: unknown }>>;
  close(): Promise<void>;
}

function runner(db: Sequelize, transaction: Transaction): SqlRunner {
  return (query, params) =>
    db.query(query, { type: QueryTypes.SELECT, transaction, ...(Array.isArray(params) ? { bind: params } : { replacements: params }) }) as Promise<never[]>;
}

export async function createTestHost(opts: TestHostOptions): Promise<TestHost> {
  const dirs = [...(opts.withModules ?? []), opts.modulePath].map((d) => path.resolve(d));
  if (opts.build !== false) for (const dir of dirs) await buildModule(dir);
  const smtp = opts.smtp ? await startSmtpSink() : undefined;
  const lines: string[] = [];
  const booted = await bootTestPlatform({
    prefix: 'mandi_th',
    ...(opts.captureLogs ? { logger: createLogger('debug', { destination: { write: (line: string) => void lines.push(line) } }) } : {}),
    // A handler that fails is retried within a second or two, not half a minute.
    env: { EVENT_RETRY_BACKOFF_MS: '100', ...(smtp ? { SMTP_URL: smtp.url } : {}), ...opts.env },
  }).catch(async (err) => {
    await smtp?.close();
    throw err;
  });
  const { platform, controls } = booted;
  const close = async () => {
    await booted.close();
    await smtp?.close();
  };
  const { settleMs } = controls;
  try {
    const mods = [];
    for (const dir of dirs) mods.push(await controls.loadModule(dir));

    const requestAs = async (as: string, method: string, p: string, body?: unknown) => {
      const res = await fetch(`${platform.url}/api/v1${p}`, {
        method,
        headers: { 'content-type': 'application/json', ...(as ? { authorization: `Bearer ${as}`, 'x-tenant': tenantId } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    const request = (method: string, p: string, body?: unknown) => requestAs(token, method, p, body);
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
    for (const mod of mods) await platform.kernel.modules.install(tenantId, mod.alias, mod.version);

    const owner = await platform.central.models.User.findOne({ where: { email: 'owner@test-org.example' } });
    const user = { id: owner!.id, email: owner!.email, name: owner!.name, isSuperAdmin: true };

    const inbox = async (): Promise<TestMail[]> =>
      smtp ? smtp.mails.map(({ to, subject, text, html }) => ({ to, subject, text, html })) : (await booted.mails()).map(({ to, subject, text, html }) => ({ to: [to].flat(), subject, text, html }));
    const addMember: TestHost['addMember'] = (member, tenant = tenantId) => inviteAndJoin({ url: platform.url, adminToken: token, adminTenant: tenantId, tenant, mails: inbox, ...member });
    const job = async (id: string) => {
      const found = await controls.job(tenantId, id);
      if (!found) throw new Error(`no module job ${id} in the test tenant`);
      return found;
    };

    return {
      url: platform.url,
      tenantId,
      token,
      tenantDatabase: controls.tenantDatabase(tenantId),
      call: (operation, input, callOpts) =>
        platform.kernel.bus.call(
          callOpts?.asModule ? { kind: 'module', alias: callOpts.asModule } : { kind: 'edge', via: 'http' },
          operation,
          input,
          { tenantId, user, permissions: new Set(['*']) },
        ) as Promise<never>,
      request,
      requestAs,
      addMember,
      memberWith: async (role, permissions) => {
        const made = await request('POST', '/roles', { name: role, description: `test role ${role}`, permissions });
        if (made.status !== 201) throw new Error(`POST /roles: ${made.status} ${JSON.stringify(made.body)}`);
        return (await addMember({ email: `${role}@test-org.example`, name: `Member ${role}`, role })).token;
      },
      installModule: async (alias, o = {}) => void (await platform.kernel.modules.install(o.tenant ?? tenantId, alias, o.version)),
      uninstallModule: (alias, o = {}) => platform.kernel.modules.uninstall(o.tenant ?? tenantId, alias),

      clock: platform.clock,
      runSchedules: (at = platform.clock.now(), o = {}) => controls.runSchedules(tenantId, at, o),
      runSchedule: (name, o = {}) => controls.runSchedule(tenantId, name, o),

      runJobs: (at = platform.clock.now()) => controls.runJobs(tenantId, at),
      job,
      settleJob: async (id, timeoutMs = settleMs) => {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const found = await job(id);
          if (found.status !== 'pending' && found.status !== 'active') return found;
          if (Date.now() > deadline) throw new Error(`job ${id} did not end within ${timeoutMs} ms (status: ${found.status})`);
          await new Promise((r) => setTimeout(r, 25));
        }
      },

      emit: (event, payload, emitOpts) => controls.emit(tenantId, event, payload, emitOpts),
      settle: (eventId) => controls.settle(tenantId, eventId),
      delivery: controls.delivery,
      redeliver: controls.redeliver,
      standIn: controls.standIn,
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

      inbox,
      waitForMail: async (match, timeoutMs = 15_000) => {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const found = (await inbox()).find(match);
          if (found) return found;
          if (Date.now() > deadline) throw new Error(`no matching mail within ${timeoutMs} ms`);
          await new Promise((r) => setTimeout(r, 25));
        }
      },
      sql: (query, params, o = {}) =>
        platform.tenantDbs.with(tenantId, (db) =>
          db.transaction(async (transaction) => {
            await db.query('SET TRANSACTION READ ONLY', { transaction });
            for (const [name, value] of Object.entries(o.settings ?? {})) await db.query('SELECT set_config($1, $2, true)', { bind: [name, value], transaction });
            return runner(db, transaction)(query, params);
          }),
        ),
      arrange: (fn) => platform.tenantDbs.with(tenantId, (db) => db.transaction((transaction) => fn(runner(db, transaction)))),
      handlerCalls: controls.handlerCalls,
      logLines: () => lines.slice(),
      auditRows: () => controls.auditRows(tenantId),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
