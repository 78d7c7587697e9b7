/**
 * Outbound connections are kept alive and reused (core/kernel/net/outbound-request.ts), one pool per address rule:
 * reuse must not leak listeners, must not outlive a silent peer, and must never carry a request past
 * the connect-time check its own policy would make.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OutboundNetworkError, outboundRequest } from '../../core/kernel/net/outbound-request';
import type { OutboundPolicy, Resolver } from '../../core/kernel/net/outbound-policy';

let server: Server;
let port: number;
let connections = 0;
let requests = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    if (req.url === '/stall') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first');
      return; // never ends
    }
    res.end(`answer ${requests}`);
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const loopback: OutboundPolicy = { allowPrivate: true, plainHttp: 'any' };

describe('outbound requests: kept-alive connections', () => {
  it('reuses one connection for requests in a row, without gathering listeners on it', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const before = connections;
      const timeoutListeners: number[] = [];
      for (let i = 0; i < 25; i++) {
        const res = await outboundRequest(`http://127.0.0.1:${port}/n`, { policy: loopback, timeoutMs: 2_000 });
        timeoutListeners.push(res.stream.socket.listenerCount('timeout'));
        expect(await res.text()).toMatch(/^answer \d+$/);
      }
      expect(connections - before).toBe(1);
      // The agent's, the request's and the response's own: the same on the 25th use as on the 2nd.
      expect(timeoutListeners.at(-1)).toBe(timeoutListeners[1]);
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('a peer that stops sending on a reused connection still times out', async () => {
    await (await outboundRequest(`http://127.0.0.1:${port}/warm`, { policy: loopback })).text();
    const res = await outboundRequest(`http://127.0.0.1:${port}/stall`, { policy: loopback, timeoutMs: 300 });
    await expect(res.text()).rejects.toBeInstanceOf(OutboundNetworkError);
  });

  it('a request under allowPrivate false never reuses a connection made under allowPrivate true', async () => {
    // The name resolves to the loopback stand-in, except for the check before B's request, where it
    // pretends to be public (a rebinding name). B's own connect-time check must then refuse it,
    // which it can only do on a connection of its own.
    const answers = ['127.0.0.1', '127.0.0.1', '93.184.216.34'];
    const resolve: Resolver = async () => [{ address: answers.shift() ?? '127.0.0.1', family: 4 }];
    const url = `http://svc.example:${port}/rebind`;
    const allowed = await outboundRequest(url, { policy: { allowPrivate: true, plainHttp: 'any', resolve } });
    expect(allowed.status).toBe(200);
    await allowed.text();
    const seen = requests;
    await expect(outboundRequest(url, { policy: { allowPrivate: false, plainHttp: 'any', resolve } })).rejects.toThrow(/private|loopback|refused|not allowed/i);
    expect(requests).toBe(seen);
  });
});
