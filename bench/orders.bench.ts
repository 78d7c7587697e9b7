/**
 * Issue 8's orders benchmark: order create, payment record and invoice issue per second through
 * REST (real HTTP, a real platform with the orders module installed in its sandbox, PostgreSQL),
 * and what share of each request is spent crossing into the sandbox and running guest code.
 *
 * The platform runs in this process so the benchmark can read the sandbox invoker's always-on
 * per-handler timings (core/kernel/bus/sandbox-timings.ts); the load (autocannon) runs in a child process
 * so it does not share the platform's event loop. Each operation is measured one request at a time
 * (the share of a request's latency is then undistorted by queueing) and with 16 in flight.
 *
 *   create    POST /orders                      two items, GST, order number, order.created
 *   payment   POST /orders/{id}/payments        cod 0.01, reconciled, order.payment_updated
 *   invoice   POST /orders/{id}/invoices        gap-free number, GST lines (pdf: false; PDF separately)
 *   invoice+pdf                                  the same with the PDF rendered by the host (pdfkit)
 *
 * With --profile, the platform's main thread is CPU-profiled during each 16-in-flight window
 * (data/bench-profiles/orders-<time>/<operation>.cpuprofile, summarised on stderr).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Benchmark, Row } from './benchmark';
import { withBenchPlatform } from './support/bench-platform';
import { addLocalModule, installOwner } from './support/bench-tenant';
import { formatProfileSummary, summarizeProfile } from './support/cpu-profile';
import { loadInChild, type LoadJob } from './support/load-in-child';
import { startProfile, stopProfile } from './support/profiler';
import type { Platform } from '../core/platform';
import { ownPercentileMicros, type HandlerTiming } from '../core/kernel/bus/sandbox-timings';

const ORDERS_DIR = path.join(__dirname, '..', 'modules', 'orders');
const CONCURRENCY = [1, 16];
/** Orders the payment and invoice loads rotate over, so concurrent requests rarely touch one order. */
const POOL = 256;

const ORDER = {
  customer: { id: 'cust-bench', name: 'Bina Bench', email: 'bina@bench.example', phone: '+919800000001' },
  items: [
    { name: 'Kurta', sku: 'K-1', hsn_code: '6109', quantity: 2, unit_price: '500.00' },
    { name: 'Scarf', sku: 'S-1', hsn_code: '6214', quantity: 1, unit_price: '249.50', tax_rate: 12 },
  ],
  shipping_address: { name: 'Bina Bench', line1: '1 MG Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560001' },
  status: 'confirmed',
};

interface Target {
  name: string;
  handler: string;
  method: LoadJob['method'];
  paths: string[];
  body: unknown;
}

const sumOver = (timings: Record<string, HandlerTiming>, pick: (k: string) => boolean, f: (t: HandlerTiming) => number) =>
  Object.entries(timings).filter(([k]) => pick(k)).reduce((a, [, t]) => a + f(t), 0);

