/**
 * The `host` object a module's code receives in its handler context: the only bridge out of the
 * sandbox. Everything crosses as a copy; all functions are async except log and now.
 */
import type { Db } from './db';

export interface HostLog {
  debug(message: string, data?: unknown): void;
  info(message: string, data?: unknown): void;
  warn(message: string, data?: unknown): void;
  error(message: string, data?: unknown): void;
}

export interface FetchInit {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  headers?: Record<string, string>;
  /**
   * Request body: text (JSON.stringify objects yourself and set content-type); bytes (a Uint8Array,
   * another typed array or an ArrayBuffer: sent as they are, e.g. raw audio); or a multipart form
   * the host assembles (`FetchMultipart`, e.g. a file upload to a transcription API). Bytes cross
   * beside the request, not as JSON; over 26 MB a body is refused with FETCH_BODY_TOO_LARGE.
   */
  body?: string | Uint8Array | ArrayBufferView | ArrayBuffer | FetchMultipart;
  /**
   * Give up after this many ms (until the headers, then between pieces of the body) instead of the
   * host's 30 s, never longer: e.g. to leave time for a fallback within the call's own limit.
   */
  timeout_ms?: number;
  /**
   * Answer as soon as the headers arrive, with the body as a reader (`StreamingFetchResponse`):
   * e.g. a model's server-sent events, forwarded as they come. Bounded by the host: 16 MB and
   * 5 minutes per body, 4 open per call and 16 per tenant; closed when the call ends.
   */
  stream?: boolean;
  /**
   * Instead of `body`: the body as these parts joined, each `{upload_base64: id}` being an upload
   * your route received (`upload` in the route) as base64, read by the host: e.g. a 25 MB
   * recording inside a speech vendor's JSON, which would not fit through the sandbox inline. At most
   * 16 parts and 40 MB in all.
   */
  body_parts?: Array<string | { upload_base64: string }>;
}

/**
 * A `multipart/form-data` body: text fields and files (at most 16 parts). The host picks the
 * boundary and sets content-type; `filename` defaults to the part's name, `content_type` to
 * application/octet-stream.
 */
export interface FetchMultipart {
  multipart: Array<{ name: string; value: string | Uint8Array | { bytes: Uint8Array | ArrayBuffer; filename?: string; content_type?: string } }>;
}

/** The answer of a `response: 'bytes'` fetch. */
export interface BytesFetchResponse {
  status: number;
  ok: boolean;
  headers: Record<string, string>;
  /** The whole body. */
  bytes: Uint8Array;
  /** '' for a success; an error status's body as text (its first 64 KB), to read the vendor's reason. */
  body: string;
  json<T = unknown>(): T;
  text(): string;
}

export interface FetchResponse {
  status: number;
  headers: Record<string, string>;
  /** The response body as text. */
  body: string;
  /** The body parsed as JSON. */
  json<T = unknown>(): Promise<T>;
}

/**
 * A streamed body: `read()` resolves with the next piece of text as it arrives (`done` at the end);
 * `for await (const piece of res.body)` does the same and cancels when the loop is left early.
 * The host reads from the server only when asked, so a module that stops reading holds the server
 * back instead of the host buffering for it. Rejects with FETCH_FAILED past a limit.
 */
export interface FetchBodyReader extends AsyncIterable<string> {
  read(): Promise<{ done: false; value: string } | { done: true; value: undefined }>;
  /** Drops the rest of the body and closes the connection. */
  cancel(): Promise<void>;
}

export interface StreamingFetchResponse {
  status: number;
  ok: boolean;
  headers: Record<string, string>;
  body: FetchBodyReader;
}

export interface Host {
  /**
   * Calls a bus operation: one listed in the manifest's api.consumes, a public core operation, or the
   * module's own. Rejects with a structured error {code, message, details} when refused or failed.
   */
  call<O = unknown, I = unknown>(operation: string, input?: I): Promise<O>;
  /** The module's data in the current tenant. */
  db: Db;
  /** Publishes an event (declared in events.publishes); subscribers get it at least once. */
  emit<P = unknown>(event: string, payload?: P): Promise<void>;
  log: HostLog;
  /** Current time in ms since the epoch, from the platform clock (settable in tests). */
  now(): number;
  /** HTTP request to an origin the tenant configured (e.g. an AI provider); others are refused. */
  fetch(url: string, init: FetchInit & { stream: true }): Promise<StreamingFetchResponse>;
  /** `response: 'bytes'`: the answer's body as a Uint8Array (`BytesFetchResponse`), e.g. synthesized audio; at most 8 MB. */
  fetch(url: string, init: FetchInit & { stream?: false; response: 'bytes' }): Promise<BytesFetchResponse>;
  fetch(url: string, init?: FetchInit & { stream?: false }): Promise<FetchResponse>;
  /**
   * Evaluates a JavaScript expression in a context of its own, made for it and thrown away after it
   * (sandbox/README.md): the language's built-ins and nothing else, no `host`, none of this module's
   * globals. Each input is a variable of the expression holding a JSON copy. Resolves with a JSON
   * copy of its value; rejects with EVALUATION_ERROR when it throws or does not parse. The call's
   * time and the module's memory limit bound it.
   */
  evaluate<R = unknown>(expression: string, inputs?: Record<string, unknown>): Promise<R>;
}
