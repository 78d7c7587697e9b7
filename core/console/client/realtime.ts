/**
 * The signed-in user's socket (core/kernel/drivers/realtime.ts): same origin, the bearer token and tenant
 * in the handshake. It is in the user's `private-user.<id>` channel from the start, which carries
 * `.notification.created` (spec 1, Events) and `.module.operation` for operations the user asked for.
 */
import { io, type Socket } from 'socket.io-client';
import type { Session } from './session';

let socket: Socket | undefined;
let owner: string | undefined;

export function socketFor(session: Session): Socket {
  const key = `${session.tenant}:${session.token}`;
  if (socket && owner === key) return socket;
  socket?.disconnect();
  owner = key;
  socket = io({ auth: { token: session.token, tenant: session.tenant }, transports: ['websocket'] });
  return socket;
}

export function closeSocket(): void {
  socket?.disconnect();
  socket = undefined;
  owner = undefined;
}
