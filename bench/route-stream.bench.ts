/**
 * Streamed module routes (core/kernel/modules/route-response.ts): what a streamed piece costs. Side by side
 * in one run, over real HTTP (node:http, one keep-alive connection, requests one at a time) to the
 * platform in this process, the same 100 KB from the fixture module bench/fixtures/stream-mod:
 *
 *   chunks      1,000 pieces of 100 B, chunked text/plain, each ctx.stream.write awaited
 *   events      1,000 server-sent events of 100 B of data, each awaited
 *   whole json  the same bytes as one JSON answer (today's route)
 *   whole text  the same bytes as one text answer
 *
 * Per request: wall time (p50, p99) and the process CPU (host thread and isolate threads) per
 * request, steadier than wall time on a shared machine; per piece: the stream's p50 less the JSON
 * answer's, over 1,000. Target (2-core machine): a streamed piece costs <= 50 µs over one answer.
 */
import http from 'node:http';
import path from 'node:path';
import { loadModuleFromDir } from '../core/kernel/modules/loaded-module';
import type { Benchmark, Row } from './benchmark';
import { withBenchPlatform } from './support/bench-platform';
import { installOwner } from './support/bench-tenant';
import { median, percentile } from './support/stats';

const PIECES = 1000;
const PIECE_BYTES = 100;
const MIN_SAMPLES = 20;
const TARGET_US_PER_PIECE = 50;

const TARGETS: Array<[name: string, path: string]> = [
  ['chunks', '/streambench/chunks'],
  ['events', '/streambench/events'],
  ['whole json', '/streambench/whole-json'],
  ['whole text', '/streambench/whole-text'],
];

function get(agent: http.Agent, url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => (res.statusCode === 200 ? resolve(bytes) : reject(new Error(`${url}: ${res.statusCode}`))));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

interface Window {
  p50: number;
  p99: number;
  cpuMs: number;
  bytes: number;
}

async function measure(fn: () => Promise<number>, ms: number): Promise<Window> {
  for (let i = 0; i < 5; i++) await fn(); // warm-up
  const times: number[] = [];
  let bytes = 0;
  const cpu = process.cpuUsage();
  const until = performance.now() + ms;
  while (performance.now() < until || times.length < MIN_SAMPLES) {
    const t = performance.now();
    bytes = await fn();
    times.push(performance.now() - t);
  }
  const used = process.cpuUsage(cpu);
  return { p50: percentile(times, 50), p99: percentile(times, 99), cpuMs: (used.user + used.system) / 1000 / times.length, bytes };
}

const benchmark: Benchmark = {
  description: 'streamed module routes: 1,000 pieces of 100 B (chunked text, SSE) vs the same bytes as one JSON or text answer, over HTTP',
  async run(ctx) {
    const env = { BUS_RATE_LIMIT: '1000000000/60', API_RATE_LIMIT: '1000000000/60' };
    return withBenchPlatform({ name: 'route_stream', log: ctx.log, env }, async (bench) => {
      const { platform } = bench;
      platform.kernel.source.add(await loadModuleFromDir(path.join(__dirname, 'fixtures/stream-mod')));
      const owner = await installOwner(bench, { name: 'Stream Bench', slug: 'streambench' });
      await platform.kernel.modules.install(owner.tenantId, 'streambench');
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const headers = { authorization: owner.headers.authorization, 'x-tenant': owner.headers['x-tenant'] };
      const query = `?n=${PIECES}&size=${PIECE_BYTES}`;
      const windowMs = ctx.options.durationSeconds * 1000;
      const measured = new Map(TARGETS.map(([name]) => [name, [] as Window[]]));
      try {
        for (let round = 0; round < ctx.options.rounds; round++) {
          for (const [name, route] of TARGETS) {
            ctx.log(`route-stream: ${name}, round ${round + 1}/${ctx.options.rounds}`);
            measured.get(name)!.push(await measure(() => get(agent, `${platform.url}/api/v1${route}${query}`, headers), windowMs));
          }
        }
      } finally {
        agent.destroy();
      }
      const p50Of = (name: string) => median(measured.get(name)!.map((w) => w.p50));
      const wholeJson = p50Of('whole json');
      const perPiece = (name: string) => ((p50Of(name) - wholeJson) * 1000) / PIECES;
      const rows: Row[] = TARGETS.map(([name]) => {
        const w = measured.get(name)!;
        const streamed = name === 'chunks' || name === 'events';
        return {
          target: name,
          'bytes received': w[0].bytes,
          'p50 ms/request': p50Of(name),
          'p99 ms/request': median(w.map((x) => x.p99)),
          'CPU ms/request': median(w.map((x) => x.cpuMs)),
          'µs/piece over whole json': streamed ? perPiece(name) : null,
        };
      });
      return {
        title: `Streamed module routes: ${PIECES.toLocaleString('en-US')} pieces of ${PIECE_BYTES} B vs one answer of the same bytes`,
        rows,
        checks: ['chunks', 'events'].map((name) => ({
          name: `${name}: <= ${TARGET_US_PER_PIECE} µs per streamed piece over one JSON answer`,
          ok: perPiece(name) <= TARGET_US_PER_PIECE,
          detail: `${perPiece(name).toFixed(1)} µs`,
        })),
        notes: [
          'One keep-alive connection, one request at a time; each window --duration seconds (at least 20 requests), medians over --rounds.',
          'SSE framing ("data: " and a blank line) makes events 8 B a piece larger on the wire than chunks.',
          bench.setup,
        ],
      };
    });
  },
};

export default benchmark;
