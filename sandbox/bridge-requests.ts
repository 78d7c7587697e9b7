/**
 * Checks a request that guest code sent through `host` and runs it on the call's HostBridge. The
 * prelude builds these payloads, but guest code can break the prelude's own context, so nothing
 * here trusts their shape.
 */
import { SandboxError } from './errors';
import { multipartBody, type MultipartPart } from './multipart-body';
import type { PendingCall } from './pending-call';
import type { WireError } from './protocol';
import type { DbMethod, FetchBodyPart, FetchRequest, FetchResponse, SseEvent } from './types';

const DATA_METHODS = new Set<string>(['find', 'findOne', 'count', 'create', 'bulkCreate', 'update', 'upsert', 'destroy', 'sequence']);

/** Streamed fetch bodies one call may have open at once (the tenant's own cap is the fetch bridge's). */
export const MAX_OPEN_BODIES_PER_CALL = 4;

const invalid = (message: string) => new SandboxError('INVALID_REQUEST', message);

const isStringRecord = (v: unknown): v is Record<string, string> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');

/** The byte arrays that crossed with a guest batch, and where one request's start among them. */
export interface RequestBlobs {
  list: readonly Uint8Array[];
  from: number;
}

export function runBridgeRequest(call: PendingCall, kind: unknown, payload: unknown, blobs?: RequestBlobs): Promise<unknown> {
  try {
    switch (kind) {
      case 'call':
        return runCall(call, payload);
      case 'db':
        return runDb(call, payload);
      case 'emit':
        return runEmit(call, payload);
      case 'fetch':
        return runFetch(call, payload, blobs);
      case 'body':
        return runBody(call, payload);
      case 'stream':
        return runStream(call, payload);
      default:
        throw invalid(`unknown host request "${String(kind)}"`);
    }
  } catch (e) {
    return Promise.reject(e);
  }
}

function runCall(call: PendingCall, payload: unknown): Promise<unknown> {
  if (!Array.isArray(payload) || typeof payload[0] !== 'string' || payload[0] === '') {
    throw invalid('host.call(op, input) needs an operation name');
  }
  return call.req.bridge.call(payload[0], payload[1] ?? undefined);
}

function runEmit(call: PendingCall, payload: unknown): Promise<unknown> {
  if (!Array.isArray(payload) || typeof payload[0] !== 'string' || payload[0] === '') {
    throw invalid('host.emit(event, payload) needs an event name');
  }
  return call.req.bridge.emit(payload[0], payload[1] ?? undefined);
}

/** What the prelude sends for host.fetch: FetchRequest's fields, and bytes named by blob index. */
type WireFetch = Partial<Omit<FetchRequest, 'body'>> & { body?: unknown; bytes?: unknown; multipart?: unknown };

function runFetch(call: PendingCall, payload: unknown, blobs: RequestBlobs | undefined): Promise<unknown> {
  const p = payload as WireFetch | null;
  if (typeof p !== 'object' || p === null || typeof p.url !== 'string' || typeof p.method !== 'string' || !isStringRecord(p.headers)) {
    throw invalid('host.fetch(url, {method, headers, body}) needs a URL, a method and string headers');
  }
  if (p.body !== undefined && typeof p.body !== 'string') throw invalid('host.fetch body must be a string');
  if (p.bodyParts !== undefined && (p.body !== undefined || !isBodyParts(p.bodyParts))) {
    throw invalid(`host.fetch body_parts must be a list of at most ${MAX_BODY_PARTS} strings and {upload_base64: id} objects, without body`);
  }
  if (p.timeoutMs !== undefined && !(Number.isInteger(p.timeoutMs) && p.timeoutMs >= 1)) throw invalid('host.fetch timeout_ms must be a whole number of milliseconds, at least 1');
  if (p.response !== undefined && (p.response !== 'bytes' || p.stream === true)) throw invalid("host.fetch response may only be 'bytes', and not with stream: true");
  if ([p.body, p.bytes, p.multipart, p.bodyParts].filter((b) => b !== undefined).length > 1) throw invalid('host.fetch takes one body: text, bytes, multipart or body_parts');
  const req: FetchRequest = { url: p.url, method: p.method, headers: p.headers };
  if (p.body !== undefined) req.body = p.body;
  if (p.bytes !== undefined) req.body = asBuffer(blobAt(blobs, p.bytes));
  if (p.multipart !== undefined) {
    const form = multipartBody(multipartParts(p.multipart, blobs));
    req.headers = { ...withoutHeader(p.headers, 'content-type'), 'content-type': form.contentType };
    req.body = form.body;
  }
  if (p.response === 'bytes') req.response = 'bytes';
  if (p.timeoutMs !== undefined) req.timeoutMs = p.timeoutMs;
  if (p.bodyParts !== undefined) req.bodyParts = p.bodyParts;
  if (p.stream === true) return openStream(call, req);
  return call.req.bridge.fetch(req);
}

