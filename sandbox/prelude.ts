/**
 * The guest side of the bridge: plain JavaScript compiled once per isolate and run first in every
 * tenant context, before the module bundle. It evaluates to `boot(post, clock, tenantId, maxOutput,
 * maxLogs, maxPending)`, which captures the intrinsics it needs, removes the globals that escape
 * the isolate's limits, and returns `receive(batch)`; the host keeps that function as its only
 * Reference into the context.
 *
 * Why it is written the way it is:
 * - `post` and `clock` (isolated-vm Callbacks) live only in this closure; no value reachable from
 *   guest code leads to them. Everything else in here handles copies (strings, parsed JSON).
 * - Strict mode throughout, so guest code cannot reach these frames' functions through
 *   `fn.caller` or `Error.prepareStackTrace` call sites.
 * - Guest code may rewrite any prototype or global before and during a call, so this code never
 *   looks a method up on a shared prototype: intrinsics are captured at boot and called through
 *   Reflect.apply; its own tables and descriptors have no prototype; it awaits instead of calling
 *   `.then`; it appends to strings instead of arrays.
 * - Results and requests leave as JSON text measured against the output limit while it is built:
 *   `JSON.stringify` builds its whole text first, past the isolate's memory limit if need be, so
 *   a replacer counts what the text will hold at least and stops it once over the limit.
 *
 * The message format is described in sandbox/protocol.ts.
 */
