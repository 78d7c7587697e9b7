/**
 * Spec 2, Workflows ("runs on a manual call, a schedule, an incoming webhook or a platform event")
 * and Public webhook trigger: the 6-node workflow with a condition branch runs end to end from each
 * automatic trigger; a wrong or missing signature is refused writing nothing; an event delivered
 * twice starts one execution; only active workflows fire.
 */
import { createHmac } from 'node:crypto';
import type { TestHost } from '../../sdk/testing';
import { bigOrder, settled, sixNodes, smallOrder, startHost } from './support';

describe('spec 2 triggers: schedule, webhook, event', () => {
  let host: TestHost;
  const executions = async (workflowId: string) => (await host.request('GET', `/workflows/${workflowId}/executions`)).body.data as Array<{ id: string; status: string; trigger_type: string; trigger_data: unknown }>;
  const activeWorkflow = async (body: Record<string, unknown>) => {
    const created = await host.request('POST', '/workflows', body);
    if (created.status !== 201) throw new Error(JSON.stringify(created.body));
    const active = await host.request('POST', `/workflows/${created.body.data.id}/activate`);
    if (active.status !== 200) throw new Error(JSON.stringify(active.body));
    return created.body.data as { id: string; webhook_secret: string };
  };
  const hook = (token: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${host.url}/api/webhooks/workflows/${token}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

  beforeAll(async () => {
    host = await startHost();
  }, 240_000);
  afterAll(() => host?.close());

  describe('spec 2 Public webhook trigger: POST /api/webhooks/workflows/{token}', () => {
    let wf: { id: string; webhook_secret: string };
    let token: string;
    beforeAll(async () => {
      wf = await activeWorkflow(sixNodes({ node_type: 'workflows:webhook-trigger' }, { trigger_type: 'webhook', trigger_config: { require_signature: true } }));
      const url = await host.request('GET', `/workflows/${wf.id}/webhook-url`);
      expect(url.body.data).toEqual({ url: expect.stringMatching(/\/api\/webhooks\/workflows\/[0-9a-f]{48}$/), method: 'POST', token: expect.any(String) });
      token = url.body.data.token;
    });
    const sign = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

    test('a signed call runs the workflow end to end', async () => {
      const body = JSON.stringify({ event: 'order.paid', data: bigOrder });
      const res = await hook(token, body, { 'x-webhook-signature': sign(wf.webhook_secret, body) });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('120');
      const json = (await res.json()) as { data: { execution_id: string } };
      expect(json).toEqual({ success: true, message: expect.any(String), data: { execution_id: expect.any(String) } });
      const run = await settled(host, json.data.execution_id);
      expect(run).toMatchObject({ status: 'completed', trigger_type: 'webhook', trigger_data: bigOrder });
      expect(run.logs.map((l) => l.node_label)).toEqual(['Start', 'Remember', 'Big?', 'Shape', 'Mail']);
    });

    test('a burst of calls at once: each its own execution with its own data, every one completed (their INSERTs share statements)', async () => {
      const bodies = Array.from({ length: 25 }, (_, n) => JSON.stringify({ data: { ...bigOrder, burst: n } }));
      const answers = await Promise.all(bodies.map(async (body) => (await hook(token, body, { 'x-webhook-signature': sign(wf.webhook_secret, body) })).json()));
      const ids = answers.map((a) => (a as { data: { execution_id: string } }).data.execution_id);
      expect(new Set(ids).size).toBe(25);
      const runs = [];
      for (const id of ids) runs.push(await settled(host, id));
      expect(runs.map((r) => (r.trigger_data as { burst: number }).burst)).toEqual(bodies.map((_, n) => n));
      expect(runs.map((r) => r.status)).toEqual(bodies.map(() => 'completed'));
    });

    test('a wrong or missing signature is 401 and writes nothing', async () => {
      const before = (await executions(wf.id)).length;
      const body = JSON.stringify({ data: bigOrder });
      for (const headers of [{} as Record<string, string>, { 'x-webhook-signature': sign('whsec_wrong', body) }, { 'x-webhook-signature': 'sha256=zz' }, { 'x-webhook-signature': sign(wf.webhook_secret, `${body} `) }]) {
        const res = await hook(token, body, headers);
        expect(res.status).toBe(401);
        expect(await res.json()).toMatchObject({ success: false, message: 'Unauthenticated' });
      }
      expect((await executions(wf.id)).length).toBe(before);
    });

    test('a rotated secret replaces the old one', async () => {
      const rotated = await host.request('POST', `/workflows/${wf.id}/webhook-secret`);
      expect(rotated.body.data.webhook_secret).toMatch(/^whsec_/);
      const body = JSON.stringify({ data: smallOrder });
      expect((await hook(token, body, { 'x-webhook-signature': sign(wf.webhook_secret, body) })).status).toBe(401);
      expect((await hook(token, body, { 'x-webhook-signature': sign(rotated.body.data.webhook_secret, body) })).status).toBe(200);
      wf.webhook_secret = rotated.body.data.webhook_secret;
    });

    test('each call runs the workflow as last saved, and a deactivated one does not fire', async () => {
      const call = async () => {
        const body = JSON.stringify({ data: bigOrder });
        return hook(token, body, { 'x-webhook-signature': sign(wf.webhook_secret, body) });
      };
      const first = (await (await call()).json()) as { data: { execution_id: string } };
      expect((await settled(host, first.data.execution_id)).logs.map((l) => l.node_label)).toEqual(['Start', 'Remember', 'Big?', 'Shape', 'Mail']);
      // The graph a webhook call read is reused only while the workflow is unchanged.
      const saved = await host.request('PUT', `/workflows/${wf.id}`, {
        nodes: [
          { node_type: 'workflows:webhook-trigger', label: 'Start' },
          { node_type: 'workflows:set-variable', label: 'Renamed', config: { name: 'x', value: '{{total}}' } },
        ],
        connections: [{ source_node_index: 0, target_node_index: 1 }],
      });
      expect(saved.status).toBe(200);
      const second = (await (await call()).json()) as { data: { execution_id: string } };
      expect((await settled(host, second.data.execution_id)).logs.map((l) => l.node_label)).toEqual(['Start', 'Renamed']);
      expect((await host.request('POST', `/workflows/${wf.id}/deactivate`)).status).toBe(200);
      expect((await call()).status).toBe(400);
      expect((await host.request('POST', `/workflows/${wf.id}/activate`)).status).toBe(200);
    });

    test('an unknown token is 404; a draft webhook workflow does not fire', async () => {
      expect((await hook('f'.repeat(48), '{}')).status).toBe(404);
      const draft = (await host.request('POST', '/workflows', sixNodes({ node_type: 'workflows:webhook-trigger' }, { trigger_type: 'webhook' }))).body.data;
      const draftToken = (await host.request('GET', `/workflows/${draft.id}/webhook-url`)).body.data.token;
      const res = await hook(draftToken, JSON.stringify({ data: bigOrder }));
      expect(res.status).toBe(400);
      expect(await executions(draft.id)).toEqual([]);
    });
  });

  describe('spec 2 event trigger: trigger_config.event', () => {
    test('an event delivered twice starts one execution, which runs end to end', async () => {
      const wf = await activeWorkflow(sixNodes({ node_type: 'workflows:event-trigger', config: { event: 'order.created' } }, { trigger_type: 'event', trigger_config: { event: 'order.created' } }));
      const eventId = await host.emit('order.created', bigOrder);
      const first = await host.eventually(async () => {
        const runs = await executions(wf.id);
        if (runs.length !== 1) throw new Error(`${runs.length} runs`);
        return runs[0];
      });
      // Redeliveries at once share one INSERT: its trigger key still writes one execution.
      expect(await Promise.all([1, 2, 3].map(() => host.redeliver(eventId, 'core:workflows')))).toEqual(['completed', 'completed', 'completed']);
      const run = await settled(host, first.id);
      expect(run).toMatchObject({ status: 'completed', trigger_type: 'event', trigger_data: bigOrder });
      expect(run.logs).toHaveLength(5);
      expect(await executions(wf.id)).toHaveLength(1);
      await host.emit('order.updated', bigOrder);
      await host.emit('order.created', smallOrder);
      await host.eventually(async () => {
        if ((await executions(wf.id)).length !== 2) throw new Error('second event not run');
      });
    });
  });

  describe('spec 2 schedule trigger: trigger_config.cron', () => {
    /** The schedule fires only its current slot: the platform clock is there when it runs. */
    const fireAt = (at: number) => {
      host.clock.set(at);
      return host.runSchedule('workflow_schedules', { at });
    };
    afterEach(() => host.clock.reset());

    test('a due cron slot starts one run per slot, however often the tick comes', async () => {
      const wf = await activeWorkflow(sixNodes({ node_type: 'workflows:schedule-trigger', config: { cron: '*/5 * * * *' } }, { trigger_type: 'schedule', trigger_config: { cron: '*/5 * * * *', timezone: 'Asia/Kolkata' } }));
      const slot = Date.parse('2026-03-01T10:05:00Z');
      expect(await fireAt(slot)).toEqual({ started: 1 });
      expect(await fireAt(slot)).toEqual({ started: 0 });
      expect(await fireAt(slot + 60_000)).toEqual({ started: 0 });
      const [run] = await executions(wf.id);
      expect(run).toMatchObject({ trigger_type: 'schedule', trigger_data: { scheduled_at: '2026-03-01T10:05:00.000Z' } });
      const done = await settled(host, run.id);
      // No total in the schedule's data: the condition takes the false branch to the code node.
      expect(done.logs.map((l) => l.node_label)).toEqual(['Start', 'Remember', 'Big?', 'Small']);
    });

    test('the cron reads in trigger_config.timezone, and in UTC without one', async () => {
      const daily = (trigger_config: Record<string, unknown>) => sixNodes({ node_type: 'workflows:schedule-trigger', config: { cron: '0 9 * * *' } }, { trigger_type: 'schedule', trigger_config });
      const kolkata = await activeWorkflow(daily({ cron: '0 9 * * *', timezone: 'Asia/Kolkata' }));
      const utc = await activeWorkflow(daily({ cron: '0 9 * * *' }));
      // 09:00 in Kolkata is 03:30 UTC.
      await fireAt(Date.parse('2026-03-02T03:30:00Z'));
      await fireAt(Date.parse('2026-03-02T09:00:00Z'));
      const slots = async (id: string) => (await executions(id)).map((e) => (e.trigger_data as { scheduled_at: string }).scheduled_at);
      expect(await slots(kolkata.id)).toEqual(['2026-03-02T03:30:00.000Z']);
      expect(await slots(utc.id)).toEqual(['2026-03-02T09:00:00.000Z']);
    });

    test.each([
      ['an unknown zone', { cron: '0 9 * * *', timezone: 'Mars/Olympus' }, 'trigger_config.timezone'],
      ['an offset, not an IANA name', { cron: '0 9 * * *', timezone: '+05:30' }, 'trigger_config.timezone'],
      ['a zone that is not a string', { cron: '0 9 * * *', timezone: 530 }, 'trigger_config.timezone'],
      ['a cron that does not parse', { cron: '61 * * * *' }, 'trigger_config.cron'],
    ])('%s is 422 naming trigger_config, on create and on update, and nothing is written', async (what, trigger_config, field) => {
      const body = sixNodes({ node_type: 'workflows:schedule-trigger', config: { cron: '0 9 * * *' } }, { name: what, trigger_type: 'schedule', trigger_config });
      const created = await host.request('POST', '/workflows', body);
      expect(created.status).toBe(422);
      expect(created.body).toEqual({ success: false, message: 'Validation failed', errors: { [field]: [expect.stringMatching(field.endsWith('timezone') ? /IANA time zone name/ : /cron expression/)] } });
      expect((await host.request('GET', `/workflows?search=${encodeURIComponent(what)}`)).body.data).toEqual([]);
      const wf = (await host.request('POST', '/workflows', { ...body, trigger_config: { cron: '0 9 * * *' } })).body.data;
      const updated = await host.request('PUT', `/workflows/${wf.id}`, { trigger_config });
      expect(updated.status).toBe(422);
      expect((await host.request('GET', `/workflows/${wf.id}`)).body.data.trigger_config).toEqual({ cron: '0 9 * * *' });
    });
  });
});
