/**
 * What each connected client is looking at, so a push banner can be left out while the user already
 * has that screen open (spec 1, Notifications: "the banner is suppressed when the action_url points to
 * the chat the user is viewing"). Clients report it over their socket:
 *   socket.emit('viewing', { path: '/live-chat/conversations/9' });   // or { path: null } when they leave
 * The path lives on the socket itself, so it vanishes with the connection, and with the Redis adapter
 * `fetchSockets` sees the sockets of every node.
 */
import type { Realtime } from '../../kernel/drivers';
import { roomOf, userChannel } from '../../kernel/drivers/realtime';
import { isRelativePath } from './send-input';

/** Same screen regardless of query string, fragment or a trailing slash. */
export function screenOf(path: string): string {
  const bare = path.split(/[?#]/, 1)[0];
  return bare.length > 1 ? bare.replace(/\/+$/, '') : bare;
}

export function trackViewing(realtime: Realtime): void {
  realtime.io.on('connection', (socket) => {
    socket.on('viewing', (report: unknown, ack?: unknown) => {
      const path = report && typeof report === 'object' ? (report as { path?: unknown }).path : report;
      const ok = path === null || path === undefined || (typeof path === 'string' && path.length <= 2048 && isRelativePath(path));
      if (ok) socket.data.viewing = typeof path === 'string' ? screenOf(path) : undefined;
      if (typeof ack === 'function') ack({ ok });
    });
  });
}

/** Whether any socket of the user (on any node) reports viewing the screen of `path`. */
export async function isViewing(realtime: Realtime, tenantId: string, userId: number, path: string): Promise<boolean> {
  const sockets = await realtime.io.in(roomOf(tenantId, userChannel(userId))).fetchSockets();
  const screen = screenOf(path);
  return sockets.some((s) => (s.data as { viewing?: string }).viewing === screen);
}