export const PRELUDE_SOURCE = `(function boot(post, clock, tenantId, maxOutput, maxLogs, maxPending) {
  'use strict';
  const G = globalThis;
  const freeze = Object.freeze;
  const create = Object.create;
  const hasOwn = Object.hasOwn;
  const keysOf = Object.keys;
  const defineProperty = Object.defineProperty;
  const apply = Reflect.apply;
  const stringify = JSON.stringify;
  const isArray = Array.isArray;
  const parse = JSON.parse;
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const PromiseCtor = Promise;
  const StringCtor = String;
  const slice = String.prototype.slice;

  // WebAssembly memory is not counted by the isolate's memory limit, Atomics.wait parks the
  // isolate's thread, and finalizer callbacks run outside any call's time limit.
  const escapes = ['WebAssembly', 'SharedArrayBuffer', 'Atomics', 'FinalizationRegistry'];
  for (let i = 0; i < escapes.length; i++) { try { delete G[escapes[i]]; } catch (e) {} }

  let operations = null;
  let events = null;
  const live = create(null);     // callId -> {reqs, logs} while the call may still answer
  const pending = create(null);  // reqId -> {resolve, reject, id, shape}
  let nextReq = 0;
  let out = '';
  let flushing = false;

  function send(message) {
    out = out === '' ? message : out + ',' + message;
    if (!flushing) { flushing = true; flushSoon(); }
  }

  // Runs after the microtasks queued so far, so completions of one burst leave together.
  async function flushSoon() {
    await undefined;
    flushing = false;
    const batch = '[' + out + ']';
    out = '';
    post(batch);
  }

  // Thrown by the replacer of measured(); nothing else can throw it.
  const overLimit = freeze(create(null));
  let measuredSize = 0;

  // JSON text of value, or overLimit once the text is sure to pass max characters (measuredSize is
  // then a lower bound of its length). Counts values and object keys, never commas: a lower bound.
  function measured(value, max) {
    let size = 0;
    let root = true;
    const count = function (key, v) {
      if (root) root = false;
      else if (!isArray(this)) size += key.length + 3;
      const t = typeof v;
      size += t === 'string' ? v.length + 2 : t === 'object' ? (v === null ? 4 : 2) : t === 'boolean' ? 4 : t === 'number' || t === 'bigint' ? 1 : 0;
      if (size > max) throw overLimit;
      return v;
    };
    try {
      return stringify(value, count);
    } catch (e) {
      if (e === overLimit) { measuredSize = size; return overLimit; }
      throw e;
    }
  }

  function own(target, key, value) {
    const d = create(null);
    d.value = value; d.writable = true; d.configurable = true; d.enumerable = true;
    defineProperty(target, key, d);
  }

  function clip(s, n) { return s.length > n ? apply(slice, s, [0, n]) + '...[truncated]' : s; }

  function codeError(code, message) {
    const e = new ErrorCtor(message);
    own(e, 'code', code);
    return e;
  }

  function rejected(e) { return new PromiseCtor(function (resolve, reject) { reject(e); }); }

  function errorJson(e, prefix) {
    const info = create(null);
    info.name = 'Error';
    info.message = '';
    try {
      if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
        const n = e.name; if (typeof n === 'string') info.name = clip(n, 200);
        const m = e.message; info.message = typeof m === 'string' ? m : m === undefined ? '' : StringCtor(m);
        const c = e.code; if (typeof c === 'string') info.code = clip(c, 200); else if (typeof c === 'number') info.code = c;
        const d = e.details; if (d !== undefined) info.details = d;
        const s = e.stack; if (typeof s === 'string') info.stack = clip(s, 8192);
      } else {
        info.message = StringCtor(e);
      }
    } catch (x) {
      if (info.message === '') info.message = 'the thrown value could not be read';
    }
    info.message = clip((prefix || '') + info.message, 16384);
    let json;
    try { json = measured(info, maxOutput); } catch (x) { json = undefined; }
    if (typeof json !== 'string' || json.length > maxOutput) {
      delete info.details;
      json = stringify(info);
    }
    return json;
  }

  function finish(id, value) {
    let json;
    try { json = measured(value, maxOutput); } catch (e) {
      send('["d",' + id + ',0,' + errorJson(e, 'the result is not JSON-serialisable: ') + ']');
      return;
    }
    if (json === overLimit) send('["d",' + id + ',4,' + measuredSize + ']');
    else if (json === undefined) send('["d",' + id + ',2]');
    else if (json.length > maxOutput) send('["d",' + id + ',4,' + json.length + ']');
    else send('["d",' + id + ',1,' + json + ']');
  }

  // Forgets a call: its pending requests are dropped, so code still awaiting them never resumes.
  function retire(id) {
    const call = live[id];
    if (call === undefined) return;
    delete live[id];
    if (call.reqs > 0) for (const k in pending) { if (pending[k].id === id) delete pending[k]; }
  }

  function start(id, kind, name, input, caller, user, event) {
    const table = kind === 0 ? operations : events;
    let fn;
    try { if (table !== null && hasOwn(table, name)) fn = table[name]; } catch (e) {
      send('["d",' + id + ',0,' + errorJson(e) + ']');
      return;
    }
    if (typeof fn !== 'function') { send('["d",' + id + ',3,' + stringify(name) + ']'); return; }
    const call = create(null);
    call.reqs = 0; call.logs = 0;
    live[id] = call;
    run(id, fn, table, input, new Ctx(id, caller, user, event));
  }

  async function run(id, fn, self, input, ctx) {
    let ok = true;
    let value;
    try { value = await apply(fn, self, [input, ctx]); } catch (e) { ok = false; value = e; }
    if (live[id] === undefined) return;
    retire(id);
    if (ok) finish(id, value);
    else send('["d",' + id + ',0,' + errorJson(value) + ']');
  }

  // shape 1: the reply is an HTTP response to wrap.
  function request(id, kind, payload, shape) {
    const call = live[id];
    return new PromiseCtor(function (resolve, reject) {
      if (call === undefined || live[id] !== call) {
        reject(codeError('INVOCATION_ENDED', 'this host object belongs to a call that has ended'));
        return;
      }
      let json;
      try { json = measured(payload, maxOutput); } catch (e) { reject(e); return; }
      if (json === overLimit || (typeof json === 'string' && json.length > maxOutput)) {
        const size = json === overLimit ? 'at least ' + measuredSize : json.length;
        reject(codeError('OUTPUT_TOO_LARGE', 'the arguments are ' + size + ' characters of JSON, over the limit of ' + maxOutput));
        return;
      }
      if (typeof json !== 'string') { reject(new TypeErrorCtor('the arguments could not be serialised')); return; }
      // A call may not flood the host: past this many unanswered requests, more are refused.
      if (call.reqs >= maxPending) {
        reject(codeError('TOO_MANY_REQUESTS', 'this call already has ' + maxPending + ' host requests waiting; await some first'));
        return;
      }
      const reqId = ++nextReq;
      const p = create(null);
      p.resolve = resolve; p.reject = reject; p.id = id; p.shape = shape;
      pending[reqId] = p;
      call.reqs++;
      send('["q",' + id + ',' + reqId + ',"' + kind + '",' + json + ']');
    });
  }

  function hostError(w) {
    const e = new ErrorCtor(typeof w.message === 'string' ? w.message : 'the host refused the request');
    if (hasOwn(w, 'code')) own(e, 'code', w.code);
    if (hasOwn(w, 'details')) own(e, 'details', w.details);
    return e;
  }

  function response(v) {
    const body = typeof v.body === 'string' ? v.body : '';
    const status = v.status;
    return freeze({
      status: status,
      ok: status >= 200 && status < 300,
      headers: freeze(v.headers),
      body: body,
      json() { return parse(body); },
      text() { return body; },
    });
  }

  function reply(reqId, status, value) {
    const p = pending[reqId];
    if (p === undefined) return;
    delete pending[reqId];
    const call = live[p.id];
    if (call !== undefined) call.reqs--;
    if (status === 0) p.reject(hostError(value));
    else if (status === 2) p.resolve(undefined);
    else if (p.shape === 1) p.resolve(response(value));
    else p.resolve(value);
  }

  function log(id, level, message, data) {
    const call = live[id];
    if (call === undefined) return;
    call.logs++;
    if (call.logs > maxLogs) {
      if (call.logs === maxLogs + 1) send('["l",' + id + ',"warn","log line limit reached; further lines of this call are dropped"]');
      return;
    }
    let m;
    try { m = typeof message === 'string' ? message : StringCtor(message); } catch (e) { m = '[unprintable message]'; }
    let line = '["l",' + id + ',"' + level + '",' + stringify(clip(m, 16384));
    if (data !== undefined) {
      let d;
      try { d = measured(data, 65536); } catch (e) { d = undefined; }
      line += ',' + (d === overLimit || (typeof d === 'string' && d.length > 65536) ? '"[data truncated]"' : typeof d !== 'string' ? '"[unserialisable data]"' : d);
    }
    send(line + ']');
  }

  function fetchFor(id, url, init) {
    const r = create(null);
    try {
      r.url = StringCtor(url);
      const o = init === undefined || init === null ? create(null) : init;
      r.method = o.method === undefined || o.method === null ? 'GET' : StringCtor(o.method);
      const headers = create(null);
      const given = o.headers;
      if (given !== undefined && given !== null) {
        const names = keysOf(given);
        for (let i = 0; i < names.length; i++) headers[names[i]] = StringCtor(given[names[i]]);
      }
      const body = o.body;
      if (body !== undefined && body !== null) {
        if (typeof body === 'string') r.body = body;
        else {
          r.body = stringify(body);
          if (!hasOwn(headers, 'content-type') && !hasOwn(headers, 'Content-Type')) headers['content-type'] = 'application/json';
        }
      }
      r.headers = headers;
    } catch (e) {
      return rejected(e);
    }
    return request(id, 'fetch', r, 1);
  }

  async function transact(id, work) {
    if (typeof work !== 'function') throw new TypeErrorCtor('db.transaction needs a function (tx) => ...');
    const txId = await request(id, 'db', ['tx.begin', [], null], 0);
    const tx = dbFor(id, txId);
    let result;
    try {
      result = await work(tx);
    } catch (e) {
      // The host also rolls back whatever a call leaves open, so a failed rollback changes nothing.
      try { await request(id, 'db', ['tx.rollback', [], txId], 0); } catch (x) {}
      throw e;
    }
    await request(id, 'db', ['tx.commit', [], txId], 0);
    return result;
  }

  function dbFor(id, txId) {
    const q = function (method, args) { return request(id, 'db', [method, args, txId], 0); };
    const methods = {
      find(...args) { return q('find', args); },
      findOne(...args) { return q('findOne', args); },
      count(...args) { return q('count', args); },
      create(...args) { return q('create', args); },
      bulkCreate(...args) { return q('bulkCreate', args); },
      update(...args) { return q('update', args); },
      upsert(...args) { return q('upsert', args); },
      destroy(...args) { return q('destroy', args); },
      sequence(...args) { return q('sequence', args); },
    };
    if (txId === null) own(methods, 'transaction', function transaction(work) { return transact(id, work); });
    return freeze(methods);
  }

  function hostFor(id) {
    return freeze({
      call(op, input) { return request(id, 'call', [op, input], 0); },
      db: dbFor(id, null),
      emit(event, payload) { return request(id, 'emit', [event, payload], 0); },
      log: freeze({
        debug(message, data) { log(id, 'debug', message, data); },
        info(message, data) { log(id, 'info', message, data); },
        warn(message, data) { log(id, 'warn', message, data); },
        error(message, data) { log(id, 'error', message, data); },
      }),
      now() { return clock(id); },
      fetch(url, init) { return fetchFor(id, url, init); },
    });
  }

  // The handler's ctx. A class, so a call costs one small frozen object: host (~20 closures) is
  // built on first use, and most handlers never touch it. Class fields define, never assign, so
  // setters planted on Object.prototype see nothing. The prototype loses its constructor, so guest
  // code cannot make a ctx for another call's id.
  class Ctx {
    tenantId = tenantId;
    caller;
    user;
    event;
    #id;
    #host;
    constructor(id, caller, user, event) {
      this.caller = caller;
      this.user = user;
      this.event = event === null || event === undefined ? null : freeze(event);
      this.#id = id;
      freeze(this);
    }
    get host() {
      if (this.#host === undefined) this.#host = hostFor(this.#id);
      return this.#host;
    }
  }
  delete Ctx.prototype.constructor;
  freeze(Ctx.prototype);

  // Reads the definition the bundle assigned; returns '' or what is wrong with it.
  function init() {
    try {
      const m = G.__mandi_module;
      try { delete G.__mandi_module; } catch (e) {}
      if (m === null || (typeof m !== 'object' && typeof m !== 'function')) {
        return 'the bundle did not assign a module to globalThis.__mandi_module (build it with esbuild format "iife", globalName "__mandi_module")';
      }
      const def = m.default !== undefined ? m.default : m;
      if (def === null || (typeof def !== 'object' && typeof def !== 'function')) return 'the module definition is not an object';
      const o = def.operations;
      const e = def.events;
      if (o !== undefined && (o === null || typeof o !== 'object')) return '"operations" must be an object of handler functions';
      if (e !== undefined && (e === null || typeof e !== 'object')) return '"events" must be an object of handler functions';
      operations = o === undefined ? null : o;
      events = e === undefined ? null : e;
      return '';
    } catch (e) {
      return 'reading the module definition failed: ' + parse(errorJson(e)).message;
    }
  }

  return function receive(batch) {
    if (batch === 'init') return init();
    const messages = parse(batch);
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i];
      const tag = m[0];
      // One message failing (guest code may have broken something it relies on) must not drop the rest.
      try {
        if (tag === 'c') start(m[1], m[2], m[3], m[4], m[5], m[6], m[7]);
        else if (tag === 'r') reply(m[1], m[2], m[3]);
        else if (tag === 'x') retire(m[1]);
      } catch (e) {
        if (tag === 'c') send('["d",' + m[1] + ',0,' + errorJson(e) + ']');
      }
    }
  };
})`;
