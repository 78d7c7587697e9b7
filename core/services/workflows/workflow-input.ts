/**
 * The body of POST/PUT /workflows and of an import (spec 2, Workflows; Node and Connection "on
 * create/update"), checked against the tenant's node registry. Anything wrong is one 422 'Validation
 * failed' with an errors map keyed by field (`nodes.2.config`), and nothing is written (spec 2, Errors).
 */
import type { NodeResource } from '../../../sdk/contracts/workflow-resources';
import { ValidationError, type FieldErrors } from '../../kernel/errors';
import { isObject } from '../../kernel/is-object';
import type { Catalog } from '../contributions/catalog';
import { validateNodeConfig } from '../contributions/node-config';
import { scheduleConfigErrors } from './schedule-trigger';
import { respondConfigErrors } from './webhook-respond';
import { TRIGGER_TYPES, WORKFLOW_STATUSES, type TriggerType } from './workflow';

/** Spec 2 Limits: "workflow size: not shown". Ours, so one save or run stays a bounded piece of work. */
export const MAX_NODES = 100;
export const MAX_CONNECTIONS = 400;

/** A node as saved: the resource (sdk/contracts/workflow-resources.ts) without what the store gives it. */
export interface NodeInput extends Omit<NodeResource, 'id' | 'workflow_id' | 'is_entry_point'> {
  /** A node's id from GET /workflows/{id}: a save keeps it (workflow-versions.ts, stable node ids). */
  id?: string;
}

export interface ConnectionInput {
  source_node_index: number;
  target_node_index: number;
  source_handle: string;
  target_handle: string;
  condition_path: string | null;
}

export interface WorkflowInput {
  name: string;
  description: string | null;
  status: string;
  trigger_type: TriggerType;
  trigger_config: Record<string, unknown>;
  settings: Record<string, unknown>;
  tags: string[];
  nodes: NodeInput[];
  connections: ConnectionInput[];
}

