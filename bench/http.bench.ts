/**
 * HTTP benchmark (issue 2): what the platform keeps of a bare Express + pg app on one tenant-scoped,
 * authenticated read. Side by side in one run, each server in its own child process, the same
 * autocannon load for each (connections, duration, pipelining, warm-up):
 *
 *   (a) the platform (`startPlatform`, NODE_ENV=production), installed with a tenant and a token:
 *       GET /api/v1/activity-log?limit=1 with Authorization: Bearer and X-Tenant, one row read from
 *       the tenant database. API_RATE_LIMIT is raised so the limiter counts every request but never
 *       refuses one.
 *   (b) Express 5 + pg.Pool running the same SQL on the same tenant database, nothing around it.
 *   (c) bare node:http answering the same JSON bytes as a constant: the ceiling of this machine.
 *
 * Variants of (a) show what a setting costs: request logs on (LOG_LEVEL=info, the production
 * default) and, when REDIS_URL is set, the Redis drivers (rate-limit counter in Redis).
 * Target: (a) >= 60% of (b)'s requests/s. Every database this creates is dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { databaseUrl } from '../core/kernel/data/pg-admin';
import { tenantDbName } from '../core/kernel/data/tenant-databases';
import type { BenchContext, BenchReport, Benchmark, Check, Row } from './benchmark';
import { startChildServer, type ChildServer } from './support/child-server';
import { formatProfileSummary, summarizeProfile } from './support/cpu-profile';
import { dropBenchData } from './support/drop-bench-data';
import { openBenchPostgres } from './support/postgres-server';

const ROUTE = '/api/v1/activity-log?limit=1';
/** The platform's default TENANT_POOL_MAX; (b)'s pg.Pool gets as many connections. */
const POOL_MAX = 5;
const RATE_POINTS = 1_000_000_000;
/** Level of the headline (a): see docs/perf/history.md, "Logging", for why. */
const HEADLINE_LOG_LEVEL = 'warn';
const TARGET_RATIO = 0.6;

interface Target {
  key: string;
  label: string;
  server: ChildServer;
  headers: Record<string, string>;
  /** Platform targets: read the limiter's counter after the load to show it ran. */
  platform: boolean;
}

/** One measured window of one target. */
interface Measured {
  target: Target;
  result: autocannon.Result;
  cpuMicros: number;
  rssBytes: number;
  limiterCounted?: number;
  profile?: string;
}

const failures = (r: autocannon.Result) => r.errors + r.timeouts + r.non2xx;

/** The load running now, so an interrupted run can stop it (and start no more) before stopping the servers. */
let runningLoad: autocannon.Instance | undefined;
let interrupted = false;

function fire(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    if (interrupted) return reject(new Error('interrupted'));
    runningLoad = autocannon(opts, (err, result) => {
      runningLoad = undefined;
      if (err) reject(err instanceof Error ? err : new Error(String(err)));
      else resolve(result);
    });
  });
}

/** The middle value (the lower of the two middles for an even count). */
function median<T>(items: T[], by: (x: T) => number): T {
  return [...items].sort((x, y) => by(x) - by(y))[Math.floor((items.length - 1) / 2)];
}

async function getJson(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, text, body };
}

async function installPlatform(url: string): Promise<{ token: string; tenantId: string; alias: string; userId: number }> {
  const alias = 'bench';
  const res = await fetch(`${url}/api/v1/install/owner`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ organization_name: 'Bench Stores', organization_slug: alias, name: 'Bea Bench', email: 'bea@bench.example', password: 'bench-password-123' }),
  });
  const body = (await res.json()) as { token: string; tenant: { id: string }; user: { id: number } };
  if (res.status !== 201) throw new Error(`install failed: ${res.status} ${JSON.stringify(body)}`);
  return { token: body.token, tenantId: body.tenant.id, alias, userId: body.user.id };
}

