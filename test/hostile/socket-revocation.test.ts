/**
 * Sockets do not outlive the access they were opened with (spec 1, States and transitions: Session;
 * spec 2, Events): an agent's socket on the tenant's live-chat channel stops receiving visitors' messages
 * as soon as the agent's token is revoked (logout, a session revoked elsewhere, a password change),
 * the agent is suspended or removed, or the agent's role loses the channel's permission; on every
 * node, and, for what nobody announces (a token running out), at the next periodic re-check. Agents
 * who keep their access keep receiving. The channel is the chat_rt fixture's
 * `private-tenant.{tenantId}.live-chat`, joined with chat_rt.view, as live chat's is with live_chat.view.
 */
import { closeSockets, sendAsCore, sleep, socketClient, type Client } from '../notifications/support';
import { buildChatRt, CHAT_RT, chatRt, realtimeWorld, type RealtimeWorld } from '../realtime/support';
import { describeWithRedis, startTwoPlatforms, type TwoNodes } from '../support/two-nodes';
import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';

const AGENT_ROLE = 'rt-agent';
const PASSWORD = 'agent-password-1';
/** How soon a socket must lose what it may no longer hear: well under any periodic re-check these suites run. */
const PROMPTLY_MS = 5_000;

let agents = 0;

interface Agent {
  token: string;
  userId: number;
  email: string;
}

async function newAgent(tp: TestPlatform, w: RealtimeWorld): Promise<Agent> {
  const email = `agent${++agents}.${Date.now()}@acme.example`;
  const { token, userId } = await addMember(tp, w.owner.token, 'acme', { email, role: AGENT_ROLE, password: PASSWORD });
  return { token, userId, email };
}

const liveChat = (w: RealtimeWorld) => `private-tenant.${w.owner.tenantId}.live-chat`;

/** An agent's app: connected with the token, on the tenant's live-chat channel. */
async function agentSocket(url: string, w: RealtimeWorld, token: string): Promise<Client> {
  const c = await socketClient(url, token, 'acme');
  expect(await c.subscribe(liveChat(w))).toEqual({ ok: true });
  return c;
}

/** A visitor's message, as the module broadcasts it to the agents. */
const visitorSays = (tp: TestPlatform, w: RealtimeWorld, content: string) =>
  chatRt(tp, w.owner.tenantId, 'say', { channel: liveChat(w), event: 'chat.message.sent', payload: { content } });

const heard = (c: Client, content: string) => c.next('chat.message.sent', (p) => p.content === content);

