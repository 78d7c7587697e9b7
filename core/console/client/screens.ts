/**
 * The tenant's registered screens (GET /mobile/screens: ids, titles, icons, routes), asked once per
 * session and shared by the navigation and the screen renderer, so a screen's first render waits for
 * one list, not two. Only this list is kept: definitions are always asked fresh (spec 1, Client
 * behaviour). A module install, upgrade, rollback or uninstall drops it (`forgetScreens`).
 */
import { api } from './api';
import { currentSession } from './session';

export interface ScreenEntry { id: string; title: string; icon?: string; route?: string; navigation?: boolean }

let cached: { token: string; list: Promise<ScreenEntry[]>; value?: ScreenEntry[] } | undefined;
const listeners = new Set<() => void>();

export function screenList(): Promise<ScreenEntry[]> {
  const token = currentSession()?.token ?? '';
  if (!cached || cached.token !== token) {
    const entry: NonNullable<typeof cached> = { token, list: api<{ data: ScreenEntry[] }>('/mobile/screens').then((r) => (entry.value = r.data)) };
    // A failed list is not kept: the next screen asks again.
    entry.list.catch(() => cached === entry && (cached = undefined));
    cached = entry;
  }
  return cached.list;
}

/** The list if it has already arrived this session (no waiting). */
export function knownScreens(): ScreenEntry[] | undefined {
  return cached && cached.token === (currentSession()?.token ?? '') ? cached.value : undefined;
}

export function forgetScreens(): void {
  cached = undefined;
  for (const l of listeners) l();
}

export function onScreensChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
