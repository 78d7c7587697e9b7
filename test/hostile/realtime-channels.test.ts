/**
 * Hostile modules and visitors against realtime (spec 2, Events; DESIGN "Host capabilities for
 * modules"): a module broadcasting on channels it does not own (another module's, the core's private
 * user and tenant channels, another tenant's), a module declaring channels that overlap another's or
 * the core's, forged, tampered, re-purposed, expired and other-tenant visitor grants, grants for
 * channels visitors may not join, and floods and huge payloads, which are bounded.
 */
import path from 'node:path';
import { VisitorGrants } from '../../core/kernel/realtime/visitor-grants';
import { validateManifest } from '../../sdk/manifest';
import { closeSockets, connectError, socketClient, socketClientWith, sleep, type Client } from '../notifications/support';
import { buildChatRt, CHAT_RT, chatRt, grantFor, realtimeWorld, type RealtimeWorld } from '../realtime/support';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

const INTRUDER = path.join(__dirname, 'fixtures/modules/rt-intruder');
const SQUATTER = path.join(__dirname, 'fixtures/modules/rt-squatter');
const NOT_GRANTED = { ok: false, error: 'Channel not granted: a visitor joins only the channels its grant names.' };

let tp: TestPlatform;
let w: RealtimeWorld;

beforeAll(async () => {
  await buildChatRt();
  tp = await startTestPlatform({ MODULE_PATHS: [CHAT_RT, INTRUDER, SQUATTER].join(':') });
  w = await realtimeWorld(tp);
  const res = await tp.api('/modules/rt_intruder/install', { token: w.owner.token, tenant: 'acme', body: {} });
  if (res.status !== 201) throw new Error(`install rt_intruder: ${JSON.stringify(res.body)}`);
}, 240_000);
afterAll(async () => {
  closeSockets();
  await tp?.close();
});
afterEach(() => closeSockets());

/** rt_intruder calls a host operation with exactly this input, from its sandbox. */
const intruder = (op: string, input: unknown, tenantId = w.owner.tenantId) =>
  tp.platform.kernel.bus.call({ kind: 'core', name: 'test' }, 'rt_intruder.raw', { op, input }, { tenantId, user: null });

const visitorOn = async (channel: string, tenantId = w.owner.tenantId, tenant = 'acme'): Promise<Client> => {
  const v = await socketClientWith(tp.url, { grant: (await grantFor(tp, tenantId, [channel])).grant, tenant });
  expect(await v.subscribe(channel)).toEqual({ ok: true });
  return v;
};

/** A chat_rt broadcast the client must receive: anything sent before it on a path to the client would have arrived first. */
async function drained(c: Client, tenantId: string, channel: string): Promise<void> {
  await chatRt(tp, tenantId, 'say', { channel, event: 'marker', payload: { at: Date.now() } });
  await c.next('marker');
}

