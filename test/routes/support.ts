/**
 * A reader of a streamed module route over real HTTP: it collects what arrives and lets a test
 * wait until the body so far says something, pause the socket (a slow reader) or hang up.
 */
import http from 'node:http';

export interface StreamReader {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Everything received so far, as text. */
  text(): string;
  bytes(): number;
  /** Resolves once the body so far passes `check` (rejects after `ms`). */
  until(check: (text: string) => boolean, ms?: number): Promise<string>;
  /** The response ended (or the connection broke): resolves with whether it ended cleanly. */
  ended: Promise<boolean>;
  pause(): void;
  resume(): void;
  /** Hangs up mid-stream. */
  destroy(): void;
}

export function openStream(url: string, method: string, headers: Record<string, string>, body?: string): Promise<StreamReader> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' }, agent: false }, (res) => {
      let received = '';
      let count = 0;
      const watchers = new Set<() => void>();
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        received += chunk;
        count += Buffer.byteLength(chunk);
        for (const w of [...watchers]) w();
      });
      const ended = new Promise<boolean>((done) => {
        res.on('end', () => done(true));
        res.on('error', () => done(false));
        res.on('aborted', () => done(false));
        res.on('close', () => done(res.complete));
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        text: () => received,
        bytes: () => count,
        until: (check, ms = 5000) =>
          new Promise((ok, fail) => {
            const timer = setTimeout(() => {
              watchers.delete(watch);
              fail(new Error(`timed out waiting on the stream; received so far: ${JSON.stringify(received.slice(-300))}`));
            }, ms);
            const watch = () => {
              if (!check(received)) return;
              clearTimeout(timer);
              watchers.delete(watch);
              ok(received);
            };
            watchers.add(watch);
            watch();
          }),
        ended,
        pause: () => res.pause(),
        resume: () => res.resume(),
        destroy: () => req.destroy(),
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}
