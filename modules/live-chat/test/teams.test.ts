/**
 * Teams (beyond spec 2, README Teams; the assignment rules are spec 2's, Endpoints: automatic
 * assignment rule): CRUD and members; a team's conversation goes only to the team's online agents,
 * waits for them without holding up the general queue; widgets route to a team; an agent in several
 * teams; routing an assigned conversation to a team its agent is not in requeues it; deleting a team
 * puts its queued conversations back in the general queue.
 */
import type { TestHost } from '../../../sdk/testing';
import { addAgent, createWidget, setStatus, startHost, visitor } from './support';

let host: TestHost;
beforeAll(async () => {
  host = await startHost();
}, 120_000);
afterAll(() => host?.close());

const conversation = async (id: number) => (await host.request('GET', `/live-chat/conversations/${id}`)).body;
const team = async (name: string) => {
  const res = await host.request('POST', '/live-chat/teams', { name });
  expect(res.status).toBe(201);
  return res.body.id as number;
};
const join = async (teamId: number, agentId: number) => expect((await host.request('POST', `/live-chat/teams/${teamId}/agents`, { agent_id: agentId })).status).toBe(200);

describe('live chat teams (beyond spec 2; spec 2 assignment rules within a team)', () => {
  test('CRUD: unique name (409 TEAM_EXISTS), members listed, an agent in several teams, 404 and 422 in the spec shapes', async () => {
    const a = await addAgent(host, { online: false, name: 'Tara' });
    const sales = await team('Sales');
    const support = await team('Support');
    const dup = await host.request('POST', '/live-chat/teams', { name: 'Sales' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('TEAM_EXISTS');
    await join(sales, a.id);
    await join(sales, a.id); // twice is one membership
    await join(support, a.id);
    const got = await host.request('GET', `/live-chat/teams/${sales}`);
    expect(got.body).toMatchObject({ id: sales, name: 'Sales', description: null, agents: [{ id: a.id, name: 'Tara' }] });
    expect(got.body.agents).toHaveLength(1);
    expect((await host.request('GET', '/live-chat/teams')).body.data.filter((t: { agents: { id: number }[] }) => t.agents.some((x) => x.id === a.id))).toHaveLength(2);
    const renamed = await host.request('PUT', `/live-chat/teams/${support}`, { name: 'Support EU', description: 'Europe' });
    expect(renamed.body).toMatchObject({ name: 'Support EU', description: 'Europe' });
    expect((await host.request('PUT', `/live-chat/teams/${support}`, { name: 'Sales' })).status).toBe(409);
    expect((await host.request('DELETE', `/live-chat/teams/${sales}/agents/${a.id}`)).body.agents).toEqual([]);
    const missing = await host.request('GET', '/live-chat/teams/999999');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
    expect((await host.request('POST', `/live-chat/teams/${sales}/agents`, { agent_id: 999999 })).status).toBe(404);
    expect((await host.request('POST', '/live-chat/teams', { name: '' })).status).toBe(422);
    const badWidget = await host.request('POST', '/live-chat/widgets', { name: 'W', team_id: 999999 });
    expect(badWidget.status).toBe(422);
    expect(badWidget.body.details.errors.team_id).toBeDefined();
  });

  test("a widget's team: its conversations go to the team's agents only and wait for them, without holding up the general queue", async () => {
    const teamId = await team('Billing');
    const outsider = await addAgent(host, { name: 'Omar', max: 5 });
    const insider = await addAgent(host, { name: 'Ines', max: 5, online: false });
    await join(teamId, insider.id);
    const billing = await createWidget(host, { name: 'Billing chat', team_id: teamId });
    expect(billing.team_id).toBe(teamId);
    const general = await createWidget(host, { name: 'General chat' });

    const first = (await (await visitor(host, billing.token)).start('Invoice question')).body.conversation.id;
    // Nobody of the team online: the team's conversation waits, even though Omar has room…
    expect(await conversation(first)).toMatchObject({ status: 'pending', agent_id: null, team_id: teamId });
    // …and a general conversation behind it is assigned at once.
    const second = (await (await visitor(host, general.token)).start('Where is my parcel?')).body.conversation.id;
    expect(await conversation(second)).toMatchObject({ status: 'active', agent_id: outsider.id, team_id: null });
    // The team's agent comes online and takes it.
    await setStatus(host, insider, 'online');
    expect(await conversation(first)).toMatchObject({ status: 'active', agent_id: insider.id });
    expect((await host.request('GET', `/live-chat/conversations?team_id=${teamId}`)).body.data.map((c: { id: number }) => c.id)).toEqual([first]);
    for (const a of [outsider, insider]) await setStatus(host, a, 'offline');
  });

  test('routing an assigned conversation to a team its agent is not in hands it to the team; deleting the team puts its queue back in the general one', async () => {
    const teamId = await team('Returns');
    const general = await createWidget(host, { name: 'Shop' });
    const gus = await addAgent(host, { name: 'Gus', max: 1 });
    const id = (await (await visitor(host, general.token)).start('I want to return a shirt')).body.conversation.id;
    expect((await conversation(id)).agent_id).toBe(gus.id);
    const rita = await addAgent(host, { name: 'Rita', max: 5 });
    await join(teamId, rita.id);
    const routed = await host.request('PUT', `/live-chat/conversations/${id}/team`, { team_id: teamId });
    expect(routed.status).toBe(200);
    expect(routed.body).toMatchObject({ team_id: teamId, agent_id: rita.id, status: 'active' });
    expect((await host.request('GET', `/live-chat/agents/${gus.id}`)).body.current_chats_count).toBe(0);

    // Rita goes offline; a new conversation routed to the team waits; Gus (not in it) has room.
    await setStatus(host, rita, 'offline');
    await setStatus(host, gus, 'away');
    const queued = (await (await visitor(host, general.token)).start('Another return')).body.conversation.id;
    expect((await host.request('PUT', `/live-chat/conversations/${queued}/team`, { team_id: teamId })).body).toMatchObject({ status: 'pending', agent_id: null });
    await setStatus(host, gus, 'online');
    expect((await conversation(queued)).agent_id).toBeNull();
    const deleted = await host.request('DELETE', `/live-chat/teams/${teamId}`);
    expect(deleted.body).toEqual({ deleted: true, id: teamId, requeued: 1 });
    // Back in the general queue: Gus takes it.
    expect(await conversation(queued)).toMatchObject({ team_id: null, agent_id: gus.id, status: 'active' });
    expect((await conversation(id)).team_id).toBeNull();
    expect((await host.request('GET', `/live-chat/teams/${teamId}`)).status).toBe(404);
    for (const a of [gus, rita]) await setStatus(host, a, 'offline');
  });
});
