/**
 * Outbound HTTP for URLs the platform does not control (webhooks, host.fetch, client releases, web
 * push): every hop (redirects included) is checked by the outbound policy, before the request and
 * again when its socket connects; credentials are sent only to the origin they were given for,
 * responses are streamed (release assets are large), and a silent peer times out instead of holding
 * a request.
 *
 * Connections are kept alive and reused (an AI chat asks its vendor once per round: over TLS that is a
 * handshake saved each time), in one pool per address rule: a socket checked at connect time under
 * `allowPrivate` false is reused only by requests under the same rule, so a tenant allowed private
 * networks never lends another tenant its connection to a private address (nor does a faked resolver
 * in tests share the system's pool). An idle pooled socket is closed after IDLE_SOCKET_MS, before
 * common servers close theirs (Node's own default is 5 s).
 */
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { OutboundUrlError, checkOutboundUrl, connectLookup, resolveOutbound, type OutboundPolicy } from './outbound-policy';

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  policy: OutboundPolicy;
  /** Headers that go only to `credentialOrigin` (default: the first URL's origin), never across a redirect elsewhere. */
  credentialHeaders?: string[];
  credentialOrigin?: string;
  /** Redirects to follow (default 5; 0 returns the 3xx itself). */
  maxRedirects?: number;
  /** Until the response headers arrive, and then between chunks of the body. */
  timeoutMs?: number;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The URL that answered, after redirects. */
  url: URL;
  stream: IncomingMessage;
  /** Reads the body as text: more than `limit` bytes is refused, or with 'cut' only the first `limit` are kept. */
  text(limit?: number, over?: 'refuse' | 'cut'): Promise<string>;
  /** Reads the body as bytes (one buffer of its own): more than `limit` is refused, the connection closed as soon as it is over. */
  bytes(limit: number): Promise<Buffer>;
}

/** The peer could not be reached or stopped answering (as opposed to answering with an error status). */
export class OutboundNetworkError extends Error {
  constructor(message: string, readonly code?: string) {
    super(message);
    this.name = 'OutboundNetworkError';
  }
}

const IDLE_SOCKET_MS = 4_000;

/** Pools by resolver (the system's, or one a test injects), then by scheme and address rule. */
const pools = new WeakMap<object, Map<string, http.Agent>>();
const systemDns = {};

function agentFor(url: URL, policy: OutboundPolicy): http.Agent {
  const resolver = policy.resolve ?? systemDns;
  let byRule = pools.get(resolver);
  if (!byRule) pools.set(resolver, (byRule = new Map()));
  const key = `${url.protocol}${policy.allowPrivate ? 'private' : 'public'}`;
  let agent = byRule.get(key);
  if (!agent) {
    const options = { keepAlive: true, timeout: IDLE_SOCKET_MS, maxFreeSockets: 64, scheduling: 'lifo' as const };
    agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    byRule.set(key, agent);
  }
  return agent;
}

export async function outboundRequest(rawUrl: string, req: OutboundRequest): Promise<OutboundResponse> {
  let url = checkOutboundUrl(rawUrl, req.policy);
  const credentialOrigin = req.credentialOrigin ?? url.origin;
  const credentials = new Set((req.credentialHeaders ?? []).map((h) => h.toLowerCase()));
  let method = req.method ?? 'GET';
  let body = req.body;
  for (let hop = 0; ; hop++) {
    const headers = Object.fromEntries(
      Object.entries(req.headers ?? {}).filter(([name]) => url.origin === credentialOrigin || !credentials.has(name.toLowerCase())),
    );
    const res = await once(url, method, headers, body, req);
    const location = res.headers.location;
    if (res.statusCode! >= 300 && res.statusCode! < 400 && location && hop < (req.maxRedirects ?? 5)) {
      res.resume();
      url = checkOutboundUrl(new URL(location, url).href, req.policy);
      // 303, and 301/302 after a POST, turn into a GET without a body (what browsers and fetch do).
      if (res.statusCode === 303 || (method === 'POST' && (res.statusCode === 301 || res.statusCode === 302))) {
        method = 'GET';
        body = undefined;
      }
      continue;
    }
    return {
      status: res.statusCode!,
      headers: res.headers,
      url,
      stream: res,
      text: async (limit, over) => (await readBody(res, limit, over)).toString('utf8'),
      bytes: async (limit) => ownMemory(await readBody(res, limit, 'refuse')),
    };
  }
}

async function once(url: URL, method: string, headers: Record<string, string>, body: Buffer | string | undefined, req: OutboundRequest): Promise<IncomingMessage> {
  // Before the request, for a clear refusal and for IP literals (a socket does not look those up).
  await resolveOutbound(url.hostname, req.policy).catch((err: OutboundUrlError) => {
    // A name that does not resolve is a network failure (retried by callers), not a refusal.
    throw err.unresolved ? new OutboundNetworkError(`${url.origin}: the URL ${err.message}`, 'ENOTFOUND') : err;
  });
  const timeoutMs = req.timeoutMs ?? 15_000;
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const r = client.request(
      url,
      { method, headers: { 'user-agent': 'mandi-platform', ...headers }, lookup: connectLookup(req.policy), timeout: timeoutMs, agent: agentFor(url, req.policy) },
      (res) => {
        // After the headers, the same timeout applies to gaps in the body; the listener goes with the
        // response, since a pooled socket outlives it.
        const socket = res.socket;
        const stalled = () => res.destroy(new OutboundNetworkError(`${url.origin} stopped sending`, 'ETIMEDOUT'));
        socket.setTimeout(timeoutMs);
        socket.on('timeout', stalled);
        res.once('close', () => socket.removeListener('timeout', stalled));
        resolve(res);
      },
    );
    r.on('timeout', () => r.destroy(new OutboundNetworkError(`${url.origin} did not answer in ${timeoutMs} ms`, 'ETIMEDOUT')));
    r.on('error', (err: NodeJS.ErrnoException) =>
      reject(err instanceof OutboundNetworkError || err instanceof OutboundUrlError ? err : new OutboundNetworkError(`${url.origin}: ${err.message}`, err.code)),
    );
    r.end(body);
  });
}

async function readBody(res: IncomingMessage, limit = 5 * 1024 * 1024, over: 'refuse' | 'cut' = 'refuse'): Promise<Buffer> {
  // A body announced as too large is refused before any of it is read.
  if (over === 'refuse' && Number(res.headers['content-length']) > limit) {
    res.destroy();
    throw new OutboundNetworkError(`response larger than ${limit} bytes`, 'ETOOLARGE');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      res.destroy();
      if (over === 'cut') return Buffer.concat([...chunks, chunk as Buffer]).subarray(0, limit);
      throw new OutboundNetworkError(`response larger than ${limit} bytes`, 'ETOOLARGE');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** A buffer with memory of its own, not a view of Node's shared pool: it may be copied into an isolate whole. */
function ownMemory(body: Buffer): Buffer {
  if (body.byteOffset === 0 && body.byteLength === body.buffer.byteLength) return body;
  const copy = new Uint8Array(body);
  return Buffer.from(copy.buffer, 0, copy.byteLength);
}
