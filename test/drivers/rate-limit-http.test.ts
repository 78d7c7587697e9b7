/**
 * The rate-limit middleware over real HTTP, with the app's own error handler rendering the 429.
 * On Redis, two app instances share the limit.
 */
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import express from 'express';
import { rateLimit, type Drivers } from '../../core/kernel/drivers';
import { errorHandler } from '../../core/kernel/http/error-handler';
import { describeRedis, flushPrefix, kinds, logger, makeDrivers, uniquePrefix } from './support';

function app(drivers: Drivers, points: number) {
  const a = express();
  a.get(
    '/limited',
    rateLimit(drivers.rateLimiter, { name: 'test.limited', points, durationSeconds: 60, key: (req) => String(req.headers['x-user'] ?? req.ip) }),
    (_req, res) => void res.json({ ok: true }),
  );
  a.use(errorHandler(logger, false));
  return a;
}

async function listen(handler: express.Express): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe.each(kinds())('rate-limit middleware over HTTP (%s)', (kind) => {
  const prefix = uniquePrefix(`rlhttp-${kind}`);
  let drivers: Drivers;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    drivers = makeDrivers(kind, prefix);
    ({ server, url } = await listen(app(drivers, 3)));
  });
  afterAll(async () => {
    await close(server);
    await drivers.close();
    await flushPrefix(prefix);
  });

  it('sends the three headers on every response and 429 with Retry-After past the limit', async () => {
    const nowSeconds = Math.floor(Date.now() / 1000);
    const responses = [];
    for (let i = 0; i < 4; i++) responses.push(await fetch(`${url}/limited`, { headers: { 'x-user': 'u1' } }));

    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(responses.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0', '0']);
    for (const r of responses) {
      expect(r.headers.get('x-ratelimit-limit')).toBe('3');
      // A unix timestamp (seconds) at the end of the 60-second window.
      const reset = Number(r.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(nowSeconds + 59);
      expect(reset).toBeLessThanOrEqual(nowSeconds + 62);
    }
    expect(await responses[0].json()).toEqual({ ok: true });

    const refused = responses[3];
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(55);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('content-type')).toMatch(/application\/json/);
    expect(await refused.json()).toEqual({ message: 'Too Many Requests.', retry_after: retryAfter });
  });

  it('counts each key separately', async () => {
    const other = await fetch(`${url}/limited`, { headers: { 'x-user': 'u2' } });
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('2');
  });
});

/** Two app instances on one Redis prefix with the given limit, started and stopped around the block. */
function twoAppNodes(name: string, limit: number): { drivers: Drivers; server: Server; url: string }[] {
  const prefix = uniquePrefix(name);
  const nodes: { drivers: Drivers; server: Server; url: string }[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const drivers = makeDrivers('redis', prefix);
      nodes.push({ drivers, ...(await listen(app(drivers, limit))) });
    }
  });
  afterAll(async () => {
    for (const n of nodes) {
      await close(n.server);
      await n.drivers.close();
    }
    await flushPrefix(prefix);
  });
  return nodes;
}

describeRedis('rate-limit middleware on two app instances', () => {
  const nodes = twoAppNodes('rlhttp-nodes', 4);

  it('share the limit: requests to A and B draw on one budget', async () => {
    const statuses = [];
    const remaining = [];
    for (let i = 0; i < 6; i++) {
      const r = await fetch(`${nodes[i % 2].url}/limited`, { headers: { 'x-user': 'shared' } });
      statuses.push(r.status);
      remaining.push(r.headers.get('x-ratelimit-remaining'));
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect(remaining).toEqual(['3', '2', '1', '0', '0', '0']);
  });
});

describeRedis('DESIGN Drivers, issue 3: leased points on two app instances keep the limit and sensible headers', () => {
  const nodes = twoAppNodes('rlhttp-lease', 200);

  it('admits exactly the limit over both, each counting X-RateLimit-Remaining down, then 429 with Retry-After', async () => {
    const seen: Array<{ node: number; status: number; remaining: number; reset: number; retryAfter: string | null }> = [];
    for (let i = 0; i < 300; i++) {
      const node = i % 2;
      const r = await fetch(`${nodes[node].url}/limited`, { headers: { 'x-user': 'leased' } });
      await r.arrayBuffer();
      seen.push({
        node,
        status: r.status,
        remaining: Number(r.headers.get('x-ratelimit-remaining')),
        reset: Number(r.headers.get('x-ratelimit-reset')),
        retryAfter: r.headers.get('retry-after'),
      });
    }
    // Leased points are spent by the node holding them, so the window still ends at exactly 200.
    expect(seen.filter((s) => s.status === 200)).toHaveLength(200);
    expect(seen.filter((s) => s.status !== 200).every((s) => s.status === 429 && s.remaining === 0 && Number(s.retryAfter) > 0)).toBe(true);
    const resets = new Set(seen.map((s) => s.reset));
    expect(Math.max(...resets) - Math.min(...resets)).toBeLessThanOrEqual(1);
    for (const node of [0, 1]) {
      const mine = seen.filter((s) => s.node === node).map((s) => s.remaining);
      expect(mine.every((r, i) => r >= 0 && r < 200 && (i === 0 || r <= mine[i - 1]))).toBe(true);
    }
  });
});
