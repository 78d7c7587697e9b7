/**
 * HTTP for the upgrade: HTTPS only, except plain HTTP to this machine (127.0.0.1, ::1, localhost),
 * which is how a local platform or a test serves releases. Redirects are followed by hand so the
 * platform credentials (bearer token, tenant) go to the platform's origin only, never to the host a
 * download redirects to. Failures are sorted into the exit codes: no answer is a network error (5), an
 * error answer a server error (6).
 */
import { networkError, serverError } from './errors';

export interface Credentials {
  origin: string;
  headers: Record<string, string>;
}

export interface GetOptions {
  credentials?: Credentials;
  accept?: string;
  /** Aborts when no byte (headers or body) arrives for this long. */
  idleMs?: number;
}

export interface Fetched {
  response: Response;
  url: URL;
  /** Re-arms the idle timer; call on every body chunk. */
  alive(): void;
  done(): void;
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

export function checkUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw serverError(`the release source gave an invalid URL: ${raw}`);
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname))) return url;
  throw serverError(`refusing ${url.protocol}//${url.host}: releases are fetched over HTTPS only (plain HTTP only from this machine)`);
}

export async function get(raw: string, opts: GetOptions = {}): Promise<Fetched> {
  let url = checkUrl(raw);
  const idleMs = opts.idleMs ?? 20_000;
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(), idleMs);
  const alive = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(), idleMs);
  };
  const done = () => clearTimeout(timer);
  try {
    for (let hop = 0; hop <= 5; hop++) {
      const headers: Record<string, string> = { accept: opts.accept ?? '*/*', 'user-agent': 'mandi-cli' };
      if (opts.credentials && url.origin === opts.credentials.origin) Object.assign(headers, opts.credentials.headers);
      const response = await fetch(url, { headers, redirect: 'manual', signal: controller.signal });
      alive();
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        url = checkUrl(new URL(location, url).href);
        continue;
      }
      return { response, url, alive, done };
    }
    throw serverError(`too many redirects from ${raw}`);
  } catch (err) {
    done();
    throw classify(err, url);
  }
}

/** Turns what fetch throws into the upgrade's error kinds. */
export function classify(err: unknown, url: URL): Error {
  if ((err as Error).name === 'UpgradeError') return err as Error;
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  if ((err as Error).name === 'AbortError' || (err as Error).name === 'TimeoutError') return networkError(`${url.host} stopped answering`);
  return networkError(`cannot reach ${url.host}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
}
