/**
 * The methods a router serves at a path, read from its route layers. The 404 handler uses them to
 * answer a known path asked with the wrong method as 405 with `Allow` (RFC 9110 15.5.6) instead of
 * "no route", so a client learns that the path exists and what it takes.
 */
import type { Router } from 'express';

interface RouteLayer {
  route?: { _methods(): string[] };
  match(path: string): unknown;
}

export function allowedMethods(router: Router, path: string): string[] {
  const found = new Set<string>();
  for (const layer of router.stack as unknown as RouteLayer[]) {
    if (!layer.route || !layer.match(path)) continue;
    for (const m of layer.route._methods()) if (m !== '*') found.add(m);
  }
  return [...found].sort();
}
