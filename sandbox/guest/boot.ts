/**
 * The guest side of the bridge, run first in every tenant context, before the module bundle. The
 * prelude script (sandbox/prelude.ts bundles this folder) evaluates to `boot`, which removes the
 * globals that escape the isolate's limits and returns `receive(batch)`; the host keeps that
 * function as its only Reference into the context.
 *
 * Why it is written the way it is:
 * - `post` and `clock` (isolated-vm Callbacks) live only in this closure; no value reachable from
 *   guest code leads to them. Everything else in here handles copies (strings, parsed JSON).
 * - The bundle's definition never becomes a global: its `var __mandi_module = ...` assigns through
 *   an accessor planted here, and init() copies the handlers into frozen tables without prototypes
 *   and drops the rest, so nothing guest code does to the definition (or to a prototype) later
 *   changes what a call runs (DESIGN.md, Sandbox).
 * - Strict mode throughout (the bundle is wrapped in a strict function), so guest code cannot reach
 *   these frames' functions through `fn.caller` or `Error.prepareStackTrace` call sites.
 * - Guest code may rewrite any prototype or global before and during a call, so this code never
 *   looks a method up on a shared prototype: intrinsics are captured before any guest code runs
 *   (intrinsics.ts) and called through `apply`; its own tables and descriptors have no prototype;
 *   it awaits instead of calling `.then`; it appends to strings instead of arrays.
 * - Results and requests leave as JSON text measured against the output limit (wire-json.ts).
 *
 * Only the protocol's types and constants are imported from outside this folder: it runs inside the
 * isolate, with ES2022 and nothing else (tsconfig.json here).
 */
import {
  CallKind,
  Status,
  type Boot,
  type BridgeKind,
  type EventDelivery,
  type HostMessage,
  type LogLevel,
  type StreamFormat,
  type WireError,
} from '../protocol';
import {
  apply,
  create,
  defineProperty,
  ErrorCtor,
  freeze,
  G,
  hasOwn,
  keysOf,
  ownNames,
  parse,
  PromiseCtor,
  stringify,
  StringCtor,
  asyncIterator,
  TypeErrorCtor,
  Uint8ArrayCtor,
  ArrayBufferCtor,
  isView,
} from './intrinsics';
import { removeEscapes } from './escapes';
import { clip, errorJson, measured, measuredSize, overLimit } from './wire-json';

type Handler = (input: unknown, ctx: Ctx) => unknown;
type Handlers = Record<string, Handler>;
interface LiveCall {
  reqs: number;
  logs: number;
  /** The reader of the call's stream went away (host message "k"). */
  closed: boolean;
}
/**
 * shape 1: the reply is an HTTP response to wrap; 2: a streamed response's head, whose body is read
 * by id; 3: a `response: 'bytes'` response, whose body is the byte array the reply names.
 */
type ReplyShape = 0 | 1 | 2 | 3;
/** A request's byte arrays, by index from 0, until they join the outgoing batch's. */
interface Blobs {
  list: Record<number, Uint8Array>;
  count: number;
}
interface PendingRequest {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  id: number;
  shape: ReplyShape;
}
interface WireResponse {
  status: number;
  headers: Record<string, string>;
  body?: string;
  /** A streamed response's body id. */
  stream?: number;
}
interface Ctx {
  readonly tenantId: string;
  readonly host: object;
  readonly stream: object | null;
}

