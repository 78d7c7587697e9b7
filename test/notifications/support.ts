/**
 * Shared by the notification suites: real socket.io clients that record what they receive, a way to
 * add a public route (outside /api/v1, so outside tenant context, like the widget and webhook routes
 * of spec 2) to a running platform, and sending through the bus as a module or the core would.
 */
import type { RequestHandler } from 'express';
import { socketClient as connectWith, type SocketClient } from '../../sdk/testing';
import type { TestPlatform } from '../support/test-platform';

export { closeSockets, connectError, socketClient as socketClientWith } from '../../sdk/testing';
export type Client = SocketClient;

export function socketClient(url: string, token: string, tenant: string): Promise<Client> {
  return connectWith(url, { token, tenant });
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