/** A streamed fetch: the guest gets the head and an id to read the body with (`body` requests). */
async function openStream(call: PendingCall, req: FetchRequest): Promise<unknown> {
  if ((call.openBodies?.size ?? 0) >= MAX_OPEN_BODIES_PER_CALL) {
    throw new SandboxError('FETCH_STREAM_LIMIT', `this call already has ${MAX_OPEN_BODIES_PER_CALL} streamed responses open; read them to the end or cancel them first`, { limit: MAX_OPEN_BODIES_PER_CALL });
  }
  req.stream = true;
  const res: FetchResponse = await call.req.bridge.fetch(req);
  const reader = res.reader;
  if (!reader) throw new SandboxError('FETCH_FAILED', 'the host answered a streamed fetch without a body reader');
  // The call may have ended while the headers were coming: nobody would ever read or close it.
  if (call.settled) {
    reader.close();
    throw invalid('the call ended before its response arrived');
  }
  const id = ++call.lastBodyId;
  (call.openBodies ??= new Map()).set(id, reader);
  return { status: res.status, headers: res.headers, stream: id };
}

/** `[id, 'read' | 'cancel']` on a body this call opened: the next piece (undefined at the end), or closing it. */
async function runBody(call: PendingCall, payload: unknown): Promise<string | undefined> {
  if (!Array.isArray(payload) || typeof payload[0] !== 'number' || (payload[1] !== 'read' && payload[1] !== 'cancel')) throw invalid('malformed response body request');
  const id = payload[0];
  const reader = call.openBodies?.get(id);
  if (!reader) {
    if (payload[1] === 'cancel' || (id >= 1 && id <= call.lastBodyId)) return undefined;
    throw invalid('that response body is not open in this call');
  }
  if (payload[1] === 'cancel') {
    call.openBodies!.delete(id);
    reader.close();
    return undefined;
  }
  try {
    const piece = await reader.read();
    if (piece === null) call.openBodies?.delete(id);
    return piece ?? undefined;
  } catch (e) {
    call.openBodies?.delete(id);
    throw e;
  }
}

const MAX_BODY_PARTS = 16;

/** A byte array the request named by its index among its own (the guest's counting is not trusted). */
function blobAt(blobs: RequestBlobs | undefined, index: unknown): Uint8Array {
  const blob = blobs && Number.isSafeInteger(index) && (index as number) >= 0 ? blobs.list[blobs.from + (index as number)] : undefined;
  if (!(blob instanceof Uint8Array)) throw invalid('host.fetch body bytes must be a Uint8Array or ArrayBuffer');
  return blob;
}

const asBuffer = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

function multipartParts(v: unknown, blobs: RequestBlobs | undefined): MultipartPart[] {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_BODY_PARTS) throw invalid(`host.fetch multipart must be a list of 1 to ${MAX_BODY_PARTS} parts`);
  return v.map((part: unknown) => {
    const p = part as { name?: unknown; value?: unknown; bytes?: unknown; filename?: unknown; contentType?: unknown } | null;
    if (typeof p !== 'object' || p === null || typeof p.name !== 'string') throw invalid('each host.fetch multipart part needs a name');
    for (const field of ['filename', 'contentType'] as const) if (p[field] !== undefined && typeof p[field] !== 'string') throw invalid(`host.fetch multipart part "${p.name}": ${field} must be a string`);
    if (typeof p.value === 'string' && p.bytes === undefined) return { name: p.name, value: p.value };
    if (p.value !== undefined) throw invalid(`host.fetch multipart part "${p.name}": value must be a string or {bytes, filename?, content_type?}`);
    return { name: p.name, value: blobAt(blobs, p.bytes), filename: p.filename as string | undefined, contentType: p.contentType as string | undefined };
  });
}

