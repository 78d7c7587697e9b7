/**
 * A member holding no permission, over GraphQL, tries the operations that once had none: sending a
 * mail from the platform sender to any address, notifying every member, firing the tenant's
 * scheduled workflows for a time slot of their choosing, and running code in the code node's
 * evaluator. An operation reachable from an edge always has a permission (DESIGN.md, wave 3); node
 * and schedule operations are not reachable from any edge at all, and a node runs only when the
 * workflow's owner holds workflows.execute. A GraphQL field a module's schema file binds to a
 * platform operation that names no permission is FORBIDDEN unless the field names one. Beside each
 * refusal, the legitimate path still works.
 */
import path from 'node:path';
import { createTestHost, type TestHost } from '../../sdk/testing';
import { startHost } from '../workflows/support';

type Gql = { status: number; body: { data?: Record<string, unknown> | null; errors?: Array<{ message: string; extensions?: { code?: string } }> } };

describe('hostile: operations without a permission are not member-callable edges', () => {
  let host: TestHost;
  let nobody: string;
  const gql = (token: string, query: string): Promise<Gql> => host.requestAs(token, 'POST', '/graphql', { query });
  /**
   * The member's mutation of `field`: it must have failed without running, because the schema the
   * member sees has no such field (GraphQL's own error: with no module adding a mutation there is no
   * Mutation type at all, else the field is unknown).
   */
  const refused = async (field: string, input: string) => {
    const res = await gql(nobody, `mutation { ${field}(input: ${input}) }`);
    const fields = await gql(nobody, '{ __schema { queryType { fields { name } } mutationType { fields { name } } } }');
    const schema = fields.body.data?.__schema as { queryType: { fields: Array<{ name: string }> }; mutationType: { fields: Array<{ name: string }> } | null };
    const names = [...schema.queryType.fields, ...(schema.mutationType?.fields ?? [])].map((f) => f.name);
    return { ran: !!res.body.data && Object.values(res.body.data).some((v) => v !== null), error: res.body.errors?.[0]?.extensions?.code, inSchema: names.includes(field) };
  };
  const REFUSED = { ran: false, error: expect.stringMatching(/^GRAPHQL_(VALIDATION|EXECUTION)_FAILED$/), inSchema: false };

  beforeAll(async () => {
    host = await startHost();
    nobody = await host.memberWith('nobody', []);
  }, 240_000);
  afterAll(() => host?.close());

  test('send_email over GraphQL is refused and no mail leaves', async () => {
    expect(await refused('workflows_send_email', '{to: "victim@elsewhere.example", subject: "Reset your password", body: "click"}')).toEqual(REFUSED);
    expect((await host.inbox()).filter((m) => m.to.includes('victim@elsewhere.example'))).toEqual([]);
  });

  test('send_notification to every member over GraphQL is refused and nobody is notified', async () => {
    expect(await refused('workflows_send_notification', '{title: "Spam for all"}')).toEqual(REFUSED);
    const mine = await host.request('GET', '/notifications');
    expect(JSON.stringify(mine.body)).not.toContain('Spam for all');
  });

  test("fire_schedules over GraphQL is refused, and neither a member nor a module can fire a slot; the schedule itself still can", async () => {
    const wf = (await host.request('POST', '/workflows', {
      name: 'nightly',
      trigger_type: 'schedule',
      trigger_config: { cron: '0 3 * * *' },
      nodes: [{ node_type: 'workflows:schedule-trigger', label: 'Start', config: { cron: '0 3 * * *' } }, { node_type: 'workflows:set-variable', label: 'Mark', config: { name: 'ran', value: 1 } }],
      connections: [{ source_node_index: 0, target_node_index: 1 }],
    })).body.data;
    expect((await host.request('POST', `/workflows/${wf.id}/activate`)).status).toBe(200);
    const runs = async () => (await host.request('GET', `/workflow-executions?workflow_id=${wf.id}`)).body.data as unknown[];

    expect(await refused('workflows_fire_schedules', '{schedule: "workflow_schedules", scheduled_at: "2026-03-01T03:00:00Z"}')).toEqual(REFUSED);
    const failure = (op: Promise<unknown>) => op.then(() => 'ran', (e: { code: string; status: number }) => `${e.status} ${e.code}`);
    // The owner over the edge, and a module that consumes the engine's operation, are not the schedule.
    expect(await failure(host.call('workflows.fire_schedules', { schedule: 'workflow_schedules', scheduled_at: '2026-03-01T03:00:00Z' }))).toBe('403 SCHEDULE_ONLY');
    expect(await failure(host.call('workflow_engine.fire_schedules', { scheduled_at: '2026-03-01T03:00:00Z' }, { asModule: 'workflows' }))).toBe('403 SCHEDULE_ONLY');
    expect(await runs()).toEqual([]);

    try {
      // The schedule fires the current slot only: a past or future one is refused even from the scheduler.
      host.clock.freeze(Date.parse('2026-03-02T03:00:20Z'));
      expect(await failure(host.runSchedule('workflow_schedules', { at: Date.parse('2026-03-01T03:00:00Z') }))).toBe('422 SCHEDULE_SLOT_NOT_CURRENT');
      expect(await host.runSchedule('workflow_schedules', { at: Date.parse('2026-03-02T03:00:00Z') })).toEqual({ started: 1 });
    } finally {
      host.clock.reset();
    }
    expect(await runs()).toHaveLength(1);
  });

  test('workflows_code.evaluate over GraphQL is refused; the code node still runs for an owner who may execute', async () => {
    expect(await refused('workflows_code_evaluate', '{expression: "1 + 1"}')).toEqual(REFUSED);
    const wf = (await host.request('POST', '/workflows', {
      name: 'code',
      nodes: [{ node_type: 'workflows:manual-trigger', label: 'Start' }, { node_type: 'workflows:code', label: 'Calc', config: { expression: '20 + 22' } }],
      connections: [{ source_node_index: 0, target_node_index: 1 }],
    })).body.data;
    const run = await host.request('POST', `/workflows/${wf.id}/test`, { data: {} });
    expect(run.body.data).toMatchObject({ status: 'completed', result: { result: 42 } });
  });

  test("a node's operation needs workflows.execute: a manager without it cannot save a send-email workflow, and no mail leaves", async () => {
    const manager = await host.memberWith('wf-manager', ['workflows.view', 'workflows.manage']);
    const made = await host.requestAs(manager, 'POST', '/workflows', {
      name: 'mail on event',
      trigger_type: 'event',
      trigger_config: { event: 'order.created' },
      nodes: [
        { node_type: 'workflows:event-trigger', label: 'Start', config: { event: 'order.created' } },
        { node_type: 'workflows:send-email', label: 'Mail', config: { to: 'victim2@elsewhere.example', subject: 'hi', body: 'x' } },
      ],
      connections: [{ source_node_index: 0, target_node_index: 1 }],
    });
    // The saver becomes the owner and must hold what the nodes need (core/services/workflows/README.md, Owner and permissions).
    expect(made.status).toBe(403);
    expect(made.body).toMatchObject({ success: false, code: 'WORKFLOW_PERMISSION_MISSING' });
    expect(JSON.stringify(made.body)).toContain('workflows.execute');
    await host.emit('order.created', { total: 1 });
    await new Promise((r) => setTimeout(r, 500));
    expect((await host.inbox()).filter((m) => m.to.includes('victim2@elsewhere.example'))).toEqual([]);
  });
});

