/**
 * Who is signed in, kept in sessionStorage (one browser tab's session, gone when the tab closes) and
 * never in a cookie: the API is bearer-only, so nothing the browser sends on its own authenticates.
 * The tenant is the one the page was served for (its subdomain) or the one picked at sign-in.
 */
export interface Session {
  token: string;
  tenant: string;
  user: { id: number; name?: string; email?: string };
}

const KEY = 'mandi.console.session';
const listeners = new Set<() => void>();

export function currentSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

export function setSession(session: Session | null): void {
  if (session) sessionStorage.setItem(KEY, JSON.stringify(session));
  else sessionStorage.removeItem(KEY);
  for (const l of listeners) l();
}

export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
