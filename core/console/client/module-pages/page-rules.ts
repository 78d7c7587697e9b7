/**
 * What the console does for a module's console page (docs/decisions/console-pages.md): the page's
 * calls reach only its module's own routes (http.routes, under /api/v1), its subscriptions only its
 * module's own channels. The console holds the session, so this check is the boundary: a path is
 * accepted only in a plain form that the browser sends unchanged and the platform routes to that
 * module (module routes start with a fixed word that is no platform area, sdk/manifest/route-overlap.ts).
 */
import { channelMatches } from '../../../../sdk/manifest/channel-patterns';
import type { ModulePageEntry } from '../../page-entry';

export type { ModulePageEntry } from '../../page-entry';

export const pageHref = (p: Pick<ModulePageEntry, 'module' | 'path'>) => `/p/${p.module}/${p.path}`;

/** One path segment the platform routes as written: no encoding tricks, no "." or ".." segment. */
const SEGMENT = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]*$/;
const QUERY = /^[A-Za-z0-9._~\-=&%+,:@]*$/;
/** A console page's own sub-path (`navigate`): plain segments only, so the URL stays the page's. */
export const SUB_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*$/;

/** Why the call is refused, or undefined when it goes to one of the module's own routes. */
export function callRefusal(page: ModulePageEntry, method: unknown, path: unknown): string | undefined {
  if (typeof method !== 'string' || typeof path !== 'string') return 'a call names a method and a path';
  const [pathname, query = '', ...more] = path.split('?');
  if (more.length > 0 || !QUERY.test(query)) return `${path} has a query the console does not pass on`;
  const segments = pathname.split('/');
  if (segments[0] !== '' || segments.length < 2 || !segments.slice(1).every((s) => SEGMENT.test(s))) {
    return `${path} is not a plain path of the module's routes (e.g. "/${page.module.replace(/_/g, '-')}/items")`;
  }
  const parts = segments.slice(1);
  const own = page.routes.some((r) => r.method === method.toUpperCase() && matches(r.path, parts));
  return own ? undefined : `${method} ${pathname} is not a route of the module ${page.module}: a console page calls only its own module's routes`;
}

/** Whether a route pattern (`/live-chat/conversations/:id`) takes the segments, as the platform matches (case-insensitively). */
function matches(pattern: string, parts: string[]): boolean {
  const want = pattern.split('/').slice(1);
  return want.length === parts.length && want.every((w, i) => w.startsWith(':') || w.toLowerCase() === parts[i].toLowerCase());
}

/** Why the subscription is refused, or undefined for one of the module's own channels. */
export function channelRefusal(page: ModulePageEntry, channel: unknown): string | undefined {
  if (typeof channel !== 'string') return 'a subscription names a channel';
  return page.channels.some((p) => channelMatches(p, channel)) ? undefined : `${channel} is not a channel of the module ${page.module}`;
}
