/**
 * spec 2, Live chat: an Agent is a member of the tenant (user_id). POST /live-chat/agents takes only
 * active members (422 errors.user_id for an unknown user, a member of another tenant, a suspended
 * member); a membership that ends (suspended, removed: the platform's member.suspended /
 * member.removed events) removes the agent, and their open conversations go back to the queue and
 * to another online agent with room. All over HTTP on a real platform.
 */
import type { TestHost } from '../../../sdk/testing';
import { AGENT_ROLE, addAgent, createWidget, requestAs, startHost, visitor } from './support';

let host: TestHost;
let widgetToken: string;
beforeAll(async () => {
  host = await startHost();
  widgetToken = (await createWidget(host, { name: 'Members' })).token;
}, 120_000);
afterAll(() => host?.close());

const conversation = async (id: number) => (await host.request('GET', `/live-chat/conversations/${id}`)).body;
const agentIds = async () => ((await host.request('GET', '/live-chat/agents')).body.data as Array<{ id: number }>).map((a) => a.id);

describe('spec 2 Live chat: agents are active members of the tenant', () => {
  test('an unknown user, a member of another tenant and a suspended member are refused with 422 naming user_id', async () => {
    const unknown = await host.request('POST', '/live-chat/agents', { user_id: 999999 });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ code: 'VALIDATION_FAILED', details: { errors: { user_id: ['User 999999 is not an active member of this tenant.'] } } });

    const other = await host.request('POST', '/admin/tenants', { name: 'Elsewhere', alias: 'elsewhere-chat' });
    expect(other.status).toBe(201);
    const outsider = await host.addMember({ email: 'otto@elsewhere.example', role: 'admin', name: 'Otto' }, other.body.tenant.id);
    const foreign = await host.request('POST', '/live-chat/agents', { user_id: outsider.userId });
    expect(foreign.status).toBe(422);
    expect(foreign.body.details.errors.user_id).toEqual([`User ${outsider.userId} is not an active member of this tenant.`]);

    const member = await host.addMember({ email: `sus.${Date.now()}@shop.example`, role: AGENT_ROLE, name: 'Sam Suspended' });
    expect((await host.request('PATCH', `/members/${member.userId}`, { status: 'suspended' })).status).toBe(200);
    expect((await host.request('POST', '/live-chat/agents', { user_id: member.userId })).status).toBe(422);
    expect((await host.request('PATCH', `/members/${member.userId}`, { status: 'active' })).status).toBe(200);
    const made = await host.request('POST', '/live-chat/agents', { user_id: member.userId });
    expect(made.status).toBe(201);
    // The member's own name, not a placeholder.
    expect(made.body).toMatchObject({ user_id: member.userId, name: 'Sam Suspended', status: 'offline' });
    expect((await host.request('GET', '/live-chat/agents')).body.data.map((a: { user_id: number }) => a.user_id)).not.toContain(999999);
    await host.request('DELETE', `/live-chat/agents/${made.body.id}`);
  });

  test('a suspended agent is removed and their chat goes to another online agent; a removed one\'s chat waits in the queue', async () => {
    const leaving = await addAgent(host, { max: 1, name: 'Lea' });
    const v = await visitor(host, widgetToken);
    const started = await v.start('Where is my parcel?');
    expect(started.status).toBe(201);
    const id = started.body.conversation.id as number;
    expect(await conversation(id)).toMatchObject({ status: 'active', agent_id: leaving.id });
    const staying = await addAgent(host, { max: 1, name: 'Stan' });

    expect((await host.request('PATCH', `/members/${leaving.userId}`, { status: 'suspended' })).status).toBe(200);
    await host.eventually(async () => expect(await conversation(id)).toMatchObject({ status: 'active', agent_id: staying.id }), 15_000);
    expect(await agentIds()).not.toContain(leaving.id);

    // Stan is full now; when his membership is removed, the chat has nobody to go to and waits.
    expect((await host.request('DELETE', `/members/${staying.userId}`)).status).toBe(200);
    await host.eventually(async () => expect(await conversation(id)).toMatchObject({ status: 'pending', agent_id: null }), 15_000);
    expect(await agentIds()).not.toContain(staying.id);

    // The queue hands it to the next agent who comes online.
    const next = await addAgent(host, { name: 'Nia' });
    expect(await conversation(id)).toMatchObject({ status: 'active', agent_id: next.id });
  }, 60_000);
});

describe('spec 2 Live chat: an agent whose account a super admin deactivates (core: PATCH /admin/users/{id})', () => {
  test('is removed as an agent and their chat goes to another online agent', async () => {
    const leaving = await addAgent(host, { max: 1, name: 'Dev Deactivated' });
    const v = await visitor(host, widgetToken);
    const id = (await v.start('Can I change my address?')).body.conversation.id as number;
    expect(await conversation(id)).toMatchObject({ status: 'active', agent_id: leaving.id });
    const staying = await addAgent(host, { max: 1, name: 'Sol Staying' });
    const off = await host.request('PATCH', `/admin/users/${leaving.userId}`, { status: 'inactive' });
    expect(off.status).toBe(200);
    await host.eventually(async () => expect(await conversation(id)).toMatchObject({ status: 'active', agent_id: staying.id }), 15_000);
    expect(await agentIds()).not.toContain(leaving.id);
    // Their own calls stop at once: the token was revoked.
    expect((await requestAs(host, leaving.token, 'GET', '/live-chat/agents/me')).status).toBe(401);
  }, 60_000);
});
