/**
 * Realtime over real sockets with socket.io-client: private user channels, tenant isolation,
 * subscribe authorisation, and, on Redis, broadcasts that cross nodes through the adapter.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { attachRealtime, type Authenticate, type Drivers, type Realtime, type RealtimeOptions } from '../../core/kernel/drivers';
import { describeRedis, flushPrefix, kinds, makeDrivers, sleep, uniquePrefix, waitFor, type Kind } from './support';

/** Stands in for the auth module: token `user-<id>` is that user, in the tenant the client names. */
const authenticate: Authenticate = async (handshake) => {
  const { token, tenant } = handshake.auth as { token?: string; tenant?: string };
  const m = /^user-(\d+)$/.exec(token ?? '');
  return m && tenant ? { userId: Number(m[1]), tenantId: tenant } : null;
};

interface Node {
  drivers: Drivers;
  server: Server;
  realtime: Realtime;
  url: string;
}

async function startNode(kind: Kind, prefix: string, options?: RealtimeOptions): Promise<Node> {
  const drivers = makeDrivers(kind, prefix);
  const server = createServer();
  const realtime = attachRealtime(server, drivers, authenticate, options);
  await realtime.ready();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { drivers, server, realtime, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function stopNode(node: Node): Promise<void> {
  await node.realtime.close();
  await new Promise<void>((resolve) => node.server.close(() => resolve()));
  await node.drivers.close();
}

interface Client {
  socket: ClientSocket;
  received: { event: string; payload: unknown; channel: unknown }[];
}

const clients: ClientSocket[] = [];

/** Connects and records every event the server pushes. */
async function client(url: string, token: string, tenant: string): Promise<Client> {
  const socket = connect(url, { auth: { token, tenant }, transports: ['websocket'], reconnection: false, forceNew: true });
  clients.push(socket);
  const received: Client['received'] = [];
  socket.onAny((event: string, payload: unknown, meta?: { channel?: unknown }) => received.push({ event, payload, channel: meta?.channel }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return { socket, received };
}

const subscribe = (c: Client, channel: string) => c.socket.emitWithAck('subscribe', channel) as Promise<{ ok: boolean; error?: string }>;

afterEach(() => {
  for (const s of clients.splice(0)) s.disconnect();
});

describe.each(kinds())('realtime on one node (%s)', (kind) => {
  const prefix = uniquePrefix(`rt-${kind}`);
  let node: Node;

  beforeAll(async () => {
    node = await startNode(kind, prefix, {
      authorize: (identity, channel) =>
        channel === `private-tenant.${identity.tenantId}.live-chat` ? 'userId' in identity && identity.userId === 1 : !channel.startsWith('private-'),
    });
  });
  afterAll(async () => {
    await stopNode(node);
    await flushPrefix(prefix);
  });

  it('refuses a connection the hook does not authenticate', async () => {
    await expect(client(node.url, 'forged', 'abc12345')).rejects.toThrow('Unauthenticated.');
  });

  it('delivers a broadcast to its user only, and only within the tenant', async () => {
    const seven = await client(node.url, 'user-7', 'abc12345');
    const eight = await client(node.url, 'user-8', 'abc12345');
    const sevenElsewhere = await client(node.url, 'user-7', 'zzz99999');
    const notification = { id: 1, type: 'order.paid', title: 'Order paid', severity: 'info' };

    node.realtime.broadcast('abc12345', 'private-user.7', '.notification.created', notification);
    await waitFor(() => seven.received.length === 1, 'user 7 notified');
    expect(seven.received).toEqual([{ event: '.notification.created', payload: notification, channel: 'private-user.7' }]);

    // Same path to user 8 afterwards: once it arrives, anything meant for 7 would have arrived too.
    node.realtime.broadcast('abc12345', 'private-user.8', '.notification.created', { id: 2 });
    await waitFor(() => eight.received.length === 1, 'user 8 notified');
    expect(eight.received.map((r) => r.payload)).toEqual([{ id: 2 }]);
    await sleep(50);
    expect(sevenElsewhere.received).toEqual([]);
  });

  it('lets a socket subscribe only to channels the hook allows', async () => {
    const agent = await client(node.url, 'user-1', 'abc12345');
    const visitor = await client(node.url, 'user-2', 'abc12345');

    expect(await subscribe(agent, 'private-tenant.abc12345.live-chat')).toEqual({ ok: true });
    expect(await subscribe(visitor, 'private-tenant.abc12345.live-chat')).toEqual({ ok: false, error: 'Forbidden.' });
    expect(await subscribe(visitor, 'private-user.1')).toEqual({ ok: false, error: 'Forbidden.' });
    expect(await subscribe(visitor, 'chat.conversation.9')).toEqual({ ok: true });
    expect(await subscribe(visitor, '')).toEqual({ ok: false, error: 'Invalid channel.' });

    node.realtime.broadcast('abc12345', 'private-tenant.abc12345.live-chat', 'chat.message.sent', { conversation_id: 9 });
    node.realtime.broadcast('abc12345', 'chat.conversation.9', 'chat.message.sent', { conversation_id: 9, to: 'visitor' });
    await waitFor(() => agent.received.length === 1 && visitor.received.length === 1, 'both deliveries');
    expect(agent.received[0]).toMatchObject({ channel: 'private-tenant.abc12345.live-chat' });
    expect(visitor.received[0]).toMatchObject({ channel: 'chat.conversation.9', payload: { to: 'visitor' } });

    await visitor.socket.emitWithAck('unsubscribe', 'chat.conversation.9');
    node.realtime.broadcast('abc12345', 'chat.conversation.9', 'chat.message.sent', { n: 2 });
    node.realtime.broadcast('abc12345', 'private-user.2', 'ping', { n: 3 });
    await waitFor(() => visitor.received.length === 2, 'ping');
    expect(visitor.received[1]).toMatchObject({ event: 'ping', payload: { n: 3 } });
  });
});

describe('realtime without an authorize hook', () => {
  it('opens public channels and closes private ones', async () => {
    const node = await startNode('memory', uniquePrefix('rt-default'));
    try {
      const c = await client(node.url, 'user-3', 'abc12345');
      expect(await subscribe(c, 'chat.conversation.1')).toEqual({ ok: true });
      expect(await subscribe(c, 'private-tenant.abc12345.live-chat')).toEqual({ ok: false, error: 'Forbidden.' });
      expect(await subscribe(c, 'private-user.3')).toEqual({ ok: true });
    } finally {
      for (const s of clients.splice(0)) s.disconnect();
      await stopNode(node);
    }
  });
});

describe.each(kinds())('realtime while its node stops (%s)', (kind) => {
  it('drops a broadcast made after close (a job finishing during shutdown) instead of throwing', async () => {
    const prefix = uniquePrefix(`rt-closed-${kind}`);
    const node = await startNode(kind, prefix);
    await stopNode(node);
    expect(() => node.realtime.broadcast('abc12345', 'private-user.1', '.module.operation', { late: true })).not.toThrow();
    await flushPrefix(prefix);
  });

  it('disconnects an identity when its expiresAt passes', async () => {
    const node = await startNode(kind, uniquePrefix(`rt-expiry-${kind}`));
    const expiring: Authenticate = async () => ({ tenantId: 'abc12345', visitor: { id: 'v', module: 'm', channels: [] }, expiresAt: Date.now() + 300 });
    const server = createServer();
    const realtime = attachRealtime(server, node.drivers, expiring);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const c = await client(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'anyone', 'abc12345');
      const reason = await new Promise((resolve) => c.socket.once('disconnect', resolve));
      expect(reason).toBe('io server disconnect');
    } finally {
      await realtime.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stopNode(node);
    }
  });
});

describeRedis('realtime across two nodes (Redis adapter)', () => {
  const prefix = uniquePrefix('rt-nodes');
  let a: Node;
  let b: Node;

  beforeAll(async () => {
    a = await startNode('redis', prefix);
    b = await startNode('redis', prefix);
  });
  afterAll(async () => {
    await stopNode(a);
    await stopNode(b);
    await flushPrefix(prefix);
  });

  it('delivers a broadcast sent on A to the user connected to B, and to no one else', async () => {
    const sevenOnB = await client(b.url, 'user-7', 'abc12345');
    const eightOnA = await client(a.url, 'user-8', 'abc12345');
    const eightOnB = await client(b.url, 'user-8', 'abc12345');

    a.realtime.broadcast('abc12345', 'private-user.7', '.notification.created', { id: 10 });
    await waitFor(() => sevenOnB.received.length === 1, 'user 7 on B notified');
    expect(sevenOnB.received).toEqual([{ event: '.notification.created', payload: { id: 10 }, channel: 'private-user.7' }]);

    b.realtime.broadcast('abc12345', 'private-user.8', '.notification.created', { id: 11 });
    await waitFor(() => eightOnA.received.length === 1 && eightOnB.received.length === 1, 'user 8 on both nodes');
    expect(eightOnA.received.map((r) => r.payload)).toEqual([{ id: 11 }]);
    expect(eightOnB.received.map((r) => r.payload)).toEqual([{ id: 11 }]);
    expect(sevenOnB.received).toHaveLength(1);
  });
});
