/**
 * Headers on every answer under /api: the API, and the module routes inside it (authenticated under
 * /api/v1, public under /api/<prefix>), share the web console's origin, where the console keeps its
 * session (DESIGN, wave 3: module answers never run as active content on the console's origin). An
 * answer opened as a page is therefore a sandboxed document with no script, style, image or frame of
 * any origin (`sandbox; default-src 'none'`), and never sniffed into a type it was not sent as
 * (`nosniff`). Fetches, EventSource and script includes (a widget's embed script) are unaffected:
 * a CSP governs documents, not the resources they load. A route answering a page of its own (the
 * GraphQL playground) sets its own policy over this one.
 */
import type { RequestHandler } from 'express';

export const API_ANSWER_CSP = "sandbox; default-src 'none'";

export const apiAnswerHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', API_ANSWER_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
};
