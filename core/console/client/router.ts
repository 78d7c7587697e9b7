/** A small history router: the console's paths are real URLs the platform serves the page for. */
import { useEffect, useState } from 'preact/hooks';

const listeners = new Set<() => void>();

export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  for (const l of listeners) l();
  window.scrollTo(0, 0);
}

window.addEventListener('popstate', () => {
  for (const l of listeners) l();
});

export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const l = () => setTick((t) => t + 1);
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

/**
 * Whether `href` is a page of the console: this origin, outside /api (resolved as the browser would,
 * escapes included). The API shares the origin and this tab holds the session, so an API answer
 * (a module route's above all) is never opened here (DESIGN, wave 3).
 */
export function isConsolePath(href: string): boolean {
  try {
    const url = new URL(href, location.href);
    return url.origin === location.origin && !/^\/api(?:\/|$)/i.test(decodeURIComponent(url.pathname));
  } catch {
    return false;
  }
}

/** Same-origin links go through the router, never to /api; modified clicks (new tab) and other origins are the browser's. */
export function onLinkClick(e: MouseEvent): void {
  const a = (e.target as HTMLElement).closest('a');
  if (!a || a.target || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  e.preventDefault();
  if (isConsolePath(a.href)) navigate(url.pathname + url.search);
}
