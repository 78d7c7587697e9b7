/**
 * sdk/console: what a module's console page imports (`console.pages[].entry`, bundled for the
 * browser by `mandi module build`). The page runs in a sandboxed frame of no origin: it holds no
 * session and can fetch nothing itself. It asks the console, which frames it, over postMessage:
 * `api` calls the module's own http.routes with the user's session, `subscribe` follows the module's
 * own realtime channels. Anything else is refused by the console (docs/decisions/console-pages.md).
 */
import { PAGE_MESSAGE, REFUSED_CODE, type PageAnswer, type PageContext, type PageRequest } from './protocol';

export { REFUSED_CODE, type PageContext } from './protocol';

/** A refused or failed call: the platform's answer (status, `{message, code, errors}`), or the console's refusal (403 CONSOLE_PAGE_REFUSED). */
export class ConsoleApiError extends Error {
  readonly code?: string;
  readonly errors?: unknown;
  constructor(readonly status: number, readonly body: unknown) {
    const b = (body && typeof body === 'object' ? body : {}) as { message?: unknown; code?: unknown; errors?: unknown };
    super(typeof b.message === 'string' ? b.message : `${status}`);
    this.name = 'ConsoleApiError';
    this.code = typeof b.code === 'string' ? b.code : undefined;
    this.errors = b.errors;
  }
}

interface PageWindow {
  parent: { postMessage(message: PageRequest, targetOrigin: string): void };
  addEventListener(type: 'message', listener: (e: { source: unknown; data: unknown }) => void): void;
  __mandiConsolePage?: PageContext;
}

const win = globalThis as unknown as PageWindow;
const pending = new Map<number, { resolve(value: PageAnswer): void }>();
const listeners = new Map<string, Set<(event: string, data: unknown) => void>>();
let nextId = 1;

win.addEventListener('message', (e) => {
  // Only the console (the frame's parent) answers; a message from anywhere else is ignored.
  if (e.source !== win.parent) return;
  const msg = e.data as PageAnswer;
  if (!msg || msg.mandi !== PAGE_MESSAGE) return;
  if (msg.type === 'answer' || msg.type === 'subscribed') {
    pending.get(msg.id)?.resolve(msg);
    pending.delete(msg.id);
  } else if (msg.type === 'event') {
    for (const l of listeners.get(msg.channel) ?? []) l(msg.event, msg.data);
  }
});

type Ask = { type: 'api'; method: string; path: string; body?: unknown } | { type: 'subscribe'; channel: string };

function ask(request: Ask): Promise<PageAnswer> {
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, { resolve });
    // The console's origin is not this document's (it has none): '*' reaches the parent, which checks the source.
    win.parent.postMessage({ mandi: PAGE_MESSAGE, id, ...request } as PageRequest, '*');
  });
}

/** Who and where: the module, the page's path and sub-path, the tenant and the user. */
export function pageContext(): PageContext {
  const ctx = win.__mandiConsolePage;
  if (!ctx) throw new Error('sdk/console runs inside a console page (console.pages in module.json), framed by the web console');
  return ctx;
}

/**
 * Calls one of the module's own routes (http.routes, the path without /api/v1, query string
 * allowed) as the signed-in user; resolves with the JSON answer, rejects with a ConsoleApiError.
 */
export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const answer = await ask({ type: 'api', method: method.toUpperCase(), path, body });
  if (answer.type !== 'answer') throw new ConsoleApiError(0, { message: 'unexpected answer' });
  if (answer.status < 200 || answer.status >= 300) throw new ConsoleApiError(answer.status, answer.body);
  return answer.body as T;
}

/**
 * Follows one of the module's own realtime channels (realtime.channels, e.g.
 * `private-tenant.${pageContext().tenant.id}.live-chat`): onEvent gets each broadcast. Resolves,
 * once the platform admitted the socket, with the function that stops following; rejects when refused.
 */
export async function subscribe(channel: string, onEvent: (event: string, data: unknown) => void): Promise<() => void> {
  const answer = await ask({ type: 'subscribe', channel });
  if (answer.type !== 'subscribed' || !answer.ok) throw new ConsoleApiError(403, { message: answer.type === 'subscribed' ? answer.error : 'refused', code: REFUSED_CODE });
  const set = listeners.get(channel) ?? new Set();
  set.add(onEvent);
  listeners.set(channel, set);
  return () => {
    set.delete(onEvent);
    if (set.size === 0) {
      listeners.delete(channel);
      win.parent.postMessage({ mandi: PAGE_MESSAGE, type: 'unsubscribe', channel }, '*');
    }
  };
}

/** Moves the console's URL to another sub-path of this page (`/p/<module>/<path><sub>`), e.g. an opened record. */
export function navigate(sub: string): void {
  win.parent.postMessage({ mandi: PAGE_MESSAGE, type: 'navigate', sub }, '*');
}
