/**
 * Realtime: socket.io, created before the platform's HTTP server exists (parts broadcast from their
 * start) and served on it once it does (`serve`). With REDIS_URL the Redis adapter relays every
 * broadcast to all nodes, so a user connected to node B receives what node A sends.
 *
 * Channels are the spec's names (`private-user.7`, `private-tenant.abc12345.live-chat`,
 * `chat.conversation.9`); on the server each lives in the room `tenant:<tenantId>:<channel>`, and
 * the tenant always comes from the authenticated identity, so no socket can reach another tenant.
 *
 * Client convention (members):
 *   const socket = io(baseUrl, { auth: { token: '<access token>', tenant: '<tenant id or alias>' } });
 *   socket.on('connect_error', (err) => ...);       // err.message 'Unauthenticated.' when refused
 *   socket.on('.notification.created', (payload, meta) => ...);   // meta = { channel }
 * A connected socket is already in its own `private-user.<userId>` channel. Other channels:
 *   socket.emit('subscribe', 'private-tenant.abc12345.live-chat', (ack) => ...);  // ack {ok} | {ok:false, error}
 *   socket.emit('unsubscribe', 'chat.conversation.9');
 * Channels starting with `private-` need the caller's `authorize` hook to say yes; others are open to
 * any authenticated socket of the tenant unless `authorize` is given, which then decides for all
 * (and may say why not: its `{error}` is the ack's error).
 *
 * Visitors (anonymous sockets, spec 2 Events: the embedded widget) connect with
 * `auth: { grant: '<visitor grant>', tenant }` instead of a token; they have no user channel. An
 * identity with `expiresAt` (a visitor's grant) is disconnected when it expires, on the platform
 * clock's reading at connection: a grant is short-lived and the module that issued it decides whether
 * to issue another, so a socket never keeps receiving on a grant that has run out.
 *
 * An open socket keeps only the access its identity still has (spec 1, States and transitions: a
 * revoked session is over; likewise a member suspended or removed): `recheck` runs `authenticate` on the socket's handshake again and
 * `authorize` for each channel it is in, disconnecting a socket whose identity is refused now and
 * taking it off each channel it may no longer join. The platform calls it for the sockets an access
 * change touches, on every node (core/kernel/realtime/access-changes.ts), and for all of them every
 * `recheckEveryMs`, for what nobody announces (a token running out).
 */
import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import { Server, type ServerOptions, type Socket } from 'socket.io';
import type { Drivers } from './index';
import { closeRedisClient, createRedisClient } from './redis-connection';

/** A member (access token) or a visitor (a module's visitor grant), always of one tenant. */
export type RealtimeIdentity =
  | { tenantId: string; userId: string | number; tokenId?: string; expiresAt?: undefined }
  | { tenantId: string; visitor: { id: string; module: string; channels: readonly string[] }; expiresAt: number };

/** Who is connecting (from `handshake.auth.token` and `.tenant`), or null to refuse the connection. */
export type Authenticate = (handshake: Socket['handshake']) => Promise<RealtimeIdentity | null>;

/** May this identity join channel (beyond its own private user channel)? `{error}`: no, and why. */
export type Authorize = (identity: RealtimeIdentity, channel: string) => AuthorizeResult | Promise<AuthorizeResult>;
export type AuthorizeResult = boolean | { error: string };

export interface RealtimeOptions {
  authorize?: Authorize;
  /** The clock identities' `expiresAt` is read against (the platform clock); Date.now by default. */
  now?: () => number;
  /** How often every open socket is checked again (`recheck`); never when unset. */
  recheckEveryMs?: number;
  /** Passed to socket.io (path, cors, pingInterval...). */
  server?: Partial<ServerOptions>;
}