const int = (v: unknown, min: number, max: number) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** `partial`: a PUT, where a field left out keeps its stored value (`current`). */
export function parseWorkflowInput(body: unknown, catalog: Catalog, current?: WorkflowInput): WorkflowInput {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (!isObject(body)) throw new ValidationError({ body: ['The body must be a JSON object.'] }, 'Validation failed');
  const b = body;
  const has = (k: string) => b[k] !== undefined;

  const name = has('name') ? b.name : current?.name;
  if (typeof name !== 'string' || !name.trim() || name.length > 255) add('name', 'The name field is required (a string of at most 255 characters).');
  const description = has('description') ? b.description : (current?.description ?? null);
  if (description !== null && typeof description !== 'string') add('description', 'The description must be a string.');
  const status = has('status') ? b.status : (current?.status ?? 'draft');
  if (!WORKFLOW_STATUSES.includes(status as never)) add('status', `The status must be one of ${WORKFLOW_STATUSES.join(', ')}.`);
  const triggerType = has('trigger_type') ? b.trigger_type : (current?.trigger_type ?? 'manual');
  if (!TRIGGER_TYPES.includes(triggerType as never)) add('trigger_type', `The trigger_type must be one of ${TRIGGER_TYPES.join(', ')}.`);
  for (const k of ['trigger_config', 'settings'] as const) if (has(k) && !isObject(b[k])) add(k, `The ${k} must be an object.`);
  if (has('trigger_config') && isObject(b.trigger_config)) {
    for (const [field, message] of Object.entries({ ...scheduleConfigErrors(b.trigger_config), ...respondConfigErrors(b.trigger_config) })) add(field, message);
  }
  const tags = has('tags') ? b.tags : (current?.tags ?? []);
  if (!Array.isArray(tags) || tags.length > 50 || tags.some((t) => typeof t !== 'string' || !t || t.length > 50)) add('tags', 'The tags must be an array of at most 50 strings.');

  const nodes: NodeInput[] = [];
  const rawNodes = has('nodes') ? b.nodes : undefined;
  if (rawNodes !== undefined && (!Array.isArray(rawNodes) || rawNodes.length > MAX_NODES)) add('nodes', `The nodes must be an array of at most ${MAX_NODES} nodes.`);
  else if (Array.isArray(rawNodes)) {
    const labels = new Set<string>();
    const ids = new Set<string>();
    rawNodes.forEach((n: unknown, i) => {
      const at = `nodes.${i}`;
      if (!isObject(n)) return add(at, 'Each node must be an object.');
      if (n.id !== undefined && n.id !== null && (typeof n.id !== 'string' || n.id.length > 64)) add(`${at}.id`, 'The id must be the string id of a node of this workflow.');
      else if (typeof n.id === 'string' && ids.has(n.id)) add(`${at}.id`, `The id "${n.id}" is used by another node of this save.`);
      else if (typeof n.id === 'string') ids.add(n.id);
      const entry = typeof n.node_type === 'string' ? catalog.node(n.node_type) : undefined;
      if (typeof n.node_type !== 'string') add(`${at}.node_type`, 'The node_type is required.');
      else if (!entry) add(`${at}.node_type`, `Unknown node type "${n.node_type}": it is not in this tenant's node registry.`);
      const category = n.node_category ?? entry?.category;
      if (entry && category !== entry.category) add(`${at}.node_category`, `The node_category of ${entry.identifier} is "${entry.category}".`);
      const label = n.label ?? entry?.name ?? '';
      if (typeof label !== 'string' || !label.trim() || label.length > 255) add(`${at}.label`, 'The label must be a non-empty string.');
      else if (labels.has(label)) add(`${at}.label`, `The label "${label}" is used by another node; {{nodes.<label>}} placeholders need it unique.`);
      else labels.add(label);
      const config = n.config ?? entry?.defaultConfig ?? {};
      if (!isObject(config)) add(`${at}.config`, 'The config must be an object.');
      else if (entry) for (const e of validateNodeConfig(entry, config)) add(`${at}.config`, e);
      const position = n.position ?? { x: 0, y: 0 };
      if (!isObject(position) || typeof position.x !== 'number' || typeof position.y !== 'number') add(`${at}.position`, 'The position must be {x, y} numbers.');
      const retry = n.retry_count ?? 0;
      if (!int(retry, 0, 10)) add(`${at}.retry_count`, 'The retry_count must be an integer from 0 to 10.');
      const delay = n.retry_delay_seconds ?? 0;
      if (!int(delay, 0, 86_400)) add(`${at}.retry_delay_seconds`, 'The retry_delay_seconds must be an integer from 0 to 86400.');
      const timeout = n.timeout_seconds ?? 30;
      if (!int(timeout, 1, 3_600)) add(`${at}.timeout_seconds`, 'The timeout_seconds must be an integer from 1 to 3600.');
      nodes.push({
        ...(typeof n.id === 'string' ? { id: n.id } : {}),
        node_type: String(n.node_type), node_category: String(category), label: String(label), config: config as Record<string, unknown>,
        position: position as { x: number; y: number }, retry_count: retry as number, retry_delay_seconds: delay as number, timeout_seconds: timeout as number,
      });
    });
  }

  const connections: ConnectionInput[] = [];
  const rawConnections = has('connections') ? b.connections : undefined;
  const nodeCount = rawNodes !== undefined ? nodes.length : (current?.nodes.length ?? 0);
  if (rawConnections !== undefined && (!Array.isArray(rawConnections) || rawConnections.length > MAX_CONNECTIONS)) add('connections', `The connections must be an array of at most ${MAX_CONNECTIONS}.`);
  else if (Array.isArray(rawConnections)) {
    rawConnections.forEach((c: unknown, i) => {
      const at = `connections.${i}`;
      if (!isObject(c)) return add(at, 'Each connection must be an object.');
      for (const k of ['source_node_index', 'target_node_index'] as const) {
        if (!int(c[k], 0, Number.MAX_SAFE_INTEGER) || (c[k] as number) >= nodeCount) add(`${at}.${k}`, `The ${k} must be the position of a node in the nodes array (0 to ${nodeCount - 1}).`);
      }
      if (c.source_node_index === c.target_node_index && typeof c.source_node_index === 'number') add(at, 'A node cannot connect to itself.');
      const path = c.condition_path ?? null;
      if (path !== null && (typeof path !== 'string' || path.length > 100)) add(`${at}.condition_path`, 'The condition_path must be a string or null.');
      connections.push({
        source_node_index: c.source_node_index as number, target_node_index: c.target_node_index as number,
        source_handle: typeof c.source_handle === 'string' ? c.source_handle : 'output', target_handle: typeof c.target_handle === 'string' ? c.target_handle : 'input',
        condition_path: path as string | null,
      });
    });
  }
  if (Object.keys(errors).length) throw new ValidationError(errors, 'Validation failed');
  return {
    name: (name as string).trim(), description: description as string | null, status: status as string, trigger_type: triggerType as TriggerType,
    trigger_config: (has('trigger_config') ? b.trigger_config : (current?.trigger_config ?? {})) as Record<string, unknown>,
    settings: (has('settings') ? b.settings : (current?.settings ?? {})) as Record<string, unknown>,
    tags: tags as string[],
    nodes: rawNodes !== undefined ? nodes : (current?.nodes ?? []),
    connections: rawConnections !== undefined ? connections : rawNodes !== undefined ? [] : (current?.connections ?? []),
  };
}