describe('hostile: a schema file binding a platform operation that names no permission', () => {
  let host: TestHost;
  const gqlAs = (token: string, query: string): Promise<Gql> => host.requestAs(token, 'POST', '/graphql', { query });
  const answer = (res: Gql) => ({ code: res.body.errors?.[0]?.extensions?.code ?? null, token: typeof (res.body.data?.token as { token?: unknown } | null)?.token === 'string' });

  beforeAll(async () => {
    host = await createTestHost({ modulePath: path.join(__dirname, 'fixtures/field-binder') });
  }, 240_000);
  afterAll(() => host?.close());

  test('the bare field is FORBIDDEN to every member and the admin; behind the field\'s permission its holders and the admin get it', async () => {
    const nobody = await host.memberWith('nobody', []);
    const holder = await host.memberWith('binder', ['field_binder.use']);
    const bare = 'mutation { token: bareToken(bytes: 16) }';
    const guarded = 'mutation { token: guardedToken(bytes: 16) }';
    expect(answer(await gqlAs(nobody, bare))).toEqual({ code: 'FORBIDDEN', token: false });
    expect(answer(await gqlAs(host.token, bare))).toEqual({ code: 'FORBIDDEN', token: false });
    expect(answer(await gqlAs(nobody, guarded))).toEqual({ code: 'FORBIDDEN', token: false });
    expect(answer(await gqlAs(holder, guarded))).toEqual({ code: null, token: true });
    expect(answer(await gqlAs(host.token, guarded))).toEqual({ code: null, token: true });
  });
});