export const boot: Boot = (post, clock, tenantId, maxOutput, maxLogs, maxPending) => {
  removeEscapes();

  // A `var` global cannot be deleted, so the bundle's would keep its definition reachable from any
  // code in the context: its assignment lands here instead (the accessor goes at init).
  let assigned: unknown;
  const slot = create<PropertyDescriptor>(null);
  slot.configurable = true;
  slot.get = function () {
    return undefined;
  };
  slot.set = function (value: unknown) {
    assigned = value;
  };
  defineProperty(G, '__mandi_module', slot);

  let operations: Handlers | null = null;
  let events: Handlers | null = null;
  const live = create<Record<number, LiveCall>>(null); // while the call may still answer
  const pending = create<Record<number, PendingRequest>>(null);
  let nextReq = 0;
  let out = '';
  // The byte arrays the batch in `out` names (fetch bodies): they cross beside it, never as JSON.
  let outBlobs: Uint8Array[] = [];
  let outBlobCount = 0;
  let flushing = false;

  function send(message: string): void {
    out = out === '' ? message : out + ',' + message;
    if (!flushing) {
      flushing = true;
      void flushSoon();
    }
  }

  // Runs after the microtasks queued so far, so completions of one burst leave together.
  async function flushSoon(): Promise<void> {
    await undefined;
    flushing = false;
    const batch = '[' + out + ']';
    out = '';
    if (outBlobCount === 0) post(batch);
    else {
      const blobs = outBlobs;
      outBlobs = [];
      outBlobCount = 0;
      post(batch, blobs);
    }
  }

  function failed(id: number, e: unknown, prefix?: string): void {
    send('["d",' + id + ',' + Status.error + ',' + errorJson(e, maxOutput, prefix) + ']');
  }

  function own(target: object, key: string, value: unknown): void {
    const d = create<PropertyDescriptor>(null);
    d.value = value;
    d.writable = true;
    d.configurable = true;
    d.enumerable = true;
    defineProperty(target, key, d);
  }

  function codeError(code: string, message: string): Error {
    const e = new ErrorCtor(message);
    own(e, 'code', code);
    return e;
  }

  function rejected(e: unknown): Promise<never> {
    return new PromiseCtor(function (_resolve, reject) {
      reject(e);
    });
  }

  function finish(id: number, value: unknown): void {
    let json;
    try {
      json = measured(value, maxOutput);
    } catch (e) {
      failed(id, e, 'the result is not JSON-serialisable: ');
      return;
    }
    if (json === overLimit) send('["d",' + id + ',' + Status.tooLarge + ',' + measuredSize + ']');
    else if (typeof json !== 'string') send('["d",' + id + ',' + Status.undefined + ']');
    else if (json.length > maxOutput) send('["d",' + id + ',' + Status.tooLarge + ',' + json.length + ']');
    else send('["d",' + id + ',' + Status.ok + ',' + json + ']');
  }

  // Forgets a call: its pending requests are dropped, so code still awaiting them never resumes.
  function retire(id: number): void {
    const call = live[id];
    if (call === undefined) return;
    delete live[id];
    if (call.reqs > 0)
      for (const k in pending) {
        if (pending[k].id === id) delete pending[k];
      }
  }

  function start(
    id: number,
    kind: CallKind,
    name: string,
    input: unknown,
    caller: string,
    user: unknown,
    event: EventDelivery | null,
    relatedFrom: string | null,
    stream: StreamFormat | null,
    idempotencyKey: string | null,
  ): void {
    const table = kind === CallKind.operation ? operations : events;
    const fn = table === null ? undefined : table[name];
    if (table === null || fn === undefined) {
      send('["d",' + id + ',' + Status.noHandler + ',' + stringify(name) + ']');
      return;
    }
    const call = create<LiveCall>(null);
    call.reqs = 0;
    call.logs = 0;
    call.closed = false;
    live[id] = call;
    void run(id, fn, table, input, new GuestCtx(id, caller, user, event, relatedFrom, stream === 'text' || stream === 'sse' ? stream : null, idempotencyKey));
  }

  async function run(id: number, fn: Handler, self: Handlers, input: unknown, ctx: Ctx): Promise<void> {
    let ok = true;
    let value;
    try {
      value = await apply(fn, self, [input, ctx]);
    } catch (e) {
      ok = false;
      value = e;
    }
    if (live[id] === undefined) return;
    retire(id);
    if (ok) finish(id, value);
    else failed(id, value);
  }

  function request(id: number, kind: BridgeKind, payload: unknown, shape: ReplyShape, blobs?: Blobs): Promise<unknown> {
    const call = live[id];
    return new PromiseCtor(function (resolve, reject) {
      if (call === undefined || live[id] !== call) {
        reject(codeError('INVOCATION_ENDED', 'this host object belongs to a call that has ended'));
        return;
      }
      let json;
      try {
        json = measured(payload, maxOutput);
      } catch (e) {
        reject(e);
        return;
      }
      if (json === overLimit || (typeof json === 'string' && json.length > maxOutput)) {
        const size = json === overLimit ? 'at least ' + measuredSize : (json as string).length;
        reject(codeError('OUTPUT_TOO_LARGE', 'the arguments are ' + size + ' characters of JSON, over the limit of ' + maxOutput));
        return;
      }
      if (typeof json !== 'string') {
        reject(new TypeErrorCtor('the arguments could not be serialised'));
        return;
      }
      // A call may not flood the host: past this many unanswered requests, more are refused.
      if (call.reqs >= maxPending) {
        reject(codeError('TOO_MANY_REQUESTS', 'this call already has ' + maxPending + ' host requests waiting; await some first'));
        return;
      }
      const reqId = ++nextReq;
      const p = create<PendingRequest>(null);
      p.resolve = resolve;
      p.reject = reject;
      p.id = id;
      p.shape = shape;
      pending[reqId] = p;
      call.reqs++;
      // Defined, not assigned: an index setter planted on Array.prototype sees nothing.
      let at = '';
      if (blobs !== undefined && blobs.count > 0) {
        at = ',' + outBlobCount;
        for (let i = 0; i < blobs.count; i++) own(outBlobs, StringCtor(outBlobCount++), blobs.list[i]);
      }
      send('["q",' + id + ',' + reqId + ',"' + kind + '",' + json + at + ']');
    });
  }

  function hostError(w: WireError): Error {
    const e = new ErrorCtor(typeof w.message === 'string' ? w.message : 'the host refused the request');
    if (hasOwn(w, 'code')) own(e, 'code', w.code);
    if (hasOwn(w, 'details')) own(e, 'details', w.details);
    return e;
  }

  function response(v: WireResponse) {
    const body = typeof v.body === 'string' ? v.body : '';
    const status = v.status;
    return freeze({
      status: status,
      ok: status >= 200 && status < 300,
      headers: freeze(v.headers),
      body: body,
      json(): unknown {
        return parse(body);
      },
      text(): string {
        return body;
      },
    });
  }

  // A `response: 'bytes'` answer: the body as the bytes the host copied in (`body` is an error's text).
  function bytesResponse(v: WireResponse, bytes: unknown) {
    const body = typeof v.body === 'string' ? v.body : '';
    const status = v.status;
    return freeze({
      status: status,
      ok: status >= 200 && status < 300,
      headers: freeze(v.headers),
      bytes: bytes instanceof Uint8ArrayCtor ? bytes : new Uint8ArrayCtor(0),
      body: body,
      json(): unknown {
        return parse(body);
      },
      text(): string {
        return body;
      },
    });
  }

  function reply(reqId: number, status: Status, value: unknown, bytes: unknown): void {
    const p = pending[reqId];
    if (p === undefined) return;
    delete pending[reqId];
    const call = live[p.id];
    if (call !== undefined) call.reqs--;
    if (status === Status.error) p.reject(hostError(value as WireError));
    else if (status === Status.undefined) p.resolve(undefined);
    else if (p.shape === 1) p.resolve(response(value as WireResponse));
    else if (p.shape === 2) p.resolve(streamedResponse(p.id, value as WireResponse));
    else if (p.shape === 3) p.resolve(bytesResponse(value as WireResponse, bytes));
    else p.resolve(value);
  }

  function log(id: number, level: LogLevel, message: unknown, data: unknown): void {
    const call = live[id];
    if (call === undefined) return;
    call.logs++;
    if (call.logs > maxLogs) {
      if (call.logs === maxLogs + 1) send('["l",' + id + ',"warn","log line limit reached; further lines of this call are dropped"]');
      return;
    }
    let m;
    try {
      m = typeof message === 'string' ? message : StringCtor(message);
    } catch (_) {
      m = '[unprintable message]';
    }
    let line = '["l",' + id + ',"' + level + '",' + stringify(clip(m, 16384));
    if (data !== undefined) {
      let d;
      try {
        d = measured(data, 65536);
      } catch (_) {
        d = undefined;
      }
      line += ',' + (d === overLimit || (typeof d === 'string' && d.length > 65536) ? '"[data truncated]"' : typeof d !== 'string' ? '"[unserialisable data]"' : d);
    }
    send(line + ']');
  }

  // A copy of exactly the bytes of a Uint8Array, other view or ArrayBuffer (null for anything else):
  // a view of part of a larger buffer would otherwise take all of it across.
  function bytesOf(v: unknown): Uint8Array | null {
    if (v instanceof ArrayBufferCtor) return new Uint8ArrayCtor(v);
    if (!isView(v)) return null;
    const view = v as ArrayBufferView;
    const u = new Uint8ArrayCtor(view.buffer, view.byteOffset, view.byteLength);
    return view.byteOffset === 0 && view.byteLength === view.buffer.byteLength ? u : new Uint8ArrayCtor(u);
  }

  function addBlob(blobs: Blobs, bytes: Uint8Array): number {
    blobs.list[blobs.count] = bytes;
    return blobs.count++;
  }

  // `{multipart: [{name, value: string | bytes | {bytes, filename?, content_type?}}]}`: text fields
  // and files, each file's bytes a blob; the host assembles the form (bridge-requests.ts checks it).
  function multipartOf(given: unknown, blobs: Blobs): unknown {
    const parts = given as ArrayLike<Record<string, unknown>>;
    const n = parts.length;
    const out = create<Record<number, unknown>>(null);
    for (let i = 0; i < n; i++) {
      const part = parts[i];
      const p = create<Record<string, unknown>>(null);
      p.name = StringCtor(part.name);
      const value = part.value;
      const direct = bytesOf(value);
      if (typeof value === 'string') p.value = value;
      else if (direct !== null) p.bytes = addBlob(blobs, direct);
      else if (typeof value === 'object' && value !== null) {
        const file = value as Record<string, unknown>;
        const bytes = bytesOf(file.bytes);
        if (bytes === null) throw new TypeErrorCtor('host.fetch multipart part "' + p.name + '": value.bytes must be a Uint8Array or ArrayBuffer');
        p.bytes = addBlob(blobs, bytes);
        if (file.filename !== undefined && file.filename !== null) p.filename = StringCtor(file.filename);
        if (file.content_type !== undefined && file.content_type !== null) p.contentType = StringCtor(file.content_type);
      } else p.value = StringCtor(value);
      out[i] = p;
    }
    // The host checks the part count; the wire form is a JSON array.
    const list: unknown[] = [];
    for (let i = 0; i < n; i++) own(list, StringCtor(i), out[i]);
    return list;
  }

  function fetchFor(id: number, url: unknown, init: unknown): Promise<unknown> {
    const r = create<Record<string, unknown>>(null);
    const blobs = create<Blobs>(null);
    blobs.list = create(null);
    blobs.count = 0;
    try {
      r.url = StringCtor(url);
      const o = (init === undefined || init === null ? create(null) : init) as Record<string, unknown>;
      r.method = o.method === undefined || o.method === null ? 'GET' : StringCtor(o.method);
      const headers = create<Record<string, string>>(null);
      const given = o.headers as Record<string, unknown> | null | undefined;
      if (given !== undefined && given !== null) {
        const names = keysOf(given);
        for (let i = 0; i < names.length; i++) headers[names[i]] = StringCtor(given[names[i]]);
      }
      const body = o.body;
      if (body !== undefined && body !== null) {
        const bytes = typeof body === 'string' ? null : bytesOf(body);
        if (typeof body === 'string') r.body = body;
        else if (bytes !== null) r.bytes = addBlob(blobs, bytes);
        else if (typeof body === 'object' && hasOwn(body, 'multipart')) r.multipart = multipartOf((body as Record<string, unknown>).multipart, blobs);
        else {
          r.body = stringify(body);
          if (!hasOwn(headers, 'content-type') && !hasOwn(headers, 'Content-Type')) headers['content-type'] = 'application/json';
        }
      }
      r.headers = headers;
      // Checked by the host (a whole number of ms, at least 1); anything else is refused there.
      if (o.timeout_ms !== undefined && o.timeout_ms !== null) r.timeoutMs = typeof o.timeout_ms === 'number' ? o.timeout_ms : StringCtor(o.timeout_ms);
      if (o.stream === true) r.stream = true;
      if (o.response === 'bytes') r.response = 'bytes';
      // Checked by the host (strings and {upload_base64: id}, without body).
      if (o.body_parts !== undefined && o.body_parts !== null) r.bodyParts = o.body_parts;
    } catch (e) {
      return rejected(e);
    }
    return request(id, 'fetch', r, r.stream === true ? 2 : r.response === 'bytes' ? 3 : 1, blobs);
  }

  // A streamed response: its body is read a piece per host request, so the host holds little of it
  // and a module that stops reading stops the server (back-pressure all the way).
  function streamedResponse(id: number, v: WireResponse) {
    const bodyId = v.stream;
    const status = v.status;
    let finished = false;
    async function read() {
      if (finished) return { done: true, value: undefined };
      const piece = await request(id, 'body', [bodyId, 'read'], 0);
      if (typeof piece !== 'string') {
        finished = true;
        return { done: true, value: undefined };
      }
      return { done: false, value: piece };
    }
    async function cancel(): Promise<void> {
      if (finished) return;
      finished = true;
      await request(id, 'body', [bodyId, 'cancel'], 0);
    }
    const reader = create<Record<PropertyKey, unknown>>(null);
    reader.read = read;
    reader.cancel = cancel;
    reader[asyncIterator] = function () {
      return freeze({
        next: read,
        async return() {
          await cancel();
          return { done: true, value: undefined };
        },
      });
    };
    return freeze({ status: status, ok: status >= 200 && status < 300, headers: freeze(v.headers), body: freeze(reader) });
  }

  // A stream write is a host request like any other: it resolves once the host's response took the
  // piece, so awaiting each write paces the handler to its reader.
  function streamWrite(id: number, piece: unknown): Promise<unknown> {
    const call = live[id];
    if (call !== undefined && call.closed) return rejected(codeError('STREAM_CLOSED', 'the reader of this stream has gone; end the handler'));
    return request(id, 'stream', piece, 0);
  }

  function streamFor(id: number, format: StreamFormat) {
    return freeze({
      write(chunk: unknown) {
        if (typeof chunk !== 'string') return rejected(new TypeErrorCtor('ctx.stream.write(chunk) needs a string'));
        if (format === 'text') return streamWrite(id, chunk);
        const e = create<Record<string, unknown>>(null);
        e.data = chunk;
        return streamWrite(id, e);
      },
      event(event: unknown) {
        if (format !== 'sse') {
          return rejected(codeError('STREAM_NOT_SSE', 'ctx.stream.event() needs a route whose response content_type is text/event-stream; use write(text)'));
        }
        const e = create<Record<string, unknown>>(null);
        try {
          const given = event as Record<string, unknown>;
          const data = given.data;
          e.data = typeof data === 'string' ? data : stringify(data);
          e.event = given.event;
          e.id = given.id;
          e.retry = given.retry;
        } catch (err) {
          return rejected(err);
        }
        return streamWrite(id, e);
      },
      get closed(): boolean {
        const call = live[id];
        return call === undefined || call.closed;
      },
    });
  }

  async function transact(id: number, work: unknown): Promise<unknown> {
    if (typeof work !== 'function') throw new TypeErrorCtor('db.transaction needs a function (tx) => ...');
    const txId = await request(id, 'db', ['tx.begin', [], null], 0);
    const tx = dbFor(id, txId);
    let result;
    try {
      result = await work(tx);
    } catch (e) {
      // The host also rolls back whatever a call leaves open, so a failed rollback changes nothing.
      try {
        await request(id, 'db', ['tx.rollback', [], txId], 0);
      } catch (_) {
        // See above.
      }
      throw e;
    }
    await request(id, 'db', ['tx.commit', [], txId], 0);
    return result;
  }

  function dbFor(id: number, txId: unknown) {
    const q = function (method: string, args: unknown[]) {
      return request(id, 'db', [method, args, txId], 0);
    };
    const methods = {
      find(...args: unknown[]) {
        return q('find', args);
      },
      findOne(...args: unknown[]) {
        return q('findOne', args);
      },
      count(...args: unknown[]) {
        return q('count', args);
      },
      create(...args: unknown[]) {
        return q('create', args);
      },
      bulkCreate(...args: unknown[]) {
        return q('bulkCreate', args);
      },
      update(...args: unknown[]) {
        return q('update', args);
      },
      upsert(...args: unknown[]) {
        return q('upsert', args);
      },
      destroy(...args: unknown[]) {
        return q('destroy', args);
      },
      sequence(...args: unknown[]) {
        return q('sequence', args);
      },
    };
    if (txId === null)
      own(methods, 'transaction', function transaction(work: unknown) {
        return transact(id, work);
      });
    return freeze(methods);
  }

  function hostFor(id: number) {
    return freeze({
      call(op: unknown, input: unknown) {
        return request(id, 'call', [op, input], 0);
      },
      db: dbFor(id, null),
      emit(event: unknown, payload: unknown) {
        return request(id, 'emit', [event, payload], 0);
      },
      log: freeze({
        debug(message: unknown, data?: unknown) {
          log(id, 'debug', message, data);
        },
        info(message: unknown, data?: unknown) {
          log(id, 'info', message, data);
        },
        warn(message: unknown, data?: unknown) {
          log(id, 'warn', message, data);
        },
        error(message: unknown, data?: unknown) {
          log(id, 'error', message, data);
        },
      }),
      now() {
        return clock(id);
      },
      fetch(url: unknown, init?: unknown) {
        return fetchFor(id, url, init);
      },
      evaluate(expression: unknown, inputs?: unknown) {
        return request(id, 'evaluate', [expression, inputs === undefined ? null : inputs], 0);
      },
    });
  }

  // The handler's ctx. A class, so a call costs one small frozen object: host (~20 closures) is
  // built on first use, and most handlers never touch it. Class fields define, never assign, so
  // setters planted on Object.prototype see nothing. The prototype loses its constructor, so guest
  // code cannot make a ctx for another call's id.
  class GuestCtx implements Ctx {
    tenantId = tenantId;
    caller: string;
    user: unknown;
    event: Readonly<EventDelivery> | null;
    relatedFrom: string | null;
    stream: object | null;
    idempotencyKey: string | null;
    #id: number;
    #host: object | undefined;
    constructor(id: number, caller: string, user: unknown, event: EventDelivery | null, relatedFrom: string | null, stream: StreamFormat | null, idempotencyKey: string | null) {
      this.caller = caller;
      this.user = user;
      this.event = event === null || event === undefined ? null : freeze(event);
      this.relatedFrom = relatedFrom ?? null;
      this.idempotencyKey = typeof idempotencyKey === 'string' ? idempotencyKey : null;
      this.stream = stream === null ? null : streamFor(id, stream);
      this.#id = id;
      freeze(this);
    }
    get host(): object {
      if (this.#host === undefined) this.#host = hostFor(this.#id);
      return this.#host;
    }
  }
  delete (GuestCtx.prototype as { constructor?: unknown }).constructor;
  freeze(GuestCtx.prototype);

  // The module's own handlers, taken once (own properties only, as the guest contract says).
  function handlers(given: object): Handlers {
    const table = create<Handlers>(null);
    const names = ownNames(given);
    for (let i = 0; i < names.length; i++) {
      const fn = (given as Handlers)[names[i]];
      if (typeof fn === 'function') table[names[i]] = fn;
    }
    return freeze(table);
  }

  // Reads the definition the bundle assigned; returns '' or what is wrong with it.
  function init(): string {
    try {
      // A bundle that defined the global itself (not through `var`) replaced the accessor.
      const m = (assigned !== undefined ? assigned : G.__mandi_module) as Record<string, unknown> | null | undefined;
      assigned = undefined;
      try {
        delete G.__mandi_module;
      } catch (_) {
        // Made non-configurable by the bundle itself; the handlers are copied all the same.
      }
      if (m === null || (typeof m !== 'object' && typeof m !== 'function')) {
        return 'the bundle did not assign a module to globalThis.__mandi_module (build it with esbuild format "iife", globalName "__mandi_module")';
      }
      const def = (m.default !== undefined ? m.default : m) as Record<string, unknown> | null;
      if (def === null || (typeof def !== 'object' && typeof def !== 'function')) return 'the module definition is not an object';
      const o = def.operations;
      const e = def.events;
      if (o !== undefined && (o === null || typeof o !== 'object')) return '"operations" must be an object of handler functions';
      if (e !== undefined && (e === null || typeof e !== 'object')) return '"events" must be an object of handler functions';
      operations = o === undefined ? null : handlers(o as object);
      events = e === undefined ? null : handlers(e as object);
      return '';
    } catch (e) {
      return 'reading the module definition failed: ' + (parse(errorJson(e, maxOutput)) as WireError).message;
    }
  }

  return function receive(batch: string, blobs?: Uint8Array[]): string | undefined {
    if (batch === 'init') return init();
    const messages = parse(batch) as HostMessage[];
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i];
      // One message failing (guest code may have broken something it relies on) must not drop the rest.
      try {
        if (m[0] === 'c') start(m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9], m[10]);
        else if (m[0] === 'r') reply(m[1], m[2], m[3], m.length > 4 && blobs !== undefined ? blobs[m[4] as number] : undefined);
        else if (m[0] === 'x') retire(m[1]);
        else if (m[0] === 'k') {
          const call = live[m[1]];
          if (call !== undefined) call.closed = true;
        }
      } catch (e) {
        if (m[0] === 'c') failed(m[1], e);
      }
    }
    return undefined;
  };
};
