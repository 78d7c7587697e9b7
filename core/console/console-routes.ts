/**
 * The web console, served by the platform at `/` (same origin as the API, which stays under /api):
 * the page for `/`, `/m/*` (spec 1's web route for server-driven screens) and `/admin/*`, and its
 * bundled assets under /console/. The page carries no inline script: what the script needs (the
 * tenant named by the subdomain, the environment) is in data attributes, so the CSP allows scripts
 * from 'self' only. Images may come from https (module data such as product photos); frames come
 * from 'self' only: a module page, which is itself a sandboxed document of no origin.
 */
import express, { type Router } from 'express';
import { escapeHtml } from '../kernel/escape-html';
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
  router.get(['/', '/m', '/m/*rest', '/admin', '/admin/*rest'], page);
  router.get('/console/:file', async (req, res, next) => {
    const file = req.params.file;
    if (!(await consoleAssets()).includes(file)) return next();
    res.set({ 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
    res.sendFile(file, { root: CONSOLE_ASSETS_DIR });
  });
  return router;
}
