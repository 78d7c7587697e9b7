/**
 * host.fetch for one tenant: real HTTP, only to the origins the tenant configured (e.g. an AI
 * provider's base URL). Redirects are returned, not followed, so a server cannot bounce a module
 * to an origin that is not on the list.
 */
import { SandboxError } from './errors';
import type { FetchRequest, FetchResponse, HostBridge } from './types';

export interface FetchBridgeOptions {
  /** Whole request, headers and body, in ms. */
  timeoutMs?: number;
  /** Response bodies over this are refused. */
  maxResponseBytes?: number;
}

const DEFAULTS = { timeoutMs: 30_000, maxResponseBytes: 8 * 1024 * 1024 };

export function createFetchBridge(allowedOrigins: string[], options: FetchBridgeOptions = {}): HostBridge['fetch'] {
  const allowed = new Set(allowedOrigins.map(originOf));
  const { timeoutMs, maxResponseBytes } = { ...DEFAULTS, ...options };

  return async (req: FetchRequest): Promise<FetchResponse> => {
    const url = checkUrl(req.url, allowed);
    const target = `${req.method} ${url.origin}${url.pathname}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      throw new SandboxError('FETCH_FAILED', `fetch ${target} failed: ${reasonOf(e)}`, { url: url.href });
    }
    const body = await readBody(res, maxResponseBytes, target);
    return { status: res.status, headers: Object.fromEntries(res.headers), body };
  };
}

function originOf(configured: string): string {
  let url: URL;
  try {
    url = new URL(configured);
  } catch {
    throw new TypeError(`allowed fetch origin "${configured}" is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`allowed fetch origin "${configured}" is not http(s)`);
  return url.origin;
}

function checkUrl(raw: string, allowed: ReadonlySet<string>): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SandboxError('FETCH_DENIED', `fetch needs an absolute http(s) URL, got "${raw}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SandboxError('FETCH_DENIED', `fetch only speaks http and https, not ${url.protocol}`);
  }
  if (!allowed.has(url.origin)) {
    const list = allowed.size > 0 ? [...allowed].join(', ') : 'none are configured';
    throw new SandboxError('FETCH_DENIED', `fetch to ${url.origin} is not allowed for this tenant; allowed origins: ${list}.`, {
      origin: url.origin,
      allowed: [...allowed],
    });
  }
  return url;
}

async function readBody(res: Response, limit: number, target: string): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  const tooLarge = () =>
    new SandboxError('FETCH_FAILED', `fetch ${target}: the response is over the limit of ${limit} bytes.`, { limit });
  if (declared > limit) {
    await res.body?.cancel();
    throw tooLarge();
  }
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      size += chunk.byteLength;
      if (size > limit) {
        await res.body.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(chunk);
    }
  } catch (e) {
    if (e instanceof SandboxError) throw e;
    throw new SandboxError('FETCH_FAILED', `fetch ${target}: reading the response failed: ${reasonOf(e)}`);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function reasonOf(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  if (e.name === 'TimeoutError') return 'timed out';
  const cause = (e as { cause?: unknown }).cause;
  return cause instanceof Error ? `${e.message} (${cause.message})` : e.message;
}
