/**
 * GraphQL gateway benchmark (issue 5): the same bus operation, `shop.get_product` of the GraphQL test
 * fixture (test/graphql/fixtures/shop, a real module in a real sandbox), asked for three ways on one
 * platform (NODE_ENV=production, in its own process):
 *
 *   (r) REST      GET  /api/v1/shop/products/P-01                  the module's manifest route
 *   (g) GraphQL   POST /api/v1/graphql {query, variables}           ad hoc text (parsed once, then cached)
 *   (p) GraphQL   POST /api/v1/graphql {extensions.persistedQuery}  hash only, registered beforehand
 *
 * Each is measured twice: unloaded (one keep-alive connection, one request at a time, timed here to
 * the microsecond: the latency a single client sees) and under load (autocannon, --connections;
 * its latencies are whole milliseconds). Targets are measured round-robin per round.
 * Target: (p) p50 within 1.5x of (r) p50, unloaded and loaded.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import autocannon from 'autocannon';
import { databaseUrl, dropDatabase } from '../core/kernel/data/pg-admin';
import { tenantDbName } from '../core/kernel/data/tenant-databases';
import { buildModule } from '../sdk/build/build-module';
import { needsBuild } from '../sdk/build/needs-build';
import type { BenchContext, BenchReport, Benchmark, Check, Row } from './benchmark';
import { startChildServer, type ChildServer } from './support/child-server';
import { openBenchPostgres } from './support/postgres-server';
import { percentile } from './support/stats';

const MODULE_DIR = path.resolve(__dirname, '../test/graphql/fixtures/shop');
const RATE_POINTS = 1_000_000_000;
const TARGET_RATIO = 1.5;
const QUERY = 'query Product($sku: String!) { product(sku: $sku) { sku name price cost } }';
const VARIABLES = { sku: 'P-01' };

interface Target {
  key: 'r' | 'g' | 'p';
  label: string;
  request: { method: 'GET' | 'POST'; path: string; body?: string };
}

/** What one measured window gives, whichever tool measured it. */
interface Measured {
  requests: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  failures: number;
}

interface Window {
  target: Target;
  mode: 'loaded' | 'unloaded';
  measured: Measured;
  cpuMicros: number;
  autocannon?: autocannon.Result;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/** One request after another on one keep-alive connection for `seconds`; latencies in µs. */
async function serial(url: string, t: Target, headers: Record<string, string>, seconds: number): Promise<Measured> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const once = () =>
    new Promise<number>((resolve, reject) => {
      const started = process.hrtime.bigint();
      const req = http.request(url + t.request.path, { method: t.request.method, headers, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200 ? Number(process.hrtime.bigint() - started) / 1000 : -1));
      });
      req.on('error', reject);
      req.end(t.request.body);
    });
  const samples: number[] = [];
  let failed = 0;
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const us = await once();
    if (us < 0) failed++;
    else samples.push(us);
  }
  agent.destroy();
  // No sample (every request failed) gives NaN: percentile of [] is undefined.
  const at = (p: number) => percentile(samples, p) / 1000;
  return { requests: samples.length + failed, seconds, p50Ms: at(50), p99Ms: at(99), meanMs: samples.reduce((n, x) => n + x, 0) / Math.max(1, samples.length) / 1000, failures: failed };
}

async function json(url: string, init: RequestInit): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- any JSON
  const res = await fetch(url, init);
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

