/**
 * Writes what a module route's operation answered, as the route declares (`response` in its
 * manifest entry): JSON (the default), text of a content type, bytes of a content type, an HTML page
 * sandboxed to no origin, or a stream the handler writes while the request is open (response-stream.ts). Shared by every kind of
 * module route, so each answers the same way.
 *
 * Bytes cross the sandbox's JSON wire as `{base64}`: JSON has no bytes, a bare string would be
 * mistaken for text, and an array of numbers costs several times the size; base64 costs a third
 * more and decodes exactly. The object leaves room for more fields without breaking handlers: a
 * download's `filename`.
 */
import type { Response } from 'express';
import type { HttpRoute, RouteResponse } from '../../../sdk/manifest';
import type { CallStream } from '../bus/types';
import { MODULE_PAGE_CSP } from '../http/api-answer-headers';
import { defineErrors } from '../errors';
import { setAnswerContentType, setAttachmentDisposition } from './answer-content-type';
import { ResponseStream, withCharset } from './response-stream';
import type { StreamSlots } from './stream-slots';

/** A route's status on success when it declares none: 201 for a POST (it created something), else 200. */
export const successStatus = (route: HttpRoute, method: string): number => route.success_status ?? (method === 'POST' ? 201 : 200);

/** A stream's time limit when the route declares none (the schema allows 1–600 s). */
const DEFAULT_STREAM_TIMEOUT_S = 60;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const routeResponseErrors = defineErrors('module routes', {
  /** The handler answered something its route cannot send: the module's fault, so a 502. */
  badResult: {
    code: 'MODULE_BAD_RESPONSE', status: 502,
    doc: "An operation answered something its route's declared response kind cannot send (a file, a redirect, a page): a bug in the module.",
    message: (route: HttpRoute, expected: string) =>
      `Operation "${route.operation}" serves ${route.method} ${route.path}, whose response is ${route.response!.kind}: it must return ${expected}.`,
    details: (route: HttpRoute) => ({ operation: route.operation, kind: route.response!.kind }),
  },
});

/** Sends a JSON, text, bytes or page result with `status`. */
export function sendRouteResult(res: Response, route: HttpRoute, status: number, result: unknown): void {
  const response = route.response;
  if (!response || response.kind === 'json') {
    res.status(status).json(result === undefined ? null : result);
    return;
  }
  if (response.kind === 'page') {
    if (typeof result !== 'string') throw routeResponseErrors.badResult(route, 'an HTML string');
    res.status(status).set({ 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': MODULE_PAGE_CSP });
    res.send(result);
    return;
  }
  const type = response.content_type!;
  if (response.kind === 'text') {
    if (typeof result !== 'string') throw routeResponseErrors.badResult(route, 'a string');
    setAnswerContentType(res.status(status), withCharset(type));
    if (response.disposition) setAttachmentDisposition(res);
    res.send(result);
    return;
  }
  const { base64, filename } = (result ?? {}) as { base64?: unknown; filename?: unknown };
  if (typeof base64 !== 'string' || !BASE64.test(base64)) throw routeResponseErrors.badResult(route, '{base64: "<the bytes in base64>"}');
  setAnswerContentType(res.status(status), type);
  if (response.disposition) setAttachmentDisposition(res, typeof filename === 'string' ? filename : undefined);
  res.send(Buffer.from(base64, 'base64'));
}

/**
 * Serves a streamed route: `call` runs the operation with the stream's sink and time limit. An
 * error before the first piece is thrown, for the error handler's JSON answer; after it, the stream
 * ends as response-stream.ts says.
 */
export async function streamRouteResult(
  res: Response,
  response: RouteResponse,
  call: (stream: CallStream) => Promise<unknown>,
): Promise<void> {
  const type = response.content_type ?? 'text/event-stream';
  const sink = new ResponseStream(res, type.startsWith('text/event-stream') ? 'sse' : 'text', type);
  try {
    await call({ sink, timeoutMs: (response.timeout_s ?? DEFAULT_STREAM_TIMEOUT_S) * 1000 });
  } catch (err) {
    sink.end(err);
    if (!sink.started && !sink.left) throw err;
    return;
  }
  sink.end();
}

/**
 * Answers a module route, authenticated or public, the one way: a streamed route holds one of the
 * tenant's stream slots while its call runs; any other route sends its result with `status`.
 * `call` runs the route's operation, with the stream's sink when there is one.
 */
export async function answerRoute(
  res: Response,
  route: HttpRoute,
  target: { tenantId: string; status: number; streams: StreamSlots },
  call: (stream?: CallStream) => Promise<unknown>,
): Promise<void> {
  if (route.response?.kind === 'stream') {
    const release = target.streams.take(target.tenantId);
    try {
      return await streamRouteResult(res, route.response, call);
    } finally {
      release();
    }
  }
  sendRouteResult(res, route, target.status, await call());
}
