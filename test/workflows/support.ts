/**
 * Shared by the workflow engine tests (spec 2): a real platform with the first-party `workflows`
 * module installed in a test tenant, and the 6-node workflow with a condition branch.
 */
import path from 'node:path';
import { createTestHost, type TestHost } from '../../sdk/testing';

export const WORKFLOWS_DIR = path.resolve(__dirname, '../../modules/workflows');
/** The code node's evaluator, which `workflows` depends on. */
export const WORKFLOWS_CODE_DIR = path.resolve(__dirname, '../../modules/workflows-code');

/** Test nodes that emit events, fail their first two attempts, or need a permission of their own (fixtures/chain-nodes). */
export const CHAIN_NODES_DIR = path.resolve(__dirname, 'fixtures/chain-nodes');

/** The spec's per-minute limits are raised unless a test sets them: these tests poll executions. */
export function startHost(env: Record<string, string> = {}, withModules: string[] = []): Promise<TestHost> {
  return createTestHost({ modulePath: WORKFLOWS_DIR, withModules: [WORKFLOWS_CODE_DIR, ...withModules], env: { WORKFLOW_RATE_LIMIT: '100000/60', WORKFLOW_EXECUTE_RATE_LIMIT: '100000/60', ...env } });
}

type Json = Record<string, unknown>;

/**
 * trigger → set-variable → condition (total > 100)
 *   true  → transform → send-email
 *   false → code
 */
export function sixNodes(trigger: { node_type: string; config?: Json }, extra: Json = {}): Json {
  return {
    name: 'Big order follow-up',
    description: 'Mails big orders',
    trigger_type: 'manual',
    tags: ['orders'],
    ...extra,
    nodes: [
      { node_type: trigger.node_type, node_category: 'trigger', label: 'Start', config: trigger.config ?? {}, position: { x: 0, y: 0 } },
      { node_type: 'workflows:set-variable', node_category: 'transformer', label: 'Remember', config: { name: 'customer', value: '{{customer.name}}' }, position: { x: 1, y: 0 } },
      { node_type: 'workflows:condition', node_category: 'condition', label: 'Big?', config: { left: '{{total}}', operator: 'gt', right: 100 }, position: { x: 2, y: 0 } },
      { node_type: 'workflows:transform', node_category: 'transformer', label: 'Shape', config: { values: { subject: 'Thanks {{variables.customer}}', total: '{{total}}' } }, position: { x: 3, y: 0 } },
      { node_type: 'workflows:send-email', node_category: 'action', label: 'Mail', config: { to: '{{customer.email}}', subject: '{{nodes.Shape.output.values.subject}}', body: 'Your order of {{total}} is on its way.' }, position: { x: 4, y: 0 } },
      { node_type: 'workflows:code', node_category: 'transformer', label: 'Small', config: { expression: 'data.total * 2', data: '{{trigger.data}}' }, position: { x: 3, y: 1 } },
    ],
    connections: [
      { source_node_index: 0, target_node_index: 1 },
      { source_node_index: 1, target_node_index: 2 },
      { source_node_index: 2, target_node_index: 3, source_handle: 'true', condition_path: 'true' },
      { source_node_index: 3, target_node_index: 4 },
      { source_node_index: 2, target_node_index: 5, source_handle: 'false', condition_path: 'false' },
    ],
  };
}

export const bigOrder = { total: 250, customer: { name: 'Asha', email: 'asha@example.com' } };
export const smallOrder = { total: 40, customer: { name: 'Ravi', email: 'ravi@example.com' } };

/** Waits until the execution reaches one of `statuses`; answers its detail. */
export async function settled(host: TestHost, id: string, statuses = ['completed', 'failed', 'cancelled'], timeoutMs = 20_000): Promise<Json & { status: string; logs: Json[] }> {
  return host.eventually(async () => {
    const res = await host.request('GET', `/workflow-executions/${id}`);
    if (res.status !== 200) throw new Error(`GET execution: ${res.status} ${JSON.stringify(res.body)}`);
    if (!statuses.includes(res.body.data.status)) throw new Error(`still ${res.body.data.status}`);
    return res.body.data;
  }, timeoutMs);
}
