/**
 * Spec 2, Workflows and Executions, with our additions (core/services/workflows/README.md, Versions): a save
 * keeps node ids and is a version; a run is pinned to the version it started on and finishes on it
 * whatever is saved meanwhile; versions are listed, read and restored; export and import carry the
 * version; every way into `active` passes activation's checks.
 */
import type { TestHost } from '../../sdk/testing';
import { settled, startHost } from './support';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
const trigger: Json = { node_type: 'workflows:manual-trigger', label: 'Start' };
const delay = (label: string, seconds: number): Json => ({ node_type: 'workflows:delay', label, config: { seconds } });
const done: Json = { node_type: 'workflows:transform', label: 'Done', config: { values: { ok: true } } };
const chain = (name: string, nodes: Json[], extra: Json = {}) => ({ name, ...extra, nodes, connections: nodes.slice(1).map((_, i) => ({ source_node_index: i, target_node_index: i + 1 })) });

describe('spec 2 Workflows: versions, stable node ids, runs pinned to their version', () => {
  let host: TestHost;
  const create = async (body: unknown): Promise<Json> => {
    const res = await host.request('POST', '/workflows', body);
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body.data;
  };
  const get = async (id: string): Promise<Json> => (await host.request('GET', `/workflows/${id}`)).body.data;
  const versions = async (id: string): Promise<Json[]> => (await host.request('GET', `/workflows/${id}/versions`)).body.data;
  const waiting = async (id: string) => {
    await host.eventually(async () => {
      if (!(await host.request('GET', `/workflow-executions/${id}`)).body.data.resume_at) throw new Error('not suspended yet');
    });
  };

  beforeAll(async () => {
    host = await startHost();
  }, 240_000);
  afterAll(() => host?.close());

  test('a save of the description keeps every node id, and a run waiting in a Delay completes', async () => {
    const wf = await create(chain('pinned-description', [trigger, delay('Wait', 2), done]));
    const run = (await host.request('POST', `/workflows/${wf.id}/execute`, { data: {} })).body.data.execution_id;
    await waiting(run);
    const put = await host.request('PUT', `/workflows/${wf.id}`, { description: 'edited while a run waits' });
    expect(put.status).toBe(200);
    // A run started after the save: its graph is the one the workers now hold (as on another node).
    const after = (await host.request('POST', `/workflows/${wf.id}/execute`, { data: {} })).body.data.execution_id;
    const e = await settled(host, run);
    expect([e.status, e.error_message]).toEqual(['completed', null]);
    expect(e.logs.map((l) => l.node_label)).toEqual(['Start', 'Wait', 'Done']);
    expect(e.workflow_version).toBe(1);
    expect(await settled(host, after)).toMatchObject({ status: 'completed', workflow_version: 2 });
    expect(put.body.data.nodes.map((n: Json) => n.id)).toEqual(wf.nodes.map((n: Json) => n.id));
    expect(put.body.data.connections.map((c: Json) => c.id)).toEqual(wf.connections.map((c: Json) => c.id));
  });

  test('a run waiting in a Delay finishes on its own version when its next node was removed, or renamed and changed', async () => {
    const wf = await create(chain('pinned-graph', [trigger, delay('Wait', 2), done]));
    const first = (await host.request('POST', `/workflows/${wf.id}/execute`, { data: {} })).body.data.execution_id;
    await waiting(first);
    // Done removed: the graph is Start → Wait only.
    const [start, wait] = wf.nodes;
    expect((await host.request('PUT', `/workflows/${wf.id}`, { nodes: [start, wait], connections: [{ source_node_index: 0, target_node_index: 1 }] })).status).toBe(200);
    expect((await get(wf.id)).nodes.map((n: Json) => n.id)).toEqual([start.id, wait.id]);
    const second = (await host.request('POST', `/workflows/${wf.id}/execute`, { data: {} })).body.data.execution_id;
    await waiting(second);
    // Done back, renamed and changed (a new node): version 3.
    const renamed = { node_type: 'workflows:transform', label: 'Finish', config: { values: { ok: 'changed' } } };
    expect((await host.request('PUT', `/workflows/${wf.id}`, { nodes: [start, wait, renamed], connections: [{ source_node_index: 0, target_node_index: 1 }, { source_node_index: 1, target_node_index: 2 }] })).status).toBe(200);
    const one = await settled(host, first);
    expect([one.status, one.error_message, one.workflow_version]).toEqual(['completed', null, 1]);
    expect(one.logs.map((l) => l.node_label)).toEqual(['Start', 'Wait', 'Done']);
    expect(one.result).toEqual({ values: { ok: true } });
    const two = await settled(host, second);
    expect([two.status, two.error_message, two.workflow_version]).toEqual(['completed', null, 2]);
    expect(two.logs.map((l) => l.node_label)).toEqual(['Start', 'Wait']);
    const three = await settled(host, (await host.request('POST', `/workflows/${wf.id}/execute`, { data: {} })).body.data.execution_id);
    expect([three.workflow_version, three.result]).toEqual([3, { values: { ok: 'changed' } }]);
  });

  test('every save is a version with its author and a diff summary; a save that changes nothing is none', async () => {
    const wf = await create(chain('diffs', [trigger, done], { settings: { retry_on_failure: false } }));
    expect(wf.version).toBe(1);
    expect(await versions(wf.id)).toEqual([{ version: 1, created_at: expect.any(String), author_id: wf.owner_id, author_name: expect.any(String), summary: 'Created' }]);
    const [start, last] = wf.nodes;
    const body = {
      settings: { retry_on_failure: true },
      nodes: [start, { ...last, config: { values: { ok: 'yes' } } }, { node_type: 'workflows:transform', label: 'A', config: { values: {} } }, { node_type: 'workflows:transform', label: 'B', config: { values: {} } }],
      connections: [{ source_node_index: 0, target_node_index: 1 }, { source_node_index: 1, target_node_index: 2 }, { source_node_index: 2, target_node_index: 3 }],
    };
    const put = await host.request('PUT', `/workflows/${wf.id}`, body);
    expect(put.body.data.version).toBe(2);
    expect((await host.request('PUT', `/workflows/${wf.id}`, body)).body.data.version).toBe(2);
    expect((await host.request('PUT', `/workflows/${wf.id}`, { status: 'paused' })).body.data.version).toBe(2);
    const list = await host.request('GET', `/workflows/${wf.id}/versions?per_page=1`);
    expect(list.body).toEqual({
      success: true,
      data: [{ version: 2, created_at: expect.any(String), author_id: wf.owner_id, author_name: expect.any(String), summary: '2 nodes added, 1 changed, connections changed, settings changed' }],
      meta: { current_page: 1, last_page: 2, per_page: 1, total: 2 },
    });
    const one = (await host.request('GET', `/workflows/${wf.id}/versions/1`)).body;
    expect(one).toEqual({
      success: true,
      data: {
        version: 1, created_at: expect.any(String), author_id: wf.owner_id, summary: 'Created',
        workflow: { name: 'diffs', description: null, trigger_type: 'manual', trigger_config: {}, settings: { retry_on_failure: false }, tags: [], nodes: wf.nodes, connections: wf.connections },
      },
    });
    expect((await host.request('GET', `/workflows/${wf.id}/versions/9`)).status).toBe(404);
    expect((await host.request('GET', `/workflows/${wf.id}/versions/x`)).status).toBe(404);
  });

  test('restore makes a new version with the old content and node ids, answering like PUT; the restorer becomes owner', async () => {
    const wf = await create(chain('restore', [trigger, done]));
    await host.request('PUT', `/workflows/${wf.id}`, { nodes: [wf.nodes[0]], connections: [] });
    const { token, userId } = await host.addMember({ email: 'restorer@test-org.example', role: 'admin', name: 'Restorer' });
    const res = await host.requestAs(token, 'POST', `/workflows/${wf.id}/versions/1/restore`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Workflow restored', data: { version: 3, owner_id: userId, nodes: wf.nodes, connections: wf.connections } });
    expect((await versions(wf.id))[0]).toEqual({ version: 3, created_at: expect.any(String), author_id: userId, author_name: 'Restorer', summary: 'Restored from version 1', restored_from: 1 });
    // A restore is a version even when it changes nothing.
    expect((await host.request('POST', `/workflows/${wf.id}/versions/3/restore`)).body.data.version).toBe(4);
  });

  test('export carries the version; import and duplicate start at version 1 saying where they came from', async () => {
    const wf = await create(chain('exported', [trigger, done]));
    await host.request('PUT', `/workflows/${wf.id}`, { description: 'second' });
    const exported = (await host.request('GET', `/workflows/${wf.id}/export`)).body.data;
    expect(exported).toMatchObject({ version: '1.0', workflow_version: 2 });
    expect(exported.nodes[0].id).toBeUndefined();
    const imported = (await host.request('POST', '/workflows/import', { workflow: exported })).body.data;
    expect(imported.version).toBe(1);
    expect(imported.nodes.map((n: Json) => n.id)).not.toContain(wf.nodes[0].id);
    expect((await versions(imported.id))[0].summary).toBe('Imported from an export of version 2');
    const copy = (await host.request('POST', `/workflows/${wf.id}/duplicate`, { name: 'copy' })).body.data;
    expect((await versions(copy.id))[0].summary).toBe('Duplicated from "exported" version 2');
    const plain = (await host.request('POST', '/workflows/import', { workflow: { ...exported, workflow_version: undefined } })).body.data;
    expect((await versions(plain.id))[0].summary).toBe('Imported');
  });

  test('a node sent with an id that is not this workflow\'s gets a new one', async () => {
    const a = await create(chain('ids-a', [trigger, done]));
    const b = await create(chain('ids-b', [trigger, done]));
    const put = await host.request('PUT', `/workflows/${b.id}`, { nodes: [b.nodes[0], { ...done, label: 'Other', id: a.nodes[1].id }], connections: [{ source_node_index: 0, target_node_index: 1 }] });
    expect(put.status).toBe(200);
    expect(put.body.data.nodes[1].id).not.toBe(a.nodes[1].id);
    expect((await get(a.id)).nodes).toEqual(a.nodes);
  });
});

describe('spec 2 Errors: every way into active passes activation\'s checks (422 Workflow validation failed)', () => {
  let host: TestHost;
  const invalid = { success: false, message: 'Workflow validation failed', errors: expect.arrayContaining(['The workflow has no trigger node.']) };
  const noTrigger = { name: 'no trigger', nodes: [{ node_type: 'workflows:transform', label: 'T', config: { values: {} } }], connections: [] };

  beforeAll(async () => {
    host = await startHost();
  }, 240_000);
  afterAll(() => host?.close());

  test('create with status active and no trigger is the 422 of the activate route, nothing written', async () => {
    const res = await host.request('POST', '/workflows', { ...noTrigger, status: 'active' });
    expect([res.status, res.body]).toEqual([422, invalid]);
    expect((await host.request('GET', '/workflows?search=no%20trigger')).body.data).toEqual([]);
    const ok = await host.request('POST', '/workflows', { ...chain('valid active', [trigger, done]), status: 'active' });
    expect([ok.status, ok.body.data.status]).toEqual([201, 'active']);
  });

  test('PUT to active, and a PUT that leaves an active workflow without a trigger, are 422 and change nothing', async () => {
    const draft = (await host.request('POST', '/workflows', noTrigger)).body.data;
    const activate = await host.request('POST', `/workflows/${draft.id}/activate`);
    const put = await host.request('PUT', `/workflows/${draft.id}`, { status: 'active' });
    expect([put.status, put.body]).toEqual([activate.status, activate.body]);
    expect([put.status, put.body]).toEqual([422, invalid]);
    expect((await host.request('GET', `/workflows/${draft.id}`)).body.data.status).toBe('draft');
    const active = (await host.request('POST', '/workflows', { ...chain('active', [trigger, done]), status: 'active' })).body.data;
    const broken = await host.request('PUT', `/workflows/${active.id}`, { nodes: noTrigger.nodes, connections: [] });
    expect([broken.status, broken.body]).toEqual([422, invalid]);
    expect((await host.request('GET', `/workflows/${active.id}`)).body.data).toMatchObject({ status: 'active', version: 1, nodes: active.nodes });
  });

  test('restoring a version without a trigger into an active workflow is 422', async () => {
    const wf = (await host.request('POST', '/workflows', noTrigger)).body.data;
    expect((await host.request('PUT', `/workflows/${wf.id}`, chain('no trigger', [trigger, done]))).status).toBe(200);
    expect((await host.request('POST', `/workflows/${wf.id}/activate`)).status).toBe(200);
    const res = await host.request('POST', `/workflows/${wf.id}/versions/1/restore`);
    expect([res.status, res.body]).toEqual([422, invalid]);
    expect((await host.request('GET', `/workflows/${wf.id}`)).body.data).toMatchObject({ status: 'active', version: 2 });
  });
});