/** A realistic little table: many users' rows, the owner's among them, so the WHERE clause has work to do. */
async function seedActivity(tenantDbUrl: string, ownerId: number): Promise<void> {
  const client = new pg.Client({ connectionString: tenantDbUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO activity_log (user_id, action, subject_type, subject_id, properties, ip_address, created_at)
       SELECT CASE WHEN i % 10 = 0 THEN $1 ELSE $1 + 1000 + i % 10 END, 'profile_updated', 'user', (i % 50)::text,
              jsonb_build_object('field', 'name', 'n', i), '203.0.113.' || (i % 250), now() - make_interval(secs => 2000 - i)
         FROM generate_series(1, 2000) AS i`,
      [ownerId],
    );
    await client.query('ANALYZE activity_log');
  } finally {
    await client.end();
  }
}

async function measure(ctx: BenchContext, t: Target, round: number, profileFile: string | undefined): Promise<Measured> {
  const { durationSeconds, warmupSeconds, connections, pipelining, rounds } = ctx.options;
  const load = (duration: number) => fire({ url: t.server.url + ROUTE, headers: t.headers, connections, pipelining, duration });
  ctx.log(`${t.label}${rounds > 1 ? ` (round ${round + 1}/${rounds})` : ''}: ${warmupSeconds} s warm-up, ${durationSeconds} s measured`);
  // Before every window, not only the first: idle pools close their connections after 10 s.
  await load(warmupSeconds);
  if (profileFile) await t.server.startProfile();
  const before = await t.server.stats();
  const result = await load(durationSeconds);
  const after = await t.server.stats();
  if (profileFile) await t.server.stopProfile(profileFile);

  let limiterCounted: number | undefined;
  if (t.platform) {
    const probe = await fetch(t.server.url + ROUTE, { headers: t.headers });
    await probe.arrayBuffer();
    limiterCounted = RATE_POINTS - Number(probe.headers.get('x-ratelimit-remaining'));
  }
  return { target: t, result, cpuMicros: after.cpuMicros - before.cpuMicros, rssBytes: after.rssBytes, limiterCounted, profile: profileFile };
}

/** Per round, this target's requests/s over (b)'s, then the median: neighbouring windows share the drift. */
function ratioToBaseline(windows: Measured[], baseline: Measured[]): number {
  return median(
    windows.map((m, i) => m.result.requests.average / baseline[i].result.requests.average),
    (r) => r,
  );
}

/** A target's row: requests/s and latencies of its median round; CPU and errors over all rounds. */
function row(windows: Measured[], baseline: Measured[]): Row {
  const mid = median(windows, (m) => m.result.requests.average);
  const requests = windows.reduce((n, m) => n + m.result.requests.total, 0);
  return {
    server: mid.target.label,
    'req/s': Math.round(mid.result.requests.average),
    'p50 ms': mid.result.latency.p50,
    'p99 ms': mid.result.latency.p99,
    'CPU µs/req': Math.round(windows.reduce((n, m) => n + m.cpuMicros, 0) / Math.max(1, requests)),
    'RSS MB': Math.round(Math.max(...windows.map((m) => m.rssBytes)) / 1024 / 1024),
    errors: windows.reduce((n, m) => n + failures(m.result), 0),
    'vs (b)': `${(ratioToBaseline(windows, baseline) * 100).toFixed(1)}%`,
  };
}

async function run(ctx: BenchContext): Promise<BenchReport> {
  const runId = randomBytes(4).toString('hex');
  const centralDb = `mandi_bench_${runId}`;
  const redisPrefix = `mandi-bench-${runId}`;
  const redisUrl = process.env.REDIS_URL || undefined;
  const profileDir = ctx.options.profile ? path.resolve('data/bench-profiles', runId) : undefined;
  if (profileDir) fs.mkdirSync(profileDir, { recursive: true });

  const pgServer = await openBenchPostgres(ctx.log);
  const servers: ChildServer[] = [];
  const starting: Promise<unknown>[] = [];
  const abort = new AbortController();
  let cleaning: Promise<void> | undefined;
  const cleanUp = () =>
    (cleaning ??= (async () => {
      // A server still booting could create the central database again after it is dropped.
      await Promise.allSettled(starting);
      await Promise.allSettled(servers.map((s) => s.stop()));
      await dropBenchData(pgServer.serverUrl, centralDb, redisUrl, redisPrefix, ctx.log);
      await pgServer.stop();
    })());
  // Ctrl-C in the middle of a run still drops its databases.
  const onInterrupt = () => {
    interrupted = true;
    runningLoad?.stop();
    abort.abort();
    void cleanUp().finally(() => process.exit(130));
  };
  process.once('SIGINT', onInterrupt);
  try {
    const platformEnv = (env: Record<string, string>) => ({
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl(pgServer.serverUrl, centralDb),
      // A window longer than any run, so the counter read at the end covers the whole run.
      API_RATE_LIMIT: `${RATE_POINTS}/3600`,
      TENANT_POOL_MAX: String(POOL_MAX),
      REDIS_URL: '',
      REDIS_PREFIX: redisPrefix,
      LOG_LEVEL: HEADLINE_LOG_LEVEL,
      ...env,
    });
    const start = async (name: string, script: string, env: Record<string, string>) => {
      ctx.log(`starting ${name}`);
      const pending = startChildServer(name, script, { env, signal: abort.signal });
      starting.push(pending);
      const s = await pending;
      servers.push(s);
      return s;
    };

    // (a) boots first: it creates and migrates the central database the variants then share.
    const a = await start('(a) platform', 'platform.ts', platformEnv({}));
    const owner = await installPlatform(a.url);
    const tenantDb = tenantDbName(owner.tenantId);
    await seedActivity(databaseUrl(pgServer.serverUrl, tenantDb), owner.userId);
    const authHeaders = { authorization: `Bearer ${owner.token}`, 'x-tenant': owner.alias };

    const targets: Target[] = [{ key: 'a', label: `(a) platform, LOG_LEVEL=${HEADLINE_LOG_LEVEL}`, server: a, headers: authHeaders, platform: true }];
    const logged = await start("(a') platform, request logs", 'platform.ts', platformEnv({ LOG_LEVEL: 'info' }));
    targets.push({ key: 'a-info', label: "(a') platform, LOG_LEVEL=info", server: logged, headers: authHeaders, platform: true });
    if (redisUrl) {
      const withRedis = await start("(a'') platform, Redis drivers", 'platform.ts', platformEnv({ REDIS_URL: redisUrl }));
      targets.push({ key: 'a-redis', label: `(a'') platform, Redis drivers`, server: withRedis, headers: authHeaders, platform: true });
    }
    const b = await start('(b) express + pg', 'express-pg.ts', {
      NODE_ENV: 'production',
      BENCH_TENANT_DB_URL: databaseUrl(pgServer.serverUrl, tenantDb),
      BENCH_USER_ID: String(owner.userId),
      BENCH_POOL_MAX: String(POOL_MAX),
    });
    targets.push({ key: 'b', label: '(b) express + pg', server: b, headers: {}, platform: false });

    // Same answer from every server before any load: the comparison is of equal work.
    const first = await getJson(a.url + ROUTE, authHeaders);
    const activities = (first.body as { activities?: unknown[] }).activities;
    if (first.status !== 200 || activities?.length !== 1) throw new Error(`(a) answered ${first.status}: ${first.text}`);
    if (first.headers.get('x-ratelimit-limit') !== String(RATE_POINTS)) throw new Error('(a) sent no X-RateLimit-Limit: is the limiter mounted?');
    for (const t of targets.slice(1)) {
      const other = await getJson(t.server.url + ROUTE, t.headers);
      if (other.status !== 200 || !isDeepStrictEqual(other.body, first.body)) throw new Error(`${t.label} answered ${other.status} ${other.text}, (a) ${first.text}`);
    }
    const c = await start('(c) node:http', 'node-http.ts', { NODE_ENV: 'production', BENCH_BODY: first.text });
    targets.push({ key: 'c', label: '(c) node:http, constant JSON', server: c, headers: {}, platform: false });

    const { durationSeconds, warmupSeconds, connections, pipelining, rounds } = ctx.options;
    const windows = new Map<string, Measured[]>(targets.map((t) => [t.key, []]));
    for (let round = 0; round < rounds; round++) {
      for (const t of targets) {
        // Profiles come from the first round only; its figures are then lower (sampling costs CPU).
        const profileFile = profileDir && round === 0 ? path.join(profileDir, `${t.key}.cpuprofile`) : undefined;
        windows.get(t.key)!.push(await measure(ctx, t, round, profileFile));
      }
    }

    const all = (key: string) => windows.get(key)!;
    const ratios = all('a').map((m, i) => m.result.requests.average / all('b')[i].result.requests.average);
    const ratio = ratioToBaseline(all('a'), all('b'));
    const checks: Check[] = [
      {
        name: `(a) >= ${TARGET_RATIO * 100}% of (b) requests/s`,
        ok: ratio >= TARGET_RATIO,
        detail: `${(ratio * 100).toFixed(1)}%${rounds > 1 ? ` (median of rounds: ${ratios.map((r) => `${(r * 100).toFixed(0)}%`).join(', ')})` : ''}`,
      },
    ];
    const failed = targets.filter((t) => all(t.key).some((m) => failures(m.result) > 0));
    checks.push({ name: 'no errors, timeouts or non-2xx answers', ok: !failed.length, detail: failed.length ? failed.map((t) => t.label).join(', ') : 'none' });

    const rows = targets.map((t) => row(all(t.key), all('b')));
    const cpuOf = (key: string) => Number(rows[targets.findIndex((t) => t.key === key)]['CPU µs/req']);
    const notes = [
      `autocannon: ${connections} connections, pipelining ${pipelining}, ${warmupSeconds} s warm-up then ${durationSeconds} s measured, per server` +
        (rounds > 1 ? `, ${rounds} rounds round-robin; req/s and latencies are of each server's median round, "vs (b)" is the median of the rounds' ratios` : '') +
        `; GET ${ROUTE}`,
      `PostgreSQL: ${pgServer.embedded ? 'embedded (data/bench-postgres)' : 'DATABASE_URL'}; ${POOL_MAX} connections to the tenant database for (a) and (b)`,
      `CPU µs/req: the server process's own CPU time (user + system) in the measured windows divided by the requests it answered`,
      `per-request CPU the platform adds over (b): ${cpuOf('a') - cpuOf('b')} µs at LOG_LEVEL=${HEADLINE_LOG_LEVEL}, ${cpuOf('a-info') - cpuOf('b')} µs at LOG_LEVEL=info`,
      ...targets
        .filter((t) => t.platform)
        .map((t) => {
          const last = all(t.key).at(-1)!;
          const served = all(t.key).reduce((n, m) => n + m.result.requests.total, 0);
          return `${t.label}: the rate limiter counted ${last.limiterCounted!.toLocaleString('en-US')} requests under the token (warm-ups and checks included; ${served.toLocaleString('en-US')} measured)`;
        }),
    ];
    for (const t of targets) {
      const profile = all(t.key)[0].profile;
      if (!profile) continue;
      notes.push(`profile of ${t.label}, first round (${path.relative(process.cwd(), profile)}; sampling slows that round):\n${formatProfileSummary(summarizeProfile(profile, 12))}`);
    }
    return {
      title: 'authenticated tenant read: platform vs Express + pg vs node:http',
      rows,
      checks,
      notes,
      data: {
        ratioByRound: ratios,
        windows: [...windows.values()].flat().map((m) => ({ key: m.target.key, label: m.target.label, cpuMicros: m.cpuMicros, rssBytes: m.rssBytes, limiterCounted: m.limiterCounted, profile: m.profile, autocannon: m.result })),
      },
    };
  } finally {
    process.off('SIGINT', onInterrupt);
    await cleanUp();
  }
}

const bench: Benchmark = {
  description: 'GET /api/v1/activity-log?limit=1: platform (a) vs Express + pg (b) vs node:http (c), autocannon',
  run,
};
export default bench;
