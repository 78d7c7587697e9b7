/**
 * A member who leaves keeps no hands in the tenant through their workflows (spec 2, Workflows;
 * Execution; Public webhook trigger): once the owner is suspended or removed, every trigger's run
 * fails with WORKFLOW_OWNER_INACTIVE (a webhook, an event, a schedule, a wait that ends, a person),
 * the workflow is paused with the reason on it, and those who may manage workflows are notified.
 */
import type { TestHost } from '../../sdk/testing';
import { settled, startHost } from '../workflows/support';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test

const graph = (name: string, trigger: { node_type: string; config?: Json }, extra: Json = {}, middle: Json[] = []) => ({
  name,
  trigger_type: 'manual',
  ...extra,
  nodes: [{ node_type: trigger.node_type, label: 'Start', config: trigger.config ?? {} }, ...middle, { node_type: 'workflows:transform', label: 'Done', config: { values: { ok: true } } }],
  connections: [...middle, null].map((_, i) => ({ source_node_index: i, target_node_index: i + 1 })),
});

describe('hostile: an inactive owner\'s workflows stop on every trigger (spec 2, Workflows; Execution; Public webhook trigger)', () => {
  let host: TestHost;
  const members: Record<string, { token: string; userId: number }> = {};

  const executions = async (id: string): Promise<Json[]> => (await host.request('GET', `/workflow-executions?workflow_id=${id}`)).body.data;
  const workflow = async (id: string): Promise<Json> => (await host.request('GET', `/workflows/${id}`)).body.data;
  const activeOf = async (who: string, body: Json): Promise<Json> => {
    const made = await host.requestAs(members[who].token, 'POST', '/workflows', body);
    if (made.status !== 201) throw new Error(JSON.stringify(made.body));
    expect((await host.requestAs(members[who].token, 'POST', `/workflows/${made.body.data.id}/activate`)).status).toBe(200);
    return made.body.data;
  };
  const webhook = async (wf: Json) => {
    const token = (await host.request('GET', `/workflows/${wf.id}/webhook-url`)).body.data.token;
    return fetch(`${host.url}/api/webhooks/workflows/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { total: 1 } }) });
  };

  beforeAll(async () => {
    host = await startHost();
    await host.request('POST', '/roles', { name: 'wf-maker', permissions: ['workflows.view', 'workflows.manage', 'workflows.execute'] });
    for (const who of ['maker', 'leaver']) members[who] = await host.addMember({ email: `${who}@test-org.example`, role: 'wf-maker' });
  }, 240_000);
  afterAll(() => host?.close());

  test('suspended: the webhook, event, schedule and resumed-wait runs fail with WORKFLOW_OWNER_INACTIVE; each workflow is paused with the reason; the admins are notified', async () => {
    const waits = await activeOf('maker', graph('Waits', { node_type: 'workflows:manual-trigger' }, {}, [{ node_type: 'workflows:delay', label: 'Wait', config: { seconds: 2 } }]));
    const hook = await activeOf('maker', graph('Hook', { node_type: 'workflows:webhook-trigger' }, { trigger_type: 'webhook' }));
    const follows = await activeOf('maker', graph('Follows', { node_type: 'workflows:event-trigger', config: { event: 'order.created' } }, { trigger_type: 'event', trigger_config: { event: 'order.created' } }));
    const ticks = await activeOf('maker', graph('Ticks', { node_type: 'workflows:schedule-trigger', config: { cron: '*/5 * * * *' } }, { trigger_type: 'schedule', trigger_config: { cron: '*/5 * * * *' } }));
    // While the owner is active, the run starts and waits.
    const waiting = (await host.requestAs(members.maker.token, 'POST', `/workflows/${waits.id}/execute`, { data: {} })).body.data.execution_id;
    await settled(host, waiting, ['running']);

    expect((await host.request('PATCH', `/members/${members.maker.userId}`, { status: 'suspended' })).status).toBe(200);

    expect((await webhook(hook)).status).toBe(200);
    await host.emit('order.created', { total: 1 }, { settle: true });
    // The schedule fires only its current slot: the clock (which runs on from there) is at a five-minute
    // slot a day ahead, which the platform's own minute tick never reaches during the test.
    const slot = Math.ceil((Date.now() + 86_400_000) / 300_000) * 300_000;
    host.clock.set(slot);
    try {
      expect(await host.runSchedule('workflow_schedules', { at: slot })).toEqual({ started: 1 });
    } finally {
      host.clock.reset();
    }
    for (const wf of [waits, hook, follows, ticks]) {
      const [run] = await host.eventually(async () => {
        const rows = await executions(wf.id);
        if (!rows.length) throw new Error(`${wf.name}: no run yet`);
        return rows;
      });
      const done = await settled(host, run.id);
      expect([wf.name, done.status, done.error_message]).toEqual([wf.name, 'failed', expect.stringContaining('WORKFLOW_OWNER_INACTIVE')]);
      expect(await workflow(wf.id)).toMatchObject({ status: 'paused', paused_reason: expect.stringContaining('WORKFLOW_OWNER_INACTIVE') });
    }
    // The wait ran no node after it, and a paused webhook workflow takes nothing more.
    expect((await settled(host, waiting)).logs.map((l: Json) => l.node_label)).toEqual(['Start', 'Wait']);
    expect((await webhook(hook)).status).toBe(400);

    const notes: Json[] = (await host.request('GET', '/notifications?per_page=50')).body.notifications;
    const paused = notes.filter((n) => n.type === 'workflow.owner_inactive');
    expect(paused.map((n) => n.data.workflow_id).sort()).toEqual([waits.id, hook.id, follows.id, ticks.id].sort());
    expect(paused[0]).toMatchObject({ severity: 'warning', action_url: expect.stringMatching(/^\/workflows\//) });
    // The suspended member is not told: only active members who may manage workflows are.
    const other: Json[] = (await host.requestAs(members.leaver.token, 'GET', '/notifications')).body.notifications;
    expect(other.filter((n) => n.type === 'workflow.owner_inactive').length).toBe(4);
  });

  test('removed: a manual run fails and the workflow pauses; an admin who saves it becomes its owner, activates it, and it runs again', async () => {
    const wf = await activeOf('leaver', graph('Leaver\'s', { node_type: 'workflows:manual-trigger' }));
    const first = await host.requestAs(members.leaver.token, 'POST', `/workflows/${wf.id}/test`, { data: {} });
    expect(first.body.data.status).toBe('completed');

    expect((await host.request('DELETE', `/members/${members.leaver.userId}`)).status).toBe(200);
    const refused = await host.request('POST', `/workflows/${wf.id}/test`, { data: {} });
    expect(refused.body.data).toMatchObject({ status: 'failed', error_message: expect.stringContaining('WORKFLOW_OWNER_INACTIVE') });
    expect(await workflow(wf.id)).toMatchObject({ status: 'paused', owner_id: members.leaver.userId });

    // Turning it on again as it is would only stop it again: it must be taken over first.
    const early = await host.request('POST', `/workflows/${wf.id}/activate`);
    expect([early.status, early.body.code]).toEqual([409, 'WORKFLOW_OWNER_INACTIVE']);
    const saved = await host.request('PUT', `/workflows/${wf.id}`, { description: 'taken over' });
    expect(saved.body.data.owner_id).not.toBe(members.leaver.userId);
    expect((await host.request('POST', `/workflows/${wf.id}/activate`)).status).toBe(200);
    expect(await workflow(wf.id)).toMatchObject({ status: 'active', paused_reason: null });
    expect((await host.request('POST', `/workflows/${wf.id}/test`, { data: {} })).body.data.status).toBe('completed');
  });
});
