/**
 * The web console, served by the platform at `/` (same origin as the API, which stays under /api):
 * the page for `/`, `/m/*` (spec 1's web route for server-driven screens) and `/admin/*`, and its
 * bundled assets under /console/. The page carries no inline script: what the script needs (the
 * tenant named by the subdomain, the environment) is in data attributes, so the CSP allows scripts
 * from 'self' only. Images may come from https (module data such as product photos); frames come
 * from 'self' only: a module page or the console pages' frame (/console/page-frame), each itself a
 * sandboxed document of no origin.
 */
import express, { type Router } from 'express';
import { PAGE_MESSAGE } from '../../sdk/console/protocol';
import { escapeHtml } from '../kernel/escape-html';
import { MODULE_PAGE_CSP } from '../kernel/http/api-answer-headers';
import type { Logger } from '../kernel/logger';
import { tenantKeyOf } from '../kernel/tenancy/resolve-tenant';
import { consoleAssets, CONSOLE_ASSETS_DIR } from './assets';

export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; connect-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export interface ConsoleOptions {
  rootDomain: string;
  env: string;
  logger: Logger;
}

export function consolePage(data: { tenant: string; env: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mandi</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/app.css">
<script type="module" src="/console/app.js"></script>
</head>
<body>
<div id="app" data-tenant="${escapeHtml(data.tenant)}" data-env="${escapeHtml(data.env)}"></div>
</body>
</html>
`;
}

/**
 * The frame a module's console page runs in (docs/decisions/console-pages.md), under the module page
 * policy (sandboxed to no origin, its inline script only, nothing loaded or sent). Its one script
 * waits for the console (its parent, and only it) to hand over the page's bundle and context, once,
 * and runs the bundle as an inline script.
 */
export const PAGE_FRAME = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.45 system-ui,sans-serif;margin:0;padding:1rem;color:#1f2933}</style>
</head>
<body>
<div id="root"></div>
<script>
addEventListener('message', function start(e) {
  var m = e.data;
  if (e.source !== parent || !m || m.mandi !== '${PAGE_MESSAGE}' || m.type !== 'init' || typeof m.code !== 'string') return;
  removeEventListener('message', start);
  window.__mandiConsolePage = m.context;
  var s = document.createElement('script');
  s.textContent = m.code;
  document.body.appendChild(s);
});
</script>
</body>
</html>
`;

export function consoleRoutes(opts: ConsoleOptions): Router {
  const router = express.Router();
  // Bundled (when stale) as the platform starts, so the first visitor does not wait for esbuild.
  consoleAssets().catch((err: unknown) => opts.logger.error({ err }, 'The web console could not be bundled'));
  const page: express.RequestHandler = async (req, res) => {
    await consoleAssets();
    // Only a subdomain names the tenant here: a header is no part of a browser's page request.
    const tenant = req.get('x-tenant') ? '' : (tenantKeyOf(req, opts.rootDomain) ?? '');
    res.set({ 'Content-Security-Policy': CONSOLE_CSP, 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'same-origin' });
    res.type('html').send(consolePage({ tenant, env: opts.env }));
  };
  router.get(['/', '/m', '/m/*rest', '/admin', '/admin/*rest', '/p/*rest'], page);
  router.get('/console/page-frame', (_req, res) => {
    res.set({ 'Content-Security-Policy': MODULE_PAGE_CSP, 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' });
    res.type('html').send(PAGE_FRAME);
  });
  router.get('/console/:file', async (req, res, next) => {
    const file = req.params.file;
    if (!(await consoleAssets()).includes(file)) return next();
    res.set({ 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
    res.sendFile(file, { root: CONSOLE_ASSETS_DIR });
  });
  return router;
}