async function run(ctx: BenchContext): Promise<BenchReport> {
  const { durationSeconds, warmupSeconds, connections, rounds } = ctx.options;
  if (await needsBuild(MODULE_DIR, 'dist/index.js')) {
    ctx.log('building the shop fixture module');
    await buildModule(MODULE_DIR);
  }
  const runId = randomBytes(4).toString('hex');
  const centralDb = `mandi_bench_gql_${runId}`;
  const pgServer = await openBenchPostgres(ctx.log);
  let server: ChildServer | undefined;
  let tenantDb: string | undefined;
  try {
    ctx.log('starting the platform');
    server = await startChildServer('platform', 'platform.ts', {
      env: {
        NODE_ENV: 'production',
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl(pgServer.serverUrl, centralDb),
        REDIS_URL: '',
        REDIS_PREFIX: `mandi-bench-gql-${runId}`,
        LOG_LEVEL: 'warn',
        API_RATE_LIMIT: `${RATE_POINTS}/600`,
        BUS_RATE_LIMIT: `${RATE_POINTS}/600`,
        MODULE_PATHS: MODULE_DIR,
      },
    });
    const base = `${server.url}/api/v1`;
    const installed = await json(`${base}/install/owner`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ organization_name: 'Bench Stores', organization_slug: 'bench', name: 'Bea Bench', email: 'bea@bench.example', password: 'bench-password-123' }),
    });
    if (installed.status !== 201) throw new Error(`install failed: ${installed.status} ${JSON.stringify(installed.body)}`);
    tenantDb = tenantDbName(installed.body.tenant.id);
    const headers = { authorization: `Bearer ${installed.body.token}`, 'x-tenant': 'bench', 'content-type': 'application/json' };
    const mod = await json(`${base}/modules/shop/install`, { method: 'POST', headers, body: '{}' });
    if (mod.status !== 201) throw new Error(`module install failed: ${mod.status} ${JSON.stringify(mod.body)}`);
    const registered = await json(`${base}/graphql/persisted`, { method: 'POST', headers, body: JSON.stringify({ query: QUERY, name: 'Product' }) });
    const hash = createHash('sha256').update(QUERY).digest('hex');
    if (registered.body?.hash !== hash) throw new Error(`persisting failed: ${registered.status} ${JSON.stringify(registered.body)}`);

    const targets: Target[] = [
      { key: 'r', label: '(r) REST GET /shop/products/P-01', request: { method: 'GET', path: '/api/v1/shop/products/P-01' } },
      // (p) right after (r): the pair the target compares sees the closest background load.
      {
        key: 'p',
        label: '(p) GraphQL, persisted hash',
        request: { method: 'POST', path: '/api/v1/graphql', body: JSON.stringify({ variables: VARIABLES, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } }) },
      },
      { key: 'g', label: '(g) GraphQL, ad hoc query', request: { method: 'POST', path: '/api/v1/graphql', body: JSON.stringify({ query: QUERY, variables: VARIABLES }) } },
    ];
    // Same product from every target before any load: the comparison is of equal work.
    for (const t of targets) {
      const res = await json(server.url + t.request.path, { method: t.request.method, headers, body: t.request.body });
      const product = t.key === 'r' ? res.body : res.body?.data?.product;
      if (res.status !== 200 || product?.sku !== 'P-01' || product?.cost !== '1.00') throw new Error(`${t.label} answered ${res.status} ${JSON.stringify(res.body)}`);
    }

    const measure = async (t: Target, mode: Window['mode'], round: number): Promise<Window> => {
      const load = (duration: number) =>
        autocannon({ url: server!.url + t.request.path, method: t.request.method, body: t.request.body, headers, connections, duration });
      const one = (seconds: number) => serial(server!.url, t, headers, seconds);
      ctx.log(`${t.label}, ${mode}${rounds > 1 ? ` (round ${round + 1}/${rounds})` : ''}: ${warmupSeconds} s warm-up, ${durationSeconds} s measured`);
      await (mode === 'loaded' ? load(warmupSeconds) : one(warmupSeconds));
      const before = await server!.stats();
      let measured: Measured;
      let result: autocannon.Result | undefined;
      if (mode === 'loaded') {
        result = await load(durationSeconds);
        const { latency, requests } = result;
        measured = { requests: requests.total, seconds: durationSeconds, p50Ms: latency.p50, p99Ms: latency.p99, meanMs: latency.average, failures: result.errors + result.timeouts + result.non2xx };
      } else measured = await one(durationSeconds);
      const after = await server!.stats();
      return { target: t, mode, measured, cpuMicros: after.cpuMicros - before.cpuMicros, autocannon: result };
    };
    const windows: Window[] = [];
    for (const mode of ['unloaded', 'loaded'] as const) {
      for (let round = 0; round < rounds; round++) for (const t of targets) windows.push(await measure(t, mode, round));
    }

    const of = (key: Target['key'], mode: Window['mode']) => windows.filter((w) => w.target.key === key && w.mode === mode);
    const p50 = (key: Target['key'], mode: Window['mode']) => median(of(key, mode).map((w) => w.measured.p50Ms));
    const rows: Row[] = [];
    for (const mode of ['unloaded', 'loaded'] as const) {
      for (const t of targets) {
        const ws = of(t.key, mode);
        const mid = ws.find((w) => w.measured.p50Ms === p50(t.key, mode))!.measured;
        const requests = ws.reduce((n, w) => n + w.measured.requests, 0);
        rows.push({
          target: t.label,
          load: mode === 'loaded' ? `${connections} connections` : '1 connection',
          'req/s': Math.round(mid.requests / mid.seconds),
          'p50 ms': Number(mid.p50Ms.toFixed(3)),
          'p99 ms': Number(mid.p99Ms.toFixed(3)),
          'CPU µs/req': Math.round(ws.reduce((n, w) => n + w.cpuMicros, 0) / Math.max(1, requests)),
          errors: ws.reduce((n, w) => n + w.measured.failures, 0),
          'p50 vs (r)': `${(p50(t.key, mode) / p50('r', mode)).toFixed(2)}x`,
        });
      }
    }
    // autocannon's latencies are whole milliseconds: the means resolve finer, so they are shown too.
    // Per round, the ratio of neighbouring windows, then the median: background load drifts, and
    // windows measured one after the other see about the same load.
    const ratios = (mode: Window['mode'], pick: (m: Measured) => number) => of('p', mode).map((w, i) => pick(w.measured) / pick(of('r', mode)[i].measured));
    const checks: Check[] = (['unloaded', 'loaded'] as const).map((mode) => {
      const byRound = ratios(mode, (m) => m.p50Ms);
      const ratio = median(byRound);
      return {
        name: `(p) persisted GraphQL p50 <= ${TARGET_RATIO}x (r) REST p50, ${mode}`,
        ok: ratio <= TARGET_RATIO,
        detail:
          `${ratio.toFixed(2)}x` +
          (rounds > 1 ? ` (median of rounds: ${byRound.map((r) => `${r.toFixed(2)}x`).join(', ')})` : ` (${p50('p', mode)} vs ${p50('r', mode)} ms)`) +
          `; means ${median(ratios(mode, (m) => m.meanMs)).toFixed(2)}x`,
      };
    });
    const failed = targets.filter((t) => windows.some((w) => w.target === t && w.measured.failures > 0));
    checks.push({ name: 'no errors, timeouts or non-2xx answers', ok: !failed.length, detail: failed.length ? failed.map((t) => t.label).join(', ') : 'none' });
    return {
      title: 'one bus operation: REST vs GraphQL ad hoc vs GraphQL persisted',
      rows,
      checks,
      notes: [
        `${warmupSeconds} s warm-up then ${durationSeconds} s measured per target and load, ${rounds} round(s) round-robin; figures of each target's median round`,
        `unloaded: one keep-alive connection, requests one after another, timed with hrtime; loaded: autocannon, ${connections} connections`,
        `operation shop.get_product (sandboxed module, validated input, permission check, rate limit, audit record) for the platform owner; NODE_ENV=production, LOG_LEVEL=warn, in-process drivers`,
        `GraphQL selects { sku name price cost } of the product; REST returns the whole record`,
        `CPU µs/req: the server process's own CPU time (user + system) in the measured windows divided by the requests it answered`,
      ],
      data: { windows: windows.map((w) => ({ key: w.target.key, mode: w.mode, cpuMicros: w.cpuMicros, measured: w.measured, autocannon: w.autocannon })) },
    };
  } finally {
    await server?.stop();
    for (const db of [tenantDb, centralDb]) if (db) await dropDatabase(pgServer.serverUrl, db).catch((err) => ctx.log(`could not drop ${db}: ${String(err)}`));
    await pgServer.stop();
  }
}

const bench: Benchmark = {
  description: 'shop.get_product via REST vs GraphQL (ad hoc and persisted), autocannon, loaded and unloaded',
  run,
};
export default bench;
