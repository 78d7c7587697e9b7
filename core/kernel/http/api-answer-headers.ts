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

/**
 * A module page (route response kind `page`, spec 1 Client behaviour: the console's fallback when no
 * screen is registered): its own inline script and style run, in a sandbox of no origin, so the
 * console's sessionStorage, its session and every same-origin API are out of its reach, framed or
 * opened in a tab alike; it loads and sends nothing (no connect, form or frame source), and only the
 * console may frame it.
 */
export const MODULE_PAGE_CSP =
  "sandbox allow-scripts; default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'; frame-ancestors 'self'";

export const apiAnswerHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', API_ANSWER_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
};
