/**
 * Live chat reports (beyond spec 2, README Reports) over HTTP on a real platform: conversations made
 * through the widget and agent APIs at times the test host's clock sets, so first response time,
 * resolution time and CSAT come out exact, in total, per agent, per team and per day/week/month.
 */
import type { TestHost } from '../../../sdk/testing';
import { addAgent, createWidget, requestAs, startHost, visitor, widgetCall, type Agent } from './support';

let host: TestHost;
let a: Agent;
let b: Agent;
let teamId: number;
let token: string;
const ids: Record<string, number> = {};

const at = (iso: string) => host.clock.freeze(new Date(iso));
const later = (seconds: number) => host.clock.advance(seconds * 1000);

/** A conversation started by a new visitor at `start`, optionally routed to the team and assigned; returns its id and the visitor's session. */
async function conversation(start: string, opts: { team?: boolean; agent?: Agent } = {}) {
  at(start);
  const v = await visitor(host, token, { name: 'Rahul', email: 'rahul@example.com' });
  const started = await v.start('Where is my order?');
  expect(started.status).toBe(201);
  const id = started.body.conversation.id as number;
  if (opts.team) expect((await host.request('PUT', `/live-chat/conversations/${id}/team`, { team_id: teamId })).status).toBe(200);
  if (opts.agent) expect((await host.request('POST', `/live-chat/conversations/${id}/assign`, { agent_id: opts.agent.id })).status).toBe(200);
  const rate = async (rating: number) => expect((await widgetCall(host, token, 'POST', `/conversations/${id}/rate`, { session_id: v.sessionId, rating })).status).toBe(200);
  return { id, rate };
}

const say = async (agent: Agent, id: number, content: string, isInternal = false) =>
  expect((await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/messages`, { content, is_internal: isInternal })).status).toBe(201);
const end = async (agent: Agent, id: number, how: 'resolve' | 'close') => expect((await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/${how}`)).status).toBe(200);

beforeAll(async () => {
  host = await startHost();
  a = await addAgent(host, { name: 'Asha', online: false });
  b = await addAgent(host, { name: 'Bala', online: false });
  teamId = (await host.request('POST', '/live-chat/teams', { name: 'Billing' })).body.id;
  token = (await createWidget(host, { collect_name: false, collect_email: false })).token;

  // c1: Asha, Billing. A note at +30 s is not a response; the reply at +90 s is. Resolved at +600 s, rated 5.
  const c1 = await conversation('2026-10-05T09:00:00Z', { team: true, agent: a });
  later(30);
  await say(a, c1.id, 'checking the warehouse', true);
  later(60);
  await say(a, c1.id, 'It left today.');
  later(510);
  await end(a, c1.id, 'resolve');
  await c1.rate(5);
  // c2: Asha, no team: answered at +30 s, closed (not resolved) at +1800 s, rated 2.
  const c2 = await conversation('2026-10-06T10:00:00Z', { agent: a });
  later(30);
  await say(a, c2.id, 'Let me look.');
  later(1770);
  await end(a, c2.id, 'close');
  await c2.rate(2);
  // c3: Bala, Billing, the next week: answered at +300 s, resolved at +3600 s and closed later (resolution stays 3600), rated 4.
  const c3 = await conversation('2026-10-12T08:00:00Z', { team: true, agent: b });
  later(300);
  await say(b, c3.id, 'Hello!');
  later(3300);
  await end(b, c3.id, 'resolve');
  later(3600);
  await end(b, c3.id, 'close');
  await c3.rate(4);
  // c4: nobody took it: counted as a conversation, in no agent's row, with no time or rating.
  ids.c4 = (await conversation('2026-10-12T12:00:00Z')).id;
  // Outside the period on either side (from 2026-10-01, to 2026-10-31 taking its whole day).
  const before = await conversation('2026-09-30T23:59:59Z', { agent: b });
  later(5);
  await say(b, before.id, 'too early');
  const after = await conversation('2026-11-01T00:00:00Z', { agent: b });
  later(5);
  await say(b, after.id, 'too late');
  host.clock.reset();
}, 180_000);
afterAll(async () => {
  host?.clock.reset();
  await host?.close();
});

const PERIOD = 'from=2026-10-01&to=2026-10-31';
const metrics = (conversations: number, frt: number[], res: number[], csat: [number, number | null, number | null]) => ({
  conversations,
  first_response: { count: frt.length ? frt[0] : 0, average_seconds: frt[1] ?? null, median_seconds: frt[2] ?? null },
  resolution: { count: res.length ? res[0] : 0, average_seconds: res[1] ?? null, median_seconds: res[2] ?? null },
  csat: { count: csat[0], average: csat[1], satisfied_percent: csat[2] },
});

