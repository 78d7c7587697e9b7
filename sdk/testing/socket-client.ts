/**
 * A real socket.io client for a module's realtime tests (DESIGN.md, realtime channels): it connects to
 * a test host with any handshake auth (a member's `{ token, tenant }`, a visitor's `{ grant, tenant }`),
 * records every event it receives, waits for one, and subscribes to channels as a browser would.
 */
import { io as connect, type Socket } from 'socket.io-client';

export interface Received {
  event: string;
  payload: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
  channel: unknown;
}

export interface SocketClient {
  socket: Socket;
  received: Received[];
  /** Resolves with the first event (already received or still to come) that matches. */
  next(event: string, match?: (payload: any) => boolean, timeoutMs?: number): Promise<Received>; // eslint-disable-line @typescript-eslint/no-explicit-any
  subscribe(channel: string): Promise<{ ok: boolean; error?: string }>;
  close(): void;
}

const open: Socket[] = [];

function dial(url: string, auth: Record<string, unknown>): Socket {
  const socket = connect(url, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
  open.push(socket);
  return socket;
}

/** A connected client of the platform at url (a test host's `url`); rejects when the handshake is refused. */
export async function socketClient(url: string, auth: Record<string, unknown>): Promise<SocketClient> {
  const socket = dial(url, auth);
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
  const next: SocketClient['next'] = (event, match = () => true, timeoutMs = 10_000) =>
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
export function connectError(url: string, auth: Record<string, unknown>): Promise<string | undefined> {
  const socket = dial(url, auth);
  return new Promise((resolve) => {
    socket.once('connect', () => resolve(undefined));
    socket.once('connect_error', (err) => resolve(err.message));
  });
}

/** Disconnects every client opened so far (in afterAll). */
export function closeSockets(): void {
  for (const s of open.splice(0)) s.disconnect();
}
