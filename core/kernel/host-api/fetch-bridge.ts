/**
 * host.fetch for one module in one tenant: real HTTP, only to the origins the tenant granted that
 * module (e.g. an AI provider's base URL), and only to addresses the platform's outbound policy allows that tenant
 * (core/kernel/net/outbound-policy.ts: never link-local or metadata, private networks only when a platform
 * admin allowed them; checked at connect time, so DNS rebinding gets nowhere). Redirects are returned,
 * not followed, so a server cannot bounce a module to an origin that is not on the list.
 * `{stream: true}` answers at the headers with the body as a reader (./fetch-body.ts), under the
 * same checks; the tenant may have `maxOpenStreams` of those open at once in this process.
 * `{response: 'bytes'}` answers the body as one buffer, under the same limit as text; a request body
 * (text, bytes or a multipart form) is refused over `maxRequestBytes` before anything is sent.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { OutboundUrlError, type Resolver } from '../net/outbound-policy';
import { OutboundNetworkError, outboundRequest, type OutboundResponse } from '../net/outbound-request';
import { SandboxError } from '../../../sandbox';
import { fetchBody } from './fetch-body';
import type { FetchRequest, FetchResponse, HostBridge } from '../../../sandbox';

export interface FetchBridgeOptions {
  /** Until the response headers, then between chunks of the body, in ms. */
  timeoutMs?: number;
  /** Response bodies over this are refused (the connection is closed as soon as the body passes it). */
  maxResponseBytes?: number;
  /** Request bodies the module sends (text, bytes, multipart) over this are refused with FETCH_BODY_TOO_LARGE. */
  maxRequestBytes?: number;
  /** A streamed body: bytes in all, and time from its headers to its end. */
  maxStreamBytes?: number;
  maxStreamMs?: number;
  /** Streamed bodies open at once through this bridge (one tenant's); more are refused. */
  maxOpenStreams?: number;
  /** The count of open streams, shared by the bridges of one tenant's modules so the limit stays the tenant's. */
  streams?: { open: number };
  /** The tenant's `webhooks.allow_private_networks`, set by a platform admin: private and loopback addresses. */
  allowPrivateNetworks?: boolean;
  /** DNS for the outbound policy (tests play rebinding with it); the system's by default. */
  resolve?: Resolver;
}

// A streamed body may last as long as the longest streamed route (5 minutes) and carry twice the
// whole-body limit: the guest holds one piece at a time, never all of it. A request body may carry
// an audio file at the spec's 25 MB upload limit (spec 2, Limits) with its multipart framing.
const DEFAULTS = { timeoutMs: 30_000, maxResponseBytes: 8 * 1024 * 1024, maxRequestBytes: 26 * 1024 * 1024, maxStreamBytes: 16 * 1024 * 1024, maxStreamMs: 300_000, maxOpenStreams: 16 };

export function createFetchBridge(allowedOrigins: string[], options: FetchBridgeOptions = {}): HostBridge['fetch'] {
  const allowed = new Set(allowedOrigins.map(originOf));
  const { timeoutMs, maxResponseBytes, maxRequestBytes, maxStreamBytes, maxStreamMs, maxOpenStreams } = { ...DEFAULTS, ...options };
  const policy = { allowPrivate: options.allowPrivateNetworks === true, plainHttp: 'any' as const, resolve: options.resolve };
  const streams = options.streams ?? { open: 0 };

  return async (req: FetchRequest): Promise<FetchResponse> => {
    const url = checkUrl(req.url, allowed);
    const target = `${req.method} ${url.origin}${url.pathname}`;
    // The module's own body; body_parts (loadBody) has the upload splicer's limit (core/kernel/host-api/upload-body.ts).
    const size = req.body === undefined ? 0 : typeof req.body === 'string' ? Buffer.byteLength(req.body) : req.body.byteLength;
    if (size > maxRequestBytes) {
      throw new SandboxError('FETCH_BODY_TOO_LARGE', `fetch ${target}: the request body is ${size} bytes, over the limit of ${maxRequestBytes}.`, { limit: maxRequestBytes, bytes: size });
    }
    if (req.stream && streams.open >= maxOpenStreams) {
      throw new SandboxError('FETCH_STREAM_LIMIT', `fetch ${target}: this tenant already has ${maxOpenStreams} streamed responses open; read them to the end or cancel them first.`, { limit: maxOpenStreams });
    }
    // Counted from the request on, so a burst of streams cannot all pass the check before any connects.
    if (req.stream) streams.open++;
    let counted = req.stream === true;
    const release = () => {
      if (counted) streams.open--;
      counted = false;
    };
    // Read only for a URL that passed: a refused fetch costs the host no upload reads. Its errors
    // (another module's upload, ...) reach the guest as they are.
    let body: FetchRequest['body'];
    try {
      body = req.loadBody ? await req.loadBody() : req.body;
    } catch (e) {
      release();
      throw e;
    }
    let res: OutboundResponse;
    let text = '';
    try {
      res = await outboundRequest(url.href, { method: req.method, headers: req.headers, body, policy, maxRedirects: 0, timeoutMs: Math.min(req.timeoutMs ?? timeoutMs, timeoutMs) });
      if (req.stream) {
        const reader = fetchBody(res.stream, { maxBytes: maxStreamBytes, maxMs: maxStreamMs, target, onClose: release });
        return { status: res.status, headers: flatten(res.headers), body: text, reader };
      }
      if (req.response === 'bytes') {
        const bytes = await res.bytes(maxResponseBytes);
        // An error status's body is what says why: its text too, at most 64 KB of it.
        return { status: res.status, headers: flatten(res.headers), body: res.status >= 400 ? bytes.subarray(0, 64 * 1024).toString('utf8') : '', bytes };
      }
      text = await res.text(maxResponseBytes);
    } catch (e) {
      release();
      if (e instanceof OutboundUrlError) {
        throw new SandboxError('FETCH_DENIED', `fetch to ${url.origin} is refused: the URL ${e.message}.`, { origin: url.origin });
      }
      if (e instanceof OutboundNetworkError && e.code === 'ETOOLARGE') {
        throw new SandboxError('FETCH_FAILED', `fetch ${target}: the response is over the limit of ${maxResponseBytes} bytes.`, { limit: maxResponseBytes });
      }
      throw new SandboxError('FETCH_FAILED', `fetch ${target} failed: ${e instanceof OutboundNetworkError && e.code === 'ETIMEDOUT' ? 'timed out' : (e as Error).message}`, { url: url.href });
    }
    return { status: res.status, headers: flatten(res.headers), body: text };
  };
}

/** Node's headers as fetch gives them: lower-case names, repeated values joined by ", ". */
function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
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
    const list = allowed.size > 0 ? [...allowed].join(', ') : 'none are granted to it';
    throw new SandboxError('FETCH_DENIED', `fetch to ${url.origin} is not allowed for this module in this tenant; allowed origins: ${list}.`, {
      origin: url.origin,
      allowed: [...allowed],
    });
  }
  return url;
}
