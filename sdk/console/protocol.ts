/**
 * The messages between a console page (a module's browser bundle, in a sandboxed frame of no origin)
 * and the web console that frames it (docs/decisions/console-pages.md). The console is the only side
 * holding the session: it performs a page's `api` call only for the module's own routes and joins only
 * the module's own channels, and tells the page what it refused. Every message carries `mandi`.
 */
export const PAGE_MESSAGE = 'mandi.console-page';

/** What the page is told at start (the frame's `__mandiConsolePage`). */
export interface PageContext {
  /** The module's alias. */
  module: string;
  /** The page's path (`console.pages[].path`) and what follows it in the console's URL ("" or "/…"). */
  path: string;
  sub: string;
  tenant: { id: string; name: string };
  user: { id: number; name: string };
}

/** Page → console. */
export type PageRequest =
  | { mandi: typeof PAGE_MESSAGE; type: 'api'; id: number; method: string; path: string; body?: unknown }
  | { mandi: typeof PAGE_MESSAGE; type: 'subscribe'; id: number; channel: string }
  | { mandi: typeof PAGE_MESSAGE; type: 'unsubscribe'; channel: string }
  | { mandi: typeof PAGE_MESSAGE; type: 'navigate'; sub: string };

/** Console → page. A refused call answers status 403 with code CONSOLE_PAGE_REFUSED and never reaches the platform. */
export type PageAnswer =
  | { mandi: typeof PAGE_MESSAGE; type: 'init'; code: string; context: PageContext }
  | { mandi: typeof PAGE_MESSAGE; type: 'answer'; id: number; status: number; body: unknown }
  | { mandi: typeof PAGE_MESSAGE; type: 'subscribed'; id: number; ok: boolean; error?: string }
  | { mandi: typeof PAGE_MESSAGE; type: 'event'; channel: string; event: string; data: unknown };

export const REFUSED_CODE = 'CONSOLE_PAGE_REFUSED';
