/**
 * Cross-origin access (not shown in the spec). The API authenticates with bearer tokens and sets no
 * cookies, so a page on another origin can only act with a token it already holds: letting any
 * origin call is the default, as public token APIs do, and it is what browser clients on tenants'
 * own sites (the web client, an embedded chat widget) need. CORS_ORIGINS narrows it to a list, or
 * `none` turns it off. Credentials (cookies) are never allowed cross-origin.
 */
import cors from 'cors';
import type { RequestHandler } from 'express';

/** `*`: any origin; a list: exactly those origins; false: no CORS headers at all. */
export type CorsOrigins = '*' | string[] | false;

/** Request headers a browser may send cross-origin (spec 1 and 3, Authentication). */
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'X-Tenant', 'X-Effective-Tenant', 'X-Request-Id'];
/** Response headers a cross-origin script may read. */
export const EXPOSED_HEADERS = ['X-Request-Id', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Content-Disposition', 'ETag', 'Allow', 'X-Catalog-Key'];

/** Parses CORS_ORIGINS: unset or `*` → any; `none` (or empty) → off; else comma-separated origins. */
export function parseCorsOrigins(raw: string | undefined): CorsOrigins {
  if (raw === undefined || raw.trim() === '*') return '*';
  const list = raw.split(',').map((o) => o.trim().replace(/\/+$/, '')).filter(Boolean);
  if (!list.length || (list.length === 1 && list[0]!.toLowerCase() === 'none')) return false;
  for (const origin of list) {
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      /* reported below */
    }
    if (!url || url.origin !== origin) throw new Error(`Environment variable CORS_ORIGINS must be *, none, or comma-separated origins (scheme://host[:port], no path), got "${origin}"`);
  }
  return list;
}

/** Answers preflights (204) and adds the CORS headers to every answer, errors included. */
export function corsMiddleware(origins: CorsOrigins): RequestHandler | undefined {
  if (origins === false) return undefined;
  return cors({
    origin: origins === '*' ? '*' : origins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    credentials: false,
    maxAge: 600,
    optionsSuccessStatus: 204,
  });
}