describe('spec 2 Events (hostile): a module broadcasts only on channels it owns, in the call\'s tenant', () => {
  test("another module's channel is refused, and its sockets receive nothing", async () => {
    const v = await visitorOn('chat.conversation.9');
    await expect(intruder('realtime.broadcast', { channel: 'chat.conversation.9', event: 'chat.message.sent', payload: { content: 'phish' } })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      status: 403,
      message: 'Module "rt_intruder" does not own the realtime channel "chat.conversation.9": declare a matching pattern in realtime.channels of its module.json.',
    });
    await drained(v, w.owner.tenantId, 'chat.conversation.9');
    expect(v.received.map((r) => r.event)).toEqual(['marker']);
  });

  test("the core's private user channel and another module's private tenant channel are refused, and nothing reaches the user", async () => {
    const owner = await socketClient(tp.url, w.owner.token, 'acme');
    expect(await owner.subscribe(`private-tenant.${w.owner.tenantId}.live-chat`)).toEqual({ ok: true });
    for (const channel of [`private-user.${w.owner.userId}`, `private-tenant.${w.owner.tenantId}.live-chat`, 'modules.operations']) {
      await expect(intruder('realtime.broadcast', { channel, event: '.notification.created', payload: { title: 'forged' } })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }
    for (const channel of [`private-user.${w.owner.userId}`, 'modules.operations']) {
      await expect(chatRt(tp, w.owner.tenantId, 'say', { channel, event: '.notification.created', payload: { title: 'forged' } })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }
    await tp.platform.kernel.bus.call({ kind: 'core', name: 'test' }, 'notifications.send', { user_id: w.owner.userId, type: 'x.y', title: 'real' }, { tenantId: w.owner.tenantId, user: null });
    await owner.next('.notification.created', (p) => p.title === 'real');
    expect(owner.received.filter((r) => r.payload?.title === 'forged')).toEqual([]);
  });

  test('a module cannot name another tenant: the input has no such field, and the same channel elsewhere stays silent', async () => {
    const globexVisitor = await visitorOn('chat.conversation.9', w.globex.id, 'globex');
    await expect(intruder('realtime.broadcast', { channel: 'rt_intruder.room.1', event: 'x', tenant: 'globex' })).rejects.toMatchObject({ status: 422 });
    await chatRt(tp, w.owner.tenantId, 'say', { channel: 'chat.conversation.9', event: 'acme.only' });
    await drained(globexVisitor, w.globex.id, 'chat.conversation.9');
    expect(globexVisitor.received.map((r) => r.event)).toEqual(['marker']);
  });

  test('a module whose channels overlap an installed module\'s is refused at install, naming both', async () => {
    const refused = await tp.api('/modules/rt_squatter/install', { token: w.owner.token, tenant: 'acme', body: {} });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('MODULE_DEPENDENCIES');
    expect(refused.body.message).toContain(
      'module rt_squatter@1.0.0 declares the realtime channels "chat.{kind}.{id}", which overlap "chat.conversation.{id}" of module chat_rt@1.0.0: one channel could belong to either; only one installed module may own a channel',
    );
    expect(refused.body.details.problems).toContainEqual(expect.objectContaining({ kind: 'realtime-channel', module: 'rt_squatter' }));
  });

  test("a manifest claiming the core's channels is invalid, saying what to fix", () => {
    const manifest = (pattern: string) => ({
      name: 'grabber',
      version: '1.0.0',
      compatibility: { platform: '^2.0.0' },
      realtime: { channels: [{ pattern, join: { visitor: true } }] },
    });
    const issues = (pattern: string) => {
      const result = validateManifest(manifest(pattern));
      return result.ok ? [] : result.errors;
    };
    expect(issues('private-user.{id}')).toContainEqual({
      pointer: '/realtime/channels/0/pattern',
      message:
        'channels starting with "private-" belong to the platform (its private user channels), except a tenant channel of the module\'s own written "private-tenant.{tenant_id}.<word>" (fixed words after the tenant); or choose a name of the module\'s own, e.g. "<alias>.room.{id}"',
    });
    // A private tenant channel must leave the tenant to the host, and name fixed words after it.
    for (const pattern of ['private-tenant.{id}.live-chat', 'private-tenant.acme.live-chat', 'private-tenant.{tenant_id}.{room}', 'private-tenantx.{tenant_id}.feed']) {
      expect(issues(pattern)).toContainEqual(expect.objectContaining({ pointer: '/realtime/channels/0/pattern' }));
    }
    // …and is joined by members holding a permission, never by visitors.
    expect(issues('private-tenant.{tenant_id}.feed')).toContainEqual({
      pointer: '/realtime/channels/0/join',
      message: 'a private tenant channel is joined by members only: name join.permission and leave out visitor',
    });
    expect(issues('{x}.operations')).toContainEqual(expect.objectContaining({ pointer: '/realtime/channels/0/pattern' }));
    expect(issues('modules.{what}')).toContainEqual({ pointer: '/realtime/channels/0/pattern', message: 'overlaps the platform\'s channel "modules.operations"; choose a name of the module\'s own' });
  });
});

describe('spec 2 Events (hostile): a module\'s private tenant channel (`private-tenant.{tenantId}.live-chat`)', () => {
  const own = () => `private-tenant.${w.owner.tenantId}.live-chat`;
  const globexChannel = () => `private-tenant.${w.globex.id}.live-chat`;

  test('a member joins only their own tenant\'s, holding the permission; other tenants, plain members and visitors are refused', async () => {
    const carol = await socketClient(tp.url, w.carol.token, 'acme');
    const bob = await socketClient(tp.url, w.bob.token, 'acme');
    const owner = await socketClient(tp.url, w.owner.token, 'acme');
    expect(await carol.subscribe(own())).toEqual({ ok: true });
    expect(await bob.subscribe(own())).toEqual({ ok: false, error: 'Forbidden.' });
    // Naming globex's id from acme: refused, though acme's chat_rt declares the pattern.
    expect(await owner.subscribe(globexChannel())).toEqual({ ok: false, error: 'Forbidden.' });
    expect(await carol.subscribe(`private-tenant.${w.owner.tenantId.toUpperCase()}.live-chat`)).toEqual({ ok: false, error: 'Forbidden.' });
    // No grant can name it: the pattern does not let visitors in.
    await expect(grantFor(tp, w.owner.tenantId, [own()])).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const v = await socketClientWith(tp.url, { grant: (await grantFor(tp, w.owner.tenantId, ['chat.conversation.40'])).grant, tenant: 'acme' });
    expect(await v.subscribe(own())).toEqual(NOT_GRANTED);
  });

  test('a broadcast names only the call\'s tenant: another tenant\'s channel is refused and its members hear nothing', async () => {
    const globexOwner = await socketClient(tp.url, w.globex.token, 'globex');
    expect(await globexOwner.subscribe(globexChannel())).toEqual({ ok: true });
    await expect(chatRt(tp, w.owner.tenantId, 'say', { channel: globexChannel(), event: 'chat.message.sent', payload: { content: 'cross' } })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      status: 403,
    });
    await expect(chatRt(tp, w.owner.tenantId, 'say', { channel: 'private-tenant.other.live-chat', event: 'x' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await chatRt(tp, w.globex.id, 'say', { channel: globexChannel(), event: 'marker', payload: {} });
    await globexOwner.next('marker');
    expect(globexOwner.received.map((r) => r.event)).toEqual(['marker']);
    // The own tenant's broadcast arrives.
    const carol = await socketClient(tp.url, w.carol.token, 'acme');
    expect(await carol.subscribe(own())).toEqual({ ok: true });
    await chatRt(tp, w.owner.tenantId, 'say', { channel: own(), event: 'chat.message.sent', payload: { n: 1 } });
    expect((await carol.next('chat.message.sent')).payload).toEqual({ n: 1 });
  });
});

describe('spec 2 Events (hostile): visitor grants', () => {
  const keys = () => tp.platform.keys;
  const split = (grant: string) => [grant.slice(0, grant.indexOf('.')), grant.slice(grant.indexOf('.') + 1)] as const;

  test('forged and tampered grants, and grants signed for another purpose, are refused at connection', async () => {
    const { grant } = await grantFor(tp, w.owner.tenantId, ['chat.conversation.20']);
    const [body, signature] = split(grant);
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { c: string[]; e: number };
    const reencode = (c: unknown) => Buffer.from(JSON.stringify(c)).toString('base64url');
    const tampered = [
      `${reencode({ ...claims, c: [...claims.c, 'chat.conversation.21'] })}.${signature}`,
      `${reencode({ ...claims, e: claims.e + 86_400_000 })}.${signature}`,
      `${body}.${'0'.repeat(64)}`,
      `${body}.${signature.slice(0, -1)}${signature.endsWith('a') ? 'b' : 'a'}`,
      `${body}.${await keys().sign('email-verification', body)}`,
      'not-a-grant',
      `${'x'.repeat(9000)}.${signature}`,
      '',
    ];
    for (const forged of tampered) expect(await connectError(tp.url, { grant: forged, tenant: 'acme' })).toBe('Unauthenticated.');
    expect(await connectError(tp.url, { grant: { c: ['chat.conversation.21'] }, tenant: 'acme' })).toBe('Unauthenticated.');
    expect(await connectError(tp.url, { grant, tenant: 'acme' })).toBeUndefined();
  });

  test("an expired grant, and another tenant's grant, are refused", async () => {
    const expired = await new VisitorGrants(keys(), tp.platform.clock).issue({
      tenantId: w.owner.tenantId,
      module: 'chat_rt',
      visitorId: 'v-late',
      channels: ['chat.conversation.22'],
      expiresAt: tp.platform.clock.now() - 1000,
    });
    expect(await connectError(tp.url, { grant: expired, tenant: 'acme' })).toBe('Unauthenticated.');
    const { grant } = await grantFor(tp, w.globex.id, ['chat.conversation.22']);
    expect(await connectError(tp.url, { grant, tenant: 'acme' })).toBe('Unauthenticated.');
    expect(await connectError(tp.url, { grant, tenant: w.owner.tenantId })).toBe('Unauthenticated.');
  });

  test('grants only for the caller\'s own channels that let visitors join, with bounded lifetime and size', async () => {
    await expect(grantFor(tp, w.owner.tenantId, ['chat_rt.board.sales'])).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'Visitors may not join "chat_rt.board.sales": its pattern "chat_rt.board.{team}" does not set join.visitor in realtime.channels.',
    });
    await expect(intruder('realtime.grant_visitor', { visitor_id: 'v', channels: ['chat.conversation.9'] })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(intruder('realtime.grant_visitor', { visitor_id: 'v', channels: [`private-user.${w.owner.userId}`] })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(grantFor(tp, w.owner.tenantId, ['chat.conversation.1'], 'v', 86_401)).rejects.toMatchObject({ status: 422 });
    await expect(grantFor(tp, w.owner.tenantId, Array.from({ length: 21 }, (_, i) => `chat.conversation.${i}`))).rejects.toMatchObject({ status: 422 });
    // The intruder's own grant opens its own room, never chat_rt's conversations or the core's channels.
    const { grant } = (await intruder('realtime.grant_visitor', { visitor_id: 'v', channels: ['rt_intruder.room.1'] })) as { grant: string };
    const v = await socketClientWith(tp.url, { grant, tenant: 'acme' });
    expect(await v.subscribe('rt_intruder.room.1')).toEqual({ ok: true });
    expect(await v.subscribe('chat.conversation.9')).toEqual(NOT_GRANTED);
    expect(await v.subscribe(`private-user.${w.owner.userId}`)).toEqual(NOT_GRANTED);
  });
});

describe('spec 2 Events (hostile): floods and huge payloads are bounded', () => {
  test('payloads over 64 KiB are refused with 413 and reach nobody', async () => {
    const v = await visitorOn('chat.conversation.31');
    for (const size of [70_000, 5_000_000]) {
      await expect(chatRt(tp, w.owner.tenantId, 'say', { channel: 'chat.conversation.31', event: 'big', payload: { blob: 'x'.repeat(size) } })).rejects.toMatchObject({
        code: 'PAYLOAD_TOO_LARGE',
        status: 413,
      });
    }
    await drained(v, w.owner.tenantId, 'chat.conversation.31');
    expect(v.received.map((r) => r.event)).toEqual(['marker']);
  });

  test('a broadcast flood is cut at 100 a second per tenant and module; the sockets get no more than that', async () => {
    const v = await visitorOn('chat.conversation.30');
    const started = Date.now();
    const flood = await chatRt<{ sent: number; refused: string | null }>(tp, w.owner.tenantId, 'say_many', { channel: 'chat.conversation.30', times: 1000 });
    const windows = Math.ceil((Date.now() - started) / 1000) + 1; // a slow machine spreads the flood over more one-second windows
    expect(flood.refused).toBe('RATE_LIMITED');
    expect(flood.sent).toBeLessThanOrEqual(100 * windows);
    expect(flood.sent).toBeGreaterThan(0);
    await sleep(1100); // the next window
    await drained(v, w.owner.tenantId, 'chat.conversation.30');
    expect(v.received.filter((r) => r.event === 'flood').length).toBe(flood.sent);
  });
});
