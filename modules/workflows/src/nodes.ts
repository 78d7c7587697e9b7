/**
 * The built-in workflow nodes (spec 2, Node registry: identifiers `workflows:<slug>`). Triggers only
 * start a run (the engine puts the trigger data on their output); every other node is one of this
 * module's operations, so the engine runs it on the bus like any module's node.
 */
import type { WorkflowNode } from '../../../sdk';

const trigger = (slug: string, name: string, description: string, configSchema: WorkflowNode['configSchema'] = { type: 'object', properties: {} }): WorkflowNode => ({
  type: `workflows:${slug}`, name, category: 'trigger', description, icon: 'zap', color: '#22c55e', configSchema,
});

const step = (slug: string, name: string, category: WorkflowNode['category'], description: string, configSchema: WorkflowNode['configSchema'], extra: Partial<WorkflowNode> = {}): WorkflowNode => ({
  type: `workflows:${slug}`, name, category, description, operation: `workflows.${slug.replace(/-/g, '_')}`, configSchema, ...extra,
});

/** A node that only computes: simulate runs it (spec 2, simulate: "no step with real-world effects runs"). */
const pure = (...args: Parameters<typeof step>): WorkflowNode => ({ ...step(...args), effects: 'none' });

const str = { type: 'string' };

export const workflowNodes: WorkflowNode[] = [
  trigger('manual-trigger', 'Manual trigger', 'Starts when someone runs the workflow (execute or test).'),
  trigger('schedule-trigger', 'Schedule', 'Starts on a cron schedule (trigger_config.cron) in trigger_config.timezone, UTC without one.', {
    type: 'object', properties: { cron: str }, required: [],
  }),
  trigger('webhook-trigger', 'Webhook', 'Starts on POST /api/webhooks/workflows/{token}.'),
  trigger('event-trigger', 'Platform event', 'Starts on a platform event named in config.event, e.g. order.created.', {
    type: 'object', properties: { event: str }, required: ['event'],
  }),
  // Runs as another workflow's error workflow (settings.error_workflow_id): its output is the failed
  // run's context (core/services/workflows/error-workflow.ts).
  trigger('error-trigger', 'Error trigger', "Starts when a run of a workflow naming this one in settings.error_workflow_id fails; its output is {execution_id, workflow_id, workflow_name, failed_node, error, trigger_data, failed_at}."),
  pure('condition', 'Condition', 'condition', 'Compares two values; follows the true or false handle.', {
    type: 'object',
    properties: { left: {}, operator: { type: 'string', enum: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'empty', 'not_empty'] }, right: {} },
    required: ['left', 'operator'],
  }),
  pure('switch', 'Switch', 'condition', 'Follows the handle named by the value, or "default".', {
    type: 'object', properties: { value: {}, cases: { type: 'array', items: str } }, required: ['value', 'cases'],
  }, { outputs: [{ name: 'default', type: 'any' }] }),
  pure('delay', 'Delay', 'action', 'Waits the given number of seconds before the next node.', {
    type: 'object', properties: { seconds: { type: 'integer', minimum: 1, maximum: 2_592_000 } }, required: ['seconds'],
  }),
  pure('transform', 'Transform', 'transformer', 'Builds an object from placeholders: its output is config.values.', {
    type: 'object', properties: { values: { type: 'object' } }, required: ['values'],
  }),
  pure('set-variable', 'Set variable', 'transformer', 'Sets context.variables[name] for later nodes ({{variables.<name>}}).', {
    type: 'object', properties: { name: str, value: {} }, required: ['name', 'value'],
  }),
  // The engine holds it until every incoming branch that can still run has run, and hands it their
  // outputs as `inputs` (core/services/workflows/merge.ts).
  pure('merge', 'Merge', 'transformer', 'Joins branches: runs once, after every incoming branch that ran or can still run; its output is {inputs: {<label>: output}}.', {
    type: 'object', properties: {},
  }),
  step('http-request', 'HTTP request', 'action', "Calls a URL through the host fetch (the tenant's allowed origins).", {
    type: 'object',
    properties: { url: str, method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] }, headers: { type: 'object' }, body: {} },
    required: ['url', 'method'],
  }),
  step('send-email', 'Send email', 'action', 'Sends a plain-text email through the platform mail transport.', {
    type: 'object', properties: { to: str, subject: str, body: str }, required: ['to', 'subject', 'body'],
  }),
  step('send-notification', 'Send notification', 'action', 'Sends an in-app notification to a member, or to all members.', {
    type: 'object', properties: { user_id: {}, title: str, body: str }, required: ['title'],
  }),
  // The expression runs in the workflows_code module's own isolate, a fresh context each time: a
  // runaway stalls no other node. Declared code, so the engine never pastes placeholders into it
  // (README, The code node's data model).
  pure('code', 'Code', 'transformer', 'Evaluates a JavaScript expression over `data` and its {{placeholders}} (as values) in the sandbox; its output is {result}.', {
    type: 'object', properties: { expression: { type: 'string', contentMediaType: 'text/javascript' }, data: {} }, required: ['expression'],
  }, { operation: 'workflows_code.evaluate' }),
  // The engine's own operation: it starts the child run, and the engine waits for it without holding
  // a worker and makes the child's result this node's output (core/services/workflows/README.md, Sub-workflows).
  step('sub-workflow', 'Sub-workflow', 'action', "Runs another active workflow of the tenant with `data` as its trigger data and waits for it; its output is the child's result.", {
    type: 'object', properties: { workflow_id: str, data: {} }, required: ['workflow_id'],
  }, { operation: 'workflow_engine.sub_workflow' }),
];