describe('live chat reports (beyond spec 2, README Reports)', () => {
  test('totals: FRT is the first agent reply after the visitor (notes do not count), resolution ends at resolved else closed, CSAT over ratings', async () => {
    const res = await host.request('GET', `/live-chat/reports/overview?${PERIOD}&group_by=month`);
    expect(res.status).toBe(200);
    expect(res.body.from).toBe('2026-10-01T00:00:00.000Z');
    expect(res.body.to).toBe('2026-11-01T00:00:00.000Z');
    // FRT 90, 30, 300; resolution 600, 1800, 3600; ratings 5, 2, 4.
    expect(res.body.totals).toEqual(metrics(4, [3, 140, 90], [3, 2000, 1800], [3, 3.67, 66.67]));
    expect(res.body.periods).toEqual([{ period: '2026-10-01', ...res.body.totals }]);
  });

  test('per week (Monday, UTC) and per day: every period of the range, the empty ones too', async () => {
    const weeks = (await host.request('GET', `/live-chat/reports/overview?${PERIOD}&group_by=week`)).body.periods;
    const empty = metrics(0, [], [], [0, null, null]);
    expect(weeks).toEqual([
      { period: '2026-09-28', ...empty },
      { period: '2026-10-05', ...metrics(2, [2, 60, 60], [2, 1200, 1200], [2, 3.5, 50]) },
      { period: '2026-10-12', ...metrics(2, [1, 300, 300], [1, 3600, 3600], [1, 4, 100]) },
      { period: '2026-10-19', ...empty },
      { period: '2026-10-26', ...empty },
    ]);
    const days = (await host.request('GET', `/live-chat/reports/overview?${PERIOD}`)).body;
    expect(days.group_by).toBe('day');
    expect(days.periods).toHaveLength(31);
    expect(days.periods[5]).toEqual({ period: '2026-10-06', ...metrics(1, [1, 30, 30], [1, 1800, 1800], [1, 2, 0]) });
  });

  test('per agent (the assigned one) and per team (null: no team)', async () => {
    const agents = await host.request('GET', `/live-chat/reports/agents?${PERIOD}`);
    expect(agents.status).toBe(200);
    expect(agents.body.data).toEqual([
      { agent_id: a.id, name: 'Asha', ...metrics(2, [2, 60, 60], [2, 1200, 1200], [2, 3.5, 50]) },
      { agent_id: b.id, name: 'Bala', ...metrics(1, [1, 300, 300], [1, 3600, 3600], [1, 4, 100]) },
    ]);
    const teams = await host.request('GET', `/live-chat/reports/teams?${PERIOD}`);
    expect(teams.body.data).toEqual([
      { team_id: teamId, name: 'Billing', ...metrics(2, [2, 195, 195], [2, 2100, 2100], [2, 4.5, 100]) },
      { team_id: null, name: null, ...metrics(2, [1, 30, 30], [1, 1800, 1800], [1, 2, 0]) },
    ]);
    expect(teams.body.totals).toEqual(agents.body.totals);
  });

  test('a date-time period, and refused periods and groups (422)', async () => {
    const hours = await host.request('GET', '/live-chat/reports/overview?from=2026-10-12T07:00:00Z&to=2026-10-12T09:00:00Z&group_by=day');
    expect(hours.body.totals.conversations).toBe(1);
    const refused = async (q: string, field: string) => {
      const res = await host.request('GET', `/live-chat/reports/overview?${q}`);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.details.errors[field]).toHaveLength(1);
    };
    await refused('from=2026-10-31&to=2026-10-01', 'to');
    await refused('from=2020-01-01&to=2026-10-01', 'from');
    await refused('from=yesterday-ish&to=2026-10-01', 'from');
    // The host's own input check (spec 1, validation errors: {message, errors}).
    const group = await host.request('GET', `/live-chat/reports/overview?${PERIOD}&group_by=year`);
    expect(group.status).toBe(422);
    expect(group.body.errors.group_by).toHaveLength(1);
  });

  test('needs live_chat.reports: an agent (view, reply) is refused, a member with the permission reads', async () => {
    expect((await requestAs(host, a.token, 'GET', `/live-chat/reports/agents?${PERIOD}`)).status).toBe(403);
    expect((await host.request('POST', '/roles', { name: 'chat-lead', description: 'Reads reports.', permissions: ['live_chat.reports'] })).status).toBe(201);
    const lead = await host.addMember({ email: `lead.${Date.now()}@shop.example`, role: 'chat-lead', name: 'Lead' });
    const res = await requestAs(host, lead.token, 'GET', `/live-chat/reports/teams?${PERIOD}`);
    expect(res.status).toBe(200);
    expect(res.body.totals.conversations).toBe(4);
  });
});
