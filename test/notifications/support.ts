/**
 * Shared by the notification suites: real socket.io clients that record what they receive, a way to
 * add a public route (outside /api/v1, so outside tenant context, like the widget and webhook routes
 * of spec 2) to a running platform, and sending through the bus as a module or the core would.
 */
import type { RequestHandler } from 'express';
import { io as connect, type Socket } from 'socket.io-client';
import type { TestPlatform } from '../support/test-platform';

export interface Received {
  event: string;
  payload: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
  channel: unknown;
}

export interface Client {
  socket: Socket;
  received: Received[];
  /** Resolves with the first event (already received or still to come) that matches. */
  next(event: string, match?: (payload: any) => boolean, timeoutMs?: number): Promise<Received>; // eslint-disable-line @typescript-eslint/no-explicit-any
  subscribe(channel: string): Promise<{ ok: boolean; error?: string }>;
  close(): void;
}

const open: Socket[] = [];

export function socketClient(url: string, token: string, tenant: string): Promise<Client> {
  return socketClientWith(url, { token, tenant });
}

/** A client with any handshake `auth`, e.g. a visitor's `{ grant, tenant }`. */
export async function socketClientWith(url: string, auth: Record<string, unknown>): Promise<Client> {
  const socket = connect(url, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
  open.push(socket);
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  socket.onAny((event: string, payload: unknown, meta?: { channel?: unknown }) => {
    received.push({ event, payload, channel: meta?.channel });
    for (const w of waiters.splice(0)) w();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  const next: Client['next'] = (event, match = () => true, timeoutMs = 10_000) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms; got ${JSON.stringify(received.map((r) => r.event))}`)), timeoutMs);
      const look = () => {
        const hit = received.find((r) => r.event === event && match(r.payload));
        if (hit) {
          clearTimeout(timer);
          resolve(hit);
        } else waiters.push(look);
      };
      look();
    });
  return {
    socket,
    received,
    next,
    subscribe: (channel) => socket.timeout(5000).emitWithAck('subscribe', channel),
    close: () => socket.disconnect(),
  };
}

/** A refused connection's error message, or undefined when it connected. */
export async function connectError(url: string, auth: Record<string, unknown>): Promise<string | undefined> {
  const socket = connect(url, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
  open.push(socket);
  return new Promise((resolve) => {
    socket.once('connect', () => resolve(undefined));
    socket.once('connect_error', (err) => resolve(err.message));
  });
}

export function closeSockets(): void {
  for (const s of open.splice(0)) s.disconnect();
}

/** Mounts a route before the platform's 404 handler, outside /api/v1 (no tenant resolution, no auth). */
export function addPublicRoute(tp: TestPlatform, method: 'post' | 'get', path: string, handler: RequestHandler): void {
  const app = tp.platform.app as unknown as { router: { stack: { name?: string }[] } } & Record<string, (p: string, h: RequestHandler) => void>;
  app[method](path, handler);
  const stack = app.router.stack;
  const added = stack.pop()!;
  // Express keeps layers in order; the one we added must come before the catch-all 404 handler.
  const notFound = stack.findIndex((l) => l.name === 'notFoundRoute');
  stack.splice(notFound === -1 ? stack.length : notFound, 0, added);
}

/** Calls notifications.send as a core caller would, for a tenant and nobody in particular. */
export function sendAsCore(tp: TestPlatform, tenantId: string, input: Record<string, unknown>) {
  return tp.platform.kernel.bus.call({ kind: 'core', name: 'test' }, 'notifications.send', input, { tenantId, user: null }) as Promise<{
    count: number;
    notifications: Array<{ id: string; user_id: number } & Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  }>;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
