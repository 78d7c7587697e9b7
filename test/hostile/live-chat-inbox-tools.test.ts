/**
 * Live chat's inbox tools (beyond spec 2, modules/live-chat/README: Teams, Canned responses, Labels,
 * Typing) against hostile callers: another tenant's team, label and canned response ids are refused
 * (each tenant's records are its own, whatever id a caller names); an agent never reads, changes or
 * deletes another agent's private canned responses, nor finds them by prefix; a typing flood, at once
 * and from many calls, makes at most one broadcast.
 */
import type { TestHost } from '../../sdk/testing';
import { addAgent, closeSockets, createWidget, requestAs, socketClient, startHost, tenantChannel, visitor, widgetCall, type Reply } from '../../modules/live-chat/test/support';

let host: TestHost;
let other: string;
let rivalToken: string;
beforeAll(async () => {
  host = await startHost();
  const made = await host.request('POST', '/admin/tenants', { name: 'Rival', alias: 'rival-chat' });
  if (made.status !== 201) throw new Error(JSON.stringify(made.body));
  other = made.body.tenant.id;
  await host.installModule('live_chat', { tenant: other });
  rivalToken = (await host.addMember({ email: 'rita@rival.example', role: 'admin', name: 'Rita Rival' }, other)).token;
}, 180_000);
afterAll(async () => {
  closeSockets();
  await host?.close();
});

/** The rival tenant's admin. */
const inRival = async (method: string, p: string, body?: unknown): Promise<Pick<Reply, 'status' | 'body'>> => {
  const res = await fetch(`${host.url}/api/v1${p}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${rivalToken}`, 'x-tenant': other }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
};

describe('live chat inbox tools (hostile): tenants and agents keep their own', () => {
  test("another tenant's team, label and canned response ids are refused here", async () => {
    // The rival makes enough of each that its newest ids are ones this tenant never had.
    let team = 0;
    let label = 0;
    let canned = 0;
    for (let i = 0; i < 3; i++) {
      const made = await inRival('POST', '/live-chat/teams', { name: `Rival team ${i}` });
      expect(made).toMatchObject({ status: 201 });
      team = made.body.id;
      label = (await inRival('POST', '/live-chat/labels', { name: `rival-${i}` })).body.id;
      canned = (await inRival('POST', '/live-chat/canned-responses', { short_code: `rival${i}`, content: 'Rival secret pricing' })).body.id;
    }
    const token = (await createWidget(host)).token;
    const id = (await (await visitor(host, token)).start('hi')).body.conversation.id;
    expect((await host.request('GET', `/live-chat/teams/${team}`)).status).toBe(404);
    expect((await host.request('POST', `/live-chat/teams/${team}/agents`, { agent_id: 1 })).status).toBe(404);
    expect((await host.request('PUT', `/live-chat/conversations/${id}/team`, { team_id: team })).status).toBe(404);
    expect((await host.request('POST', '/live-chat/widgets', { name: 'W', team_id: team })).status).toBe(422);
    expect((await host.request('POST', `/live-chat/conversations/${id}/labels`, { label_id: label })).status).toBe(404);
    expect((await host.request('DELETE', `/live-chat/labels/${label}`)).status).toBe(404);
    expect((await host.request('GET', `/live-chat/canned-responses/${canned}`)).status).toBe(404);
    expect((await host.request('DELETE', `/live-chat/canned-responses/${canned}`)).status).toBe(404);
    expect((await host.request('GET', '/live-chat/canned-responses?prefix=rival')).body.data).toEqual([]);
    // And the rival's records are untouched.
    expect((await inRival('GET', `/live-chat/canned-responses/${canned}`)).body.content).toBe('Rival secret pricing');
    expect((await inRival('GET', '/live-chat/labels')).body.data).toHaveLength(3);
  });

  test("an agent cannot read, change, delete or search another agent's private canned responses", async () => {
    const ann = await addAgent(host, { online: false });
    const eve = await addAgent(host, { online: false });
    const secret = (await requestAs(host, ann.token, 'POST', '/live-chat/agents/me/canned-responses', { short_code: 'annsecret', content: 'Ann private discount code' })).body;
    expect((await requestAs(host, eve.token, 'GET', `/live-chat/canned-responses/${secret.id}`)).status).toBe(404);
    expect((await requestAs(host, eve.token, 'PUT', `/live-chat/agents/me/canned-responses/${secret.id}`, { content: 'stolen' })).status).toBe(404);
    expect((await requestAs(host, eve.token, 'DELETE', `/live-chat/agents/me/canned-responses/${secret.id}`)).status).toBe(404);
    expect((await requestAs(host, eve.token, 'GET', '/live-chat/canned-responses?prefix=ann')).body.data).toEqual([]);
    // Not even a manager, through the tenant's routes.
    expect((await host.request('GET', `/live-chat/canned-responses/${secret.id}`)).status).toBe(404);
    expect((await host.request('PUT', `/live-chat/canned-responses/${secret.id}`, { content: 'x' })).status).toBe(404);
    expect((await requestAs(host, ann.token, 'GET', `/live-chat/canned-responses/${secret.id}`)).body.content).toBe('Ann private discount code');
  });

  test('a typing flood makes at most one broadcast; the rest is 429', async () => {
    const agent = await addAgent(host);
    const token = (await createWidget(host, { name: 'Flooded' })).token;
    const v = await visitor(host, token);
    const id = (await v.start('flood')).body.conversation.id;
    const socket = await socketClient(host, { token: agent.token, tenant: host.tenantId });
    expect(await socket.subscribe(tenantChannel(host))).toEqual({ ok: true });
    const answers = await Promise.all(Array.from({ length: 40 }, () => widgetCall(host, token, 'POST', `/conversations/${id}/typing`, { session_id: v.sessionId, typing: true })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(39);
    const agentFlood = await Promise.all(Array.from({ length: 20 }, () => requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/typing`, { typing: true })));
    expect(agentFlood.filter((a) => a.status === 200)).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(socket.received.filter((r) => r.event === 'chat.typing' && r.payload.conversation_id === id)).toHaveLength(2);
  });
});