export interface Realtime {
  io: Server;
  /** Answers socket.io's requests and upgrades on server (before it listens). */
  serve(server: HttpServer): void;
  /**
   * Resolves once broadcasts from other nodes reach this node (the Redis adapter has subscribed);
   * at once without Redis. It waits for Redis to answer, so a boot that awaits it should bound the
   * wait if the node must come up while Redis is down.
   */
  ready(): Promise<void>;
  /** Sends event with payload to every socket in the tenant's channel, on every node (nothing once closing). */
  broadcast(tenantId: string, channel: string, event: string, payload: unknown): void;
  /**
   * Checks this node's sockets (those `which` selects) again as at connection and subscription: a
   * socket whose identity no longer authenticates is disconnected, one that may no longer join a
   * channel leaves it. Resolves when every selected socket has been checked.
   */
  recheck(which?: (identity: RealtimeIdentity) => boolean): Promise<void>;
  /** Disconnects this node's sockets and releases its Redis connections; the HTTP server stays open. */
  close(): Promise<void>;
}

const MAX_CHANNEL_LENGTH = 200;
/** Sockets checked at once by `recheck`: a pass over many sockets must not take every database connection. */
const RECHECK_CONCURRENCY = 8;

export const roomOf = (tenantId: string, channel: string) => `tenant:${tenantId}:${channel}`;
export const userChannel = (userId: string | number) => `private-user.${userId}`;

export function attachRealtime(server: HttpServer, drivers: Drivers, authenticate: Authenticate, options: RealtimeOptions = {}): Realtime {
  const realtime = createRealtime(drivers, authenticate, options);
  realtime.serve(server);
  return realtime;
}

