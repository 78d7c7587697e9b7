/** A webhook receiver, a real HTTP server on 127.0.0.1: records raw bodies and headers; answers with `status()`. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received { headers: http.IncomingHttpHeaders; raw: string }

export async function receiver(status: () => number = () => 200) {
  const got: Received[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      got.push({ headers: req.headers, raw });
      res.writeHead(status(), { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, got, close: () => new Promise<void>((r) => server.close(() => r())) };
}