function disconnected(c: Client, ms = PROMPTLY_MS): Promise<string> {
  if (!c.socket.connected) return Promise.resolve('already disconnected');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still connected after ${ms} ms`)), ms);
    c.socket.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });
}

const login = async (tp: TestPlatform, email: string) => {
  const res = await tp.api('/auth/login', { tenant: 'acme', body: { email, password: PASSWORD, device_name: 'second device' } });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token as string;
};

describe('spec 1 sessions and members (hostile): a socket stops receiving once its access is gone', () => {
  let tp: TestPlatform;
  let w: RealtimeWorld;

  beforeAll(async () => {
    await buildChatRt();
    // The periodic re-check is far away: what these tests see is the change itself reaching the sockets.
    tp = await startTestPlatform({ MODULE_PATHS: CHAT_RT, REALTIME_RECHECK_SECONDS: '3600' });
    w = await realtimeWorld(tp);
  }, 240_000);
  afterAll(async () => {
    closeSockets();
    await tp?.close();
  });
  afterEach(() => closeSockets());

  test('logout disconnects the socket opened with that token; a colleague keeps receiving', async () => {
    const agent = await newAgent(tp, w);
    const socket = await agentSocket(tp.url, w, agent.token);
    const colleague = await agentSocket(tp.url, w, w.carol.token);
    await visitorSays(tp, w, 'before logout');
    await heard(socket, 'before logout');

    expect((await tp.api('/auth/logout', { method: 'POST', token: agent.token, tenant: 'acme' })).status).toBe(200);
    await disconnected(socket);
    await visitorSays(tp, w, 'after logout');
    await heard(colleague, 'after logout');
    expect(socket.received.filter((r) => r.payload?.content === 'after logout')).toEqual([]);
  });

  test('a session revoked from another device disconnects its socket; the device that revoked it keeps receiving', async () => {
    const agent = await newAgent(tp, w);
    const other = await login(tp, agent.email);
    const revoked = await agentSocket(tp.url, w, other);
    const kept = await agentSocket(tp.url, w, agent.token);
    const sessions = await tp.api('/profile/sessions', { token: agent.token, tenant: 'acme' });
    const target = (sessions.body.sessions as Array<{ id: string; is_current: boolean; name: string }>).find((s) => !s.is_current && s.name === 'second device')!;
    expect((await tp.api(`/profile/sessions/${target.id}`, { method: 'DELETE', token: agent.token, tenant: 'acme' })).status).toBe(200);

    await disconnected(revoked);
    await visitorSays(tp, w, 'after revoking a session');
    await heard(kept, 'after revoking a session');
    expect(kept.socket.connected).toBe(true);
  });

  test("a password change disconnects the user's other sessions' sockets, not the one that changed it", async () => {
    const agent = await newAgent(tp, w);
    const other = await login(tp, agent.email);
    const elsewhere = await agentSocket(tp.url, w, other);
    const here = await agentSocket(tp.url, w, agent.token);
    const changed = await tp.api('/auth/change-password', {
      token: agent.token,
      tenant: 'acme',
      body: { current_password: PASSWORD, password: 'a-brand-new-secret-9', password_confirmation: 'a-brand-new-secret-9' },
    });
    expect(changed.status).toBe(200);

    await disconnected(elsewhere);
    await visitorSays(tp, w, 'after the password change');
    await heard(here, 'after the password change');
  });

  test('suspending the agent disconnects their socket', async () => {
    const agent = await newAgent(tp, w);
    const socket = await agentSocket(tp.url, w, agent.token);
    const colleague = await agentSocket(tp.url, w, w.carol.token);
    expect((await tp.api(`/members/${agent.userId}`, { method: 'PATCH', token: w.owner.token, tenant: 'acme', body: { status: 'suspended' } })).status).toBe(200);

    await disconnected(socket);
    await visitorSays(tp, w, 'after suspension');
    await heard(colleague, 'after suspension');
    expect(socket.received.filter((r) => r.payload?.content === 'after suspension')).toEqual([]);
  });

  test('removing the agent from the tenant disconnects their socket', async () => {
    const agent = await newAgent(tp, w);
    const socket = await agentSocket(tp.url, w, agent.token);
    const colleague = await agentSocket(tp.url, w, w.carol.token);
    expect((await tp.api(`/members/${agent.userId}`, { method: 'DELETE', token: w.owner.token, tenant: 'acme' })).status).toBe(200);

    await disconnected(socket);
    await visitorSays(tp, w, 'after removal');
    await heard(colleague, 'after removal');
    expect(socket.received.filter((r) => r.payload?.content === 'after removal')).toEqual([]);
  });

  test('a role without the channel\'s permission takes the socket off the channel; it stays on its own user channel', async () => {
    const agent = await newAgent(tp, w);
    const socket = await agentSocket(tp.url, w, agent.token);
    const colleague = await agentSocket(tp.url, w, w.carol.token);
    expect((await tp.api(`/members/${agent.userId}`, { method: 'PATCH', token: w.owner.token, tenant: 'acme', body: { role: 'member' } })).status).toBe(200);

    // Give the change its moment, then: a visitor's message, and after it a notification to the agent.
    const deadline = Date.now() + PROMPTLY_MS;
    for (let n = 0; ; n++) {
      await visitorSays(tp, w, `after the role change ${n}`);
      await sendAsCore(tp, w.owner.tenantId, { user_id: agent.userId, type: 'x.marker', title: `marker ${n}` });
      await socket.next('.notification.created', (p) => p.title === `marker ${n}`);
      await heard(colleague, `after the role change ${n}`);
      if (!socket.received.some((r) => r.payload?.content === `after the role change ${n}`)) break;
      if (Date.now() > deadline) throw new Error(`the socket still hears the live-chat channel ${PROMPTLY_MS} ms after its role lost the permission`);
      await sleep(100);
    }
    expect(socket.socket.connected).toBe(true);
    // And it may not simply join again.
    expect(await socket.subscribe(liveChat(w))).toEqual({ ok: false, error: 'Forbidden.' });
  });
});

describe('spec 1 sessions (hostile): the periodic re-check catches what nobody announces', () => {
  let tp: TestPlatform;
  let w: RealtimeWorld;

  beforeAll(async () => {
    await buildChatRt();
    tp = await startTestPlatform({ MODULE_PATHS: CHAT_RT, REALTIME_RECHECK_SECONDS: '1' });
    w = await realtimeWorld(tp);
  }, 240_000);
  afterAll(async () => {
    closeSockets();
    await tp?.close();
  });

  test('a token that runs out while its socket is open: the socket is disconnected within the interval', async () => {
    const agent = await newAgent(tp, w);
    const { AccessToken } = tp.platform.central.models;
    // The token expires in 2 s; nothing announces an expiry.
    const expiresAt = new Date(Date.now() + 2_000);
    await AccessToken.update({ expires_at: expiresAt }, { where: { user_id: agent.userId, revoked_at: null } });
    const socket = await agentSocket(tp.url, w, agent.token);
    const colleague = await agentSocket(tp.url, w, w.carol.token);

    await disconnected(socket, 2_000 + 1_000 + PROMPTLY_MS);
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt.getTime());
    await visitorSays(tp, w, 'after expiry');
    await heard(colleague, 'after expiry');
    expect(colleague.socket.connected).toBe(true);
  });
});

describeWithRedis('spec 1 members (hostile): a removal or logout through one node disconnects the socket on another', () => {
  let nodes: TwoNodes<TestPlatform>;
  let w: RealtimeWorld;

  beforeAll(async () => {
    await buildChatRt();
    nodes = await startTwoPlatforms({ MODULE_PATHS: CHAT_RT, REALTIME_RECHECK_SECONDS: '3600', REDIS_PREFIX: `mandi-test-revoke-${process.pid}-${Date.now()}` });
    w = await realtimeWorld(nodes.a);
  }, 240_000);
  afterAll(async () => {
    closeSockets();
    await nodes?.close();
  });

  test('an agent removed through node A loses the socket open on node B; a colleague on B keeps receiving', async () => {
    const { a, b } = nodes;
    const agent = await newAgent(a, w);
    const onB = await agentSocket(b.url, w, agent.token);
    const colleagueOnB = await agentSocket(b.url, w, w.carol.token);
    await visitorSays(a, w, 'before removal');
    await heard(onB, 'before removal');

    expect((await a.api(`/members/${agent.userId}`, { method: 'DELETE', token: w.owner.token, tenant: 'acme' })).status).toBe(200);
    await disconnected(onB);
    await visitorSays(a, w, 'after removal');
    await heard(colleagueOnB, 'after removal');
    expect(onB.received.filter((r) => r.payload?.content === 'after removal')).toEqual([]);
  });

  test('a logout through node B disconnects the socket open on node A', async () => {
    const { a, b } = nodes;
    const agent = await newAgent(a, w);
    const onA = await agentSocket(a.url, w, agent.token);
    expect((await b.api('/auth/logout', { method: 'POST', token: agent.token, tenant: 'acme' })).status).toBe(200);
    await disconnected(onA);
  });
});