function withoutHeader(headers: Record<string, string>, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== name));
}

function isBodyParts(v: unknown): v is FetchBodyPart[] {
  if (!Array.isArray(v) || v.length > MAX_BODY_PARTS) return false;
  return v.every((part) => typeof part === 'string' || (typeof part === 'object' && part !== null && Object.keys(part).length === 1 && typeof (part as { upload_base64?: unknown }).upload_base64 === 'string'));
}

/** A line break would end an SSE field early and let the text forge fields of its own. */
const SSE_FIELD = /^[^\r\n]*$/;

function runStream(call: PendingCall, payload: unknown): Promise<void> {
  const sink = call.req.stream;
  if (!sink) throw new SandboxError('STREAM_NOT_OPEN', 'this call serves no streamed route: ctx.stream exists only in handlers of routes whose response kind is "stream"');
  if (sink.format === 'text') {
    if (typeof payload !== 'string') throw invalid('ctx.stream.write(chunk) needs a string');
    return sink.write(payload);
  }
  const p = payload as Partial<SseEvent> | null;
  if (typeof p !== 'object' || p === null || typeof p.data !== 'string') throw invalid('ctx.stream.event({event, data, id}) needs data');
  const event: SseEvent = { data: p.data };
  for (const field of ['event', 'id'] as const) {
    const v = p[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string' || !SSE_FIELD.test(v)) throw invalid(`the event's ${field} must be a string without line breaks`);
    event[field] = v;
  }
  if (p.retry !== undefined && p.retry !== null) {
    if (!Number.isSafeInteger(p.retry) || p.retry < 0) throw invalid("the event's retry must be a whole number of milliseconds");
    event.retry = p.retry;
  }
  return sink.write(event);
}

async function runDb(call: PendingCall, payload: unknown): Promise<unknown> {
  if (!Array.isArray(payload)) throw invalid('malformed host.db request');
  const [method, args, txId] = payload as [unknown, unknown, unknown];
  if (!Array.isArray(args)) throw invalid('malformed host.db request');
  if (txId !== null && typeof txId !== 'string') throw invalid('malformed host.db request');
  const bridge = call.req.bridge;

  if (method === 'tx.begin') {
    const id = await bridge.db('tx.begin', []);
    if (typeof id !== 'string') throw new SandboxError('INVALID_REQUEST', 'the host did not return a transaction id');
    // The call may have ended while the transaction was opening; nobody would ever finish it.
    if (call.settled) {
      call.rollbackLate(id);
      throw invalid('the call ended before its transaction began');
    }
    (call.openTx ??= new Set()).add(id);
    return id;
  }
  if (method === 'tx.commit' || method === 'tx.rollback') {
    const tx = ownTransaction(call, txId);
    if (method === 'tx.rollback') call.openTx!.delete(tx);
    await bridge.db(method, [], tx);
    call.openTx?.delete(tx);
    return undefined;
  }
  if (typeof method !== 'string' || !DATA_METHODS.has(method)) throw invalid(`host.db has no method "${String(method)}"`);
  return txId === null ? bridge.db(method as DbMethod, args) : bridge.db(method as DbMethod, args, ownTransaction(call, txId));
}

/** A call may only use transactions it began itself. */
function ownTransaction(call: PendingCall, txId: unknown): string {
  if (typeof txId !== 'string' || !call.openTx?.has(txId)) throw invalid('that transaction is not open in this call');
  return txId;
}

/** What the guest may learn of a host error: its code, message and details, never its stack. */
export function toWireError(e: unknown): WireError {
  if (typeof e !== 'object' || e === null) return { message: String(e) };
  const { message, code, details } = e as { message?: unknown; code?: unknown; details?: unknown };
  const wire: WireError = { message: typeof message === 'string' ? message : 'the host request failed' };
  if (typeof code === 'string' || typeof code === 'number') wire.code = code;
  if (details !== undefined && isJsonSafe(details)) wire.details = details;
  return wire;
}

function isJsonSafe(v: unknown): boolean {
  try {
    return JSON.stringify(v) !== undefined;
  } catch {
    return false;
  }
}
