/**
 * (c) The ceiling: bare node:http answering a constant JSON body (the parent passes the body the
 * other two return, so every target sends the same bytes). Nothing a framework or database adds.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveInChild } from './serve-in-child';

serveInChild(async () => {
  const body = Buffer.from(process.env.BENCH_BODY || '{"ok":true}');
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve, reject) => server.listen(0, '127.0.0.1', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
});
