/**
 * spec 2 Events: an agent's app hears visitors' chats only while the agent may.
 * Removing or suspending an agent from the tenant disconnects their socket at once, so it hears no
 * further chat on `private-tenant.{tenantId}.live-chat`; the agents who stay keep hearing every one.
 */
import type { TestHost } from '../../../sdk/testing';
import { addAgent, closeSockets, createWidget, socketClient, startHost, tenantChannel, visitor, type Client } from './support';

let host: TestHost;
let widget: string;

beforeAll(async () => {
  // The periodic re-check is far away: what the test sees is the removal itself reaching the socket.
  host = await startHost({ REALTIME_RECHECK_SECONDS: '3600' });
  widget = (await createWidget(host, { name: 'Access' })).token;
}, 120_000);
afterAll(async () => {
  closeSockets();
  await host?.close();
});

async function agentApp(token: string): Promise<Client> {
  const c = await socketClient(host, { token, tenant: host.tenantId });
  expect(await c.subscribe(tenantChannel(host))).toEqual({ ok: true });
  return c;
}

const disconnected = (c: Client) =>
  new Promise<void>((resolve, reject) => {
    if (!c.socket.connected) return resolve();
    const timer = setTimeout(() => reject(new Error('the socket is still connected 5 s after the change')), 5_000);
    c.socket.once('disconnect', () => {
      clearTimeout(timer);
      resolve();
    });
  });

describe('spec 2 Events (hostile): a removed or suspended agent hears no more chats', () => {
  test.each([
    ['removed', (userId: number) => host.request('DELETE', `/members/${userId}`)],
    ['suspended', (userId: number) => host.request('PATCH', `/members/${userId}`, { status: 'suspended' })],
  ])('an agent %s from the tenant is disconnected; the agent who stays hears the next visitor', async (how, change) => {
    const stays = await addAgent(host, { name: `Stays (${how})` });
    const leaves = await addAgent(host, { name: `Leaves (${how})` });
    const staying = await agentApp(stays.token);
    const leaving = await agentApp(leaves.token);

    expect((await change(leaves.userId)).status).toBe(200);
    await disconnected(leaving);
    const content = `a visitor after the agent was ${how}`;
    expect((await (await visitor(host, widget, { name: 'Kiran' })).start(content)).status).toBe(201);
    await staying.next('chat.message.sent', (p) => p.message?.content === content);
    expect(leaving.received.filter((r) => r.payload?.message?.content === content)).toEqual([]);
  });
});
