/**
 * spec 2, Endpoints: automatic assignment rule; Limits: agent concurrency (max_concurrent_chats
 * default 5). The lowest workload among online agents with a free slot wins (ties: longest idle);
 * none available → pending; queued conversations go out in arrival order when an agent comes online
 * or frees a slot; counters stay exact when many conversations start at once.
 */
import type { TestHost } from '../../../sdk/testing';
import { addAgent, createWidget, requestAs, setStatus, startHost, type Agent } from './support';

let host: TestHost;
let token: string;
beforeAll(async () => {
  host = await startHost();
  token = (await createWidget(host, { name: 'Assignment' })).token;
}, 120_000);
afterAll(() => host?.close());

/** Starts a conversation over the bus (as the public route would, without its per-address limit). */
async function start(message: string): Promise<number> {
  const s = await host.call<{ session_id: string }>('live_chat.start_session', { token, name: 'Load', email: 'load@example.com' });
  const c = await host.call<{ conversation: { id: number } }>('live_chat.start_conversation', { token, session_id: s.session_id, message });
  return c.conversation.id;
}

const agentRows = async () => (await host.request('GET', '/live-chat/agents')).body.data as Array<{ id: number; current_chats_count: number; max_concurrent_chats: number; status: string }>;
const conversation = async (id: number) => (await host.request('GET', `/live-chat/conversations/${id}`)).body;
/** Conversations each agent actually holds, from the conversations themselves. */
async function held(): Promise<Map<number, number>> {
  const rows = await host.sql<{ agent_id: number; n: string }>(`SELECT agent_id, count(*) AS n FROM live_chat.conversations WHERE status IN ('active', 'waiting') AND agent_id IS NOT NULL GROUP BY agent_id`);
  return new Map(rows.map((r) => [Number(r.agent_id), Number(r.n)]));
}
async function offlineAll(agents: Agent[]) {
  for (const a of agents) await setStatus(host, a, 'offline');
}
async function closeAll() {
  const open = (await host.request('GET', '/live-chat/conversations?status=pending,active,waiting&per_page=100')).body.data as Array<{ id: number }>;
  for (const c of open) await host.request('POST', `/live-chat/conversations/${c.id}/close`);
}

describe('spec 2 automatic assignment under concurrency', () => {
  test('100 conversations started at once over 10 agents (max 5): nobody over the maximum, counters exact, the rest queued', async () => {
    const agents: Agent[] = [];
    for (let i = 0; i < 10; i++) agents.push(await addAgent(host));
    const ids = await Promise.all(Array.from({ length: 100 }, (_, i) => start(`at once ${i}`)));
    expect(new Set(ids).size).toBe(100);
    const rows = (await agentRows()).filter((r) => agents.some((a) => a.id === r.id));
    const holding = await held();
    for (const r of rows) {
      expect(r.current_chats_count).toBeLessThanOrEqual(r.max_concurrent_chats);
      expect(r.current_chats_count).toBe(holding.get(r.id) ?? 0);
      expect(r.current_chats_count).toBe(5);
      expect(r.status).toBe('busy');
    }
    const statuses = await host.sql<{ status: string; n: string }>(`SELECT status, count(*) AS n FROM live_chat.conversations WHERE id = ANY($1) GROUP BY status ORDER BY status`, [ids]);
    expect(statuses.map((s) => [s.status, Number(s.n)])).toEqual([
      ['active', 50],
      ['pending', 50],
    ]);
    // The queue drains in arrival order as slots free: close one chat of agent 0, the oldest pending conversation goes to it.
    const pending = (await host.sql<{ id: number }>(`SELECT id FROM live_chat.conversations WHERE id = ANY($1) AND status = 'pending' ORDER BY id`, [ids])).map((r) => Number(r.id));
    const mine = (await host.sql<{ id: number }>(`SELECT id FROM live_chat.conversations WHERE agent_id = $1 AND status = 'active' ORDER BY id LIMIT 1`, [agents[0].id]))[0].id;
    await requestAs(host, agents[0].token, 'POST', `/live-chat/conversations/${mine}/resolve`);
    expect(await conversation(pending[0])).toMatchObject({ status: 'active', agent_id: agents[0].id });
    expect((await conversation(pending[1])).status).toBe('pending');
    await offlineAll(agents);
    await closeAll();
  }, 120_000);

  test('lowest workload wins; ties go to the longest idle; away and full agents get nothing', async () => {
    const idle = await addAgent(host, { name: 'Idle' });
    const busyOne = await addAgent(host, { name: 'Busy one' });
    const away = await addAgent(host, { name: 'Away' });
    await setStatus(host, away, 'away');
    // busyOne takes the first chat (tie at 0: idle went online first, so it was idle longer… and wins).
    const first = await start('one');
    expect((await conversation(first)).agent_id).toBe(idle.id);
    const second = await start('two');
    expect((await conversation(second)).agent_id).toBe(busyOne.id); // lower workload (0 < 1)
    // Both at 1: the one idle longest (last_active_at oldest) wins. busyOne reports activity now.
    await setStatus(host, busyOne, 'online');
    const third = await start('three');
    expect((await conversation(third)).agent_id).toBe(idle.id);
    const rows = await agentRows();
    expect(rows.find((r) => r.id === away.id)?.current_chats_count).toBe(0);
    await offlineAll([idle, busyOne, away]);
    await closeAll();
  }, 60_000);

  test('with nobody online conversations wait (pending) and go out in arrival order when an agent comes online', async () => {
    const ids = [await start('q1'), await start('q2'), await start('q3')];
    for (const id of ids) expect(await conversation(id)).toMatchObject({ status: 'pending', agent_id: null });
    const late = await addAgent(host, { max: 2, online: false, name: 'Late' });
    await setStatus(host, late, 'online');
    expect(await conversation(ids[0])).toMatchObject({ status: 'active', agent_id: late.id });
    expect(await conversation(ids[1])).toMatchObject({ status: 'active', agent_id: late.id });
    expect(await conversation(ids[2])).toMatchObject({ status: 'pending', agent_id: null });
    expect((await requestAs(host, late.token, 'GET', '/live-chat/agents/me')).body).toMatchObject({ current_chats_count: 2, status: 'busy', total_chats_count: 2 });
    await requestAs(host, late.token, 'POST', `/live-chat/conversations/${ids[0]}/close`);
    expect(await conversation(ids[2])).toMatchObject({ status: 'active', agent_id: late.id });
    await offlineAll([late]);
    await closeAll();
  }, 60_000);

  test('the database refuses a counter over the maximum, whatever the code does', async () => {
    const a = await addAgent(host, { max: 1, online: false });
    await expect(host.arrange((sql) => sql('UPDATE live_chat.agents SET current_chats_count = 2 WHERE id = $1', [a.id]))).rejects.toThrow(/agents_chats_in_bounds/);
  });
});