export function createRealtime(drivers: Drivers, authenticate: Authenticate, options: RealtimeOptions = {}): Realtime {
  const logger = drivers.logger.child({ part: 'realtime' });
  const io = new Server(options.server);
  let served = false;

  let redis: { pub: Redis; sub: Redis } | undefined;
  if (drivers.redisUrl) {
    redis = {
      pub: createRedisClient(drivers.redisUrl, logger, { name: `${drivers.prefix}:io-pub` }),
      sub: createRedisClient(drivers.redisUrl, logger, { name: `${drivers.prefix}:io-sub`, subscriber: true }),
    };
    io.adapter(createAdapter(redis.pub, redis.sub, { key: `${drivers.prefix}:socket.io` }));
  }
  // The adapter has just sent its (P)SUBSCRIBEs on the subscriber connection; a PING sent after them
  // is answered after them, so its reply means they are active.
  const ready = redis ? redis.sub.ping().then(() => undefined) : Promise.resolve();
  ready.catch(() => {}); // a caller that never awaits ready() must not see an unhandled rejection

  io.use((socket, next) => {
    authenticate(socket.handshake).then(
      (identity) => {
        if (!identity) return next(unauthenticated());
        socket.data.identity = identity;
        next();
      },
      (err: unknown) => {
        logger.warn({ err }, 'realtime authentication failed');
        next(unauthenticated());
      },
    );
  });

  const ownChannel = (identity: RealtimeIdentity) => ('userId' in identity ? userChannel(identity.userId) : undefined);
  const mayJoin = async (identity: RealtimeIdentity, channel: string): Promise<AuthorizeResult> =>
    channel === ownChannel(identity) || (options.authorize ? await options.authorize(identity, channel) : !channel.startsWith('private-'));

  io.on('connection', (socket) => {
    const identity = socket.data.identity as RealtimeIdentity;
    const own = ownChannel(identity);
    if (own) void socket.join(roomOf(identity.tenantId, own));
    if (identity.expiresAt !== undefined) {
      const expiry = setTimeout(() => socket.disconnect(true), Math.max(0, identity.expiresAt - (options.now ?? Date.now)()));
      socket.once('disconnect', () => clearTimeout(expiry));
    }

    socket.on('subscribe', async (channel: unknown, ack?: unknown) => {
      const reply = typeof ack === 'function' ? (ack as (r: object) => void) : () => {};
      if (!isChannel(channel)) return reply({ ok: false, error: 'Invalid channel.' });
      try {
        const verdict = await mayJoin(identity, channel);
        if (verdict !== true) return reply({ ok: false, error: verdict === false ? 'Forbidden.' : verdict.error });
        await socket.join(roomOf(identity.tenantId, channel));
        reply({ ok: true });
      } catch (err) {
        logger.error({ err, channel }, 'realtime subscribe failed');
        reply({ ok: false, error: 'Subscription failed.' });
      }
    });

    socket.on('unsubscribe', async (channel: unknown, ack?: unknown) => {
      if (isChannel(channel)) await socket.leave(roomOf(identity.tenantId, channel));
      if (typeof ack === 'function') ack({ ok: true });
    });
  });

  const recheckSocket = async (socket: Socket): Promise<void> => {
    const identity = socket.data.identity as RealtimeIdentity;
    try {
      const current = await authenticate(socket.handshake);
      if (!current || whoIs(current) !== whoIs(identity)) return void socket.disconnect(true);
      const prefix = roomOf(identity.tenantId, '');
      for (const room of [...socket.rooms]) {
        if (!room.startsWith(prefix)) continue; // the socket's own id
        if ((await mayJoin(identity, room.slice(prefix.length))) !== true) await socket.leave(room);
      }
    } catch (err) {
      // A database that does not answer now must not drop every socket: the next check decides.
      logger.warn({ err, socket: socket.id }, 'realtime recheck failed');
    }
  };

  const recheck = async (which: (identity: RealtimeIdentity) => boolean = () => true): Promise<void> => {
    const selected = [...io.of('/').sockets.values()].filter((s) => which(s.data.identity as RealtimeIdentity));
    const worker = async () => {
      for (let s = selected.pop(); s; s = selected.pop()) await recheckSocket(s);
    };
    await Promise.all(Array.from({ length: Math.min(RECHECK_CONCURRENCY, selected.length) }, worker));
  };

  // One pass at a time: a slow pass is not overtaken by the next.
  let pass: Promise<void> | undefined;
  const periodic = options.recheckEveryMs
    ? setInterval(() => {
        pass ??= recheck().finally(() => (pass = undefined));
      }, options.recheckEveryMs).unref()
    : undefined;

  let closing: Promise<void> | undefined;
  return {
    io,
    ready: () => ready,
    serve(server) {
      io.attach(server);
      served = true;
    },
    broadcast(tenantId, channel, event, payload) {
      // A job finishing while the node stops must not throw on the closed Redis connection: the
      // sockets are gone already, and clients catch up over the API when they reconnect.
      if (closing) return;
      io.to(roomOf(tenantId, channel)).emit(event, payload, { channel });
    },
    recheck: (which) => (closing ? Promise.resolve() : recheck(which)),
    close() {
      // Not io.close(): that also closes the HTTP server, whose shutdown belongs to its owner.
      closing ??= (async () => {
        clearInterval(periodic);
        await pass;
        io.local.disconnectSockets(true);
        await io.of('/').adapter.close();
        if (served) io.engine.close(); // the engine exists once served
        if (redis) await Promise.all([closeRedisClient(redis.pub), closeRedisClient(redis.sub)]);
      })();
      return closing;
    },
  };
}

/** Who an identity stands for: a recheck that authenticates someone else refuses the socket. */
const whoIs = (i: RealtimeIdentity) => `${i.tenantId}:${'userId' in i ? `user:${i.userId}` : `visitor:${i.visitor.module}:${i.visitor.id}`}`;

function isChannel(channel: unknown): channel is string {
  return typeof channel === 'string' && channel.length > 0 && channel.length <= MAX_CHANNEL_LENGTH;
}

function unauthenticated(): Error & { data: object } {
  return Object.assign(new Error('Unauthenticated.'), { data: { code: 'UNAUTHENTICATED' } });
}
