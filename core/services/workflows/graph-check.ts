/**
 * GET /workflows/{id}/validate and activation (spec 2, Errors: "a missing trigger node, a node without
 * incoming connection, or a missing required config key"), plus an unknown node type (a module
 * uninstalled since the save) and a cycle, which would never finish. Readable strings.
 */
import type { Catalog } from '../contributions/catalog';
import { validateNodeConfig } from '../contributions/node-config';
import { workflowErrors } from './errors';
import type { Graph } from './workflow';
import type { WorkflowInput } from './workflow-input';

export function checkGraph(g: Pick<Graph, 'nodes' | 'connections'>, catalog: Catalog): string[] {
  const errors: string[] = [];
  const triggers = g.nodes.filter((n) => n.node_category === 'trigger');
  if (triggers.length === 0) errors.push('The workflow has no trigger node.');
  const incoming = new Set(g.connections.map((c) => c.target_node_id));
  for (const n of g.nodes) {
    const entry = catalog.node(n.node_type);
    if (!entry) {
      errors.push(`Node "${n.label}": unknown node type "${n.node_type}".`);
      continue;
    }
    if (n.node_category !== 'trigger' && !incoming.has(n.id)) errors.push(`Node "${n.label}" has no incoming connection.`);
    for (const e of validateNodeConfig(entry, n.config)) errors.push(`Node "${n.label}": ${e}`);
  }
  if (hasCycle(g)) errors.push('The workflow contains a cycle.');
  return errors;
}

/** A save's graph before it has ids (nodes by index), checked as checkGraph checks a stored one. */
export function checkInput(input: Pick<WorkflowInput, 'nodes' | 'connections'>, catalog: Catalog): string[] {
  return checkGraph({
    nodes: input.nodes.map((n, i) => ({ ...n, id: String(i), workflow_id: '', position_index: i, is_entry_point: n.node_category === 'trigger' })),
    connections: input.connections.map((c, i) => ({ ...c, id: String(i), workflow_id: '', source_node_id: String(c.source_node_index), target_node_id: String(c.target_node_index) })),
  }, catalog);
}

/**
 * Every way into `active` (activate, and a create, PUT, restore that leaves it active) answers the
 * activate route's 422 (spec 2, Errors: {success: false, message: 'Workflow validation failed', errors: [...]}).
 */
export function assertActivatable(errors: string[]): void {
  if (errors.length) throw workflowErrors.invalidGraph(errors);
}

function hasCycle(g: Pick<Graph, 'nodes' | 'connections'>): boolean {
  const next = new Map<string, string[]>();
  for (const c of g.connections) next.set(c.source_node_id, [...(next.get(c.source_node_id) ?? []), c.target_node_id]);
  const state = new Map<string, 1 | 2>();
  const visit = (id: string): boolean => {
    if (state.get(id) === 1) return true;
    if (state.get(id) === 2) return false;
    state.set(id, 1);
    if ((next.get(id) ?? []).some(visit)) return true;
    state.set(id, 2);
    return false;
  };
  return g.nodes.some((n) => visit(n.id));
}
