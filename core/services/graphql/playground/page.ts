/**
 * GET /graphql/playground: the HTML around GraphiQL (client/main.ts, bundled by assets.ts and served
 * from `assets`, this platform's /graphql/playground/). No inline script: what the script needs is
 * in data attributes, so the CSP allows scripts and workers from 'self' only. Styles allow
 * 'unsafe-inline' because Monaco and GraphiQL set style attributes and add <style> elements at run
 * time without a nonce; nothing the page embeds is markup from a user (every value is escaped). Fonts
 * allow data: URLs, which GraphiQL's stylesheet embeds its typefaces as.
 */
import { escapeHtml } from '../../../kernel/escape-html';

export interface PlaygroundInfo {
  /** URL of this platform's /graphql/playground/ folder, with the trailing slash. */
  assets: string;
  endpoint: string;
  schemaUrl: string;
  tenant: string;
  tenantName: string;
  ring: string;
  fingerprint: string;
}

export const PLAYGROUND_CSP =
  "default-src 'none'; script-src 'self'; worker-src 'self'; style-src 'self' 'unsafe-inline'; font-src 'self' data:; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function playgroundPage(info: PlaygroundInfo): string {
  const { assets, ...data } = info;
  const attrs = Object.entries(data).map(([k, v]) => `data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${escapeHtml(v)}"`).join(' ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphQL playground · ${escapeHtml(info.tenantName)}</title>
<link rel="stylesheet" href="${escapeHtml(assets)}app.css">
<script type="module" src="${escapeHtml(assets)}app.js"></script>
</head>
<body>
<div id="playground" ${attrs}></div>
</body>
</html>
`;
}