const benchmark: Benchmark = {
  description: 'orders: create, payment record and invoice issue per second over REST, and the share of each request spent crossing the sandbox and in guest code',
  async run(ctx) {
    return withBenchPlatform({ name: 'orders', log: ctx.log, env: { API_RATE_LIMIT: '1000000000/60', BUS_RATE_LIMIT: '1000000000/60' } }, async (bench) => {
      const { platform } = bench;
      const { kernel } = platform;
      await addLocalModule(platform, ORDERS_DIR);
      const { tenantId, headers } = await installOwner(bench, { name: 'Bench Stores', slug: 'bench' });
      await kernel.modules.install(tenantId, 'orders');

      ctx.log(`orders: creating ${POOL} orders for the payment and invoice loads`);
      const ids: string[] = [];
      for (let i = 0; i < POOL; i++) {
        const res = await fetch(`${platform.url}/api/v1/orders`, { method: 'POST', headers, body: JSON.stringify(ORDER) });
        if (res.status !== 201) throw new Error(`order create failed: ${res.status} ${await res.text()}`);
        ids.push(((await res.json()) as { id: string }).id);
      }
      const targets: Target[] = [
        { name: 'create', handler: 'orders.create', method: 'POST', paths: ['/api/v1/orders'], body: ORDER },
        { name: 'payment', handler: 'orders.record_payment', method: 'POST', paths: ids.map((id) => `/api/v1/orders/${id}/payments`), body: { method: 'cod', amount: '0.01', collected_by: 'bench rider' } },
        { name: 'invoice', handler: 'orders.create_invoice', method: 'POST', paths: ids.map((id) => `/api/v1/orders/${id}/invoices`), body: { type: 'invoice', pdf: false } },
        { name: 'invoice+pdf', handler: 'orders.create_invoice', method: 'POST', paths: ids.map((id) => `/api/v1/orders/${id}/invoices`), body: { type: 'invoice' } },
      ];

      const profileDir = path.resolve('data/bench-profiles', `orders-${new Date().toISOString().replace(/[:.]/g, '-')}`);
      if (ctx.options.profile) fs.mkdirSync(profileDir, { recursive: true });
      const rows: Row[] = [];
      for (const target of targets) {
        for (const connections of CONCURRENCY) {
          const job: LoadJob = { url: platform.url, method: target.method, paths: target.paths, headers, body: JSON.stringify(target.body), connections, durationSeconds: ctx.options.warmupSeconds };
          ctx.log(`orders: ${target.name}, ${connections} in flight: ${ctx.options.warmupSeconds} s warm-up, ${ctx.options.durationSeconds} s measured`);
          await loadInChild(job);
          await waitForQueueToSettle(platform);
          kernel.sandboxTimings.reset();
          const profiling = ctx.options.profile && connections > 1 ? await startProfile(200) : undefined;
          const cpu0 = process.cpuUsage();
          const r = await loadInChild({ ...job, durationSeconds: ctx.options.durationSeconds });
          const cpu = process.cpuUsage(cpu0);
          if (profiling) {
            const file = path.join(profileDir, `${target.name}.cpuprofile`);
            await stopProfile(profiling, file);
            ctx.log(`${target.name}: profile ${file}\n${formatProfileSummary(summarizeProfile(file, 12))}`);
          }
          const timings = kernel.sandboxTimings.snapshot();
          const op = timings[target.handler];
          if (!op || r.non2xx || r.errors) throw new Error(`${target.name}: ${r.non2xx} non-2xx, ${r.errors} errors, ${op?.calls ?? 0} sandbox calls`);
          const sandboxUs = (op.sandboxMs / op.calls) * 1000;
          const bridgeUs = (op.bridgeMs / op.calls) * 1000;
          const ownUs = sandboxUs - bridgeUs;
          // Event handlers the requests set off (orders fanning events out to webhooks) run after the response.
          const eventsOwnUs = (sumOver(timings, (k) => k.includes(':event:'), (t) => t.sandboxMs - t.bridgeMs) / r.requests) * 1000;
          rows.push({
            operation: target.name, 'in flight': connections, 'req/s': r.requestsPerSecond, 'p50 ms': r.latencyP50Ms, 'p99 ms': r.latencyP99Ms,
            'CPU µs/req': (cpu.user + cpu.system) / r.requests, 'sandbox µs': sandboxUs, 'bridge calls': op.bridgeCalls / op.calls, 'host via bridge µs': bridgeUs, 'crossing+guest µs': ownUs,
            'crossing+guest p50 µs≤': ownPercentileMicros(op, 50), 'share of latency %': (ownUs / 1000 / r.latencyMeanMs) * 100, 'events crossing+guest µs/req': eventsOwnUs,
          });
        }
      }
      return {
        title: 'Orders over REST: requests/s, and time inside the sandbox per request (crossing + guest code vs host work the guest awaited)',
        rows,
        notes: [
          '"sandbox µs": mean time of the sandbox call as the host sees it (SandboxInvoker.invoke: into the isolate, guest code, every host.db / host.call / host.emit the guest awaited, back out).',
          '"host via bridge µs": the part of it during which at least one bridge call (host work: SQL, core operations such as documents.render_pdf, event enqueue) was running.',
          '"crossing+guest µs" = sandbox − host via bridge: what running the operation in the sandbox costs (message hops, (de)serialisation, guest JavaScript); "share of latency %" = that / mean request latency.',
          '"events crossing+guest µs/req": event handlers the requests set off (orders subscribes to its own events for outbound webhooks), run from the queue after the response.',
          `${bench.setup}; load: autocannon in a child process, ${ctx.options.warmupSeconds} s warm-up + ${ctx.options.durationSeconds} s per row.`,
        ],
      };
    });
  },
};

/** Events queued by the previous window are delivered before the next is measured. */
async function waitForQueueToSettle(platform: Platform): Promise<void> {
  let last = -1;
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const seen = Object.values(platform.kernel.sandboxTimings.snapshot()).reduce((a, t) => a + t.calls, 0);
    if (seen === last) return;
    last = seen;
  }
}

export default benchmark;
