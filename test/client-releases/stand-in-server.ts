/**
 * A small real HTTP server on 127.0.0.1 that stands in for release hosts (a static manifest host, an
 * S3-compatible bucket, a GitLab-compatible repository API, the public mirror): routes are set per
 * test, every request is recorded with its headers.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface StandIn {
  url: string;
  /** Same server under a different origin (localhost instead of 127.0.0.1). */
  altUrl: string;
  seen: Seen[];
  route(path: string, handler: Handler): void;
  json(path: string, body: unknown, headers?: Record<string, string>): void;
  bytes(path: string, body: Buffer): void;
  status(path: string, code: number, body?: string): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startStandIn(): Promise<StandIn> {
  const routes = new Map<string, Handler>();
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    seen.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers });
    const handler = routes.get(path);
    if (handler) handler(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const standIn: StandIn = {
    url: `http://127.0.0.1:${port}`,
    altUrl: `http://localhost:${port}`,
    seen,
    route: (path, handler) => void routes.set(path, handler),
    json: (path, body, headers = {}) => standIn.route(path, (_req, res) => res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body))),
    bytes: (path, body) => standIn.route(path, (_req, res) => res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body)),
    status: (path, code, body = '') => standIn.route(path, (_req, res) => res.writeHead(code).end(body)),
    reset: () => {
      routes.clear();
      seen.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return standIn;
}
