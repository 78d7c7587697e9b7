/**
 * GET /workflows/{id}/validate and activation (spec 2, Errors: "a missing trigger node, a node without
 * incoming connection, or a missing required config key"), plus an unknown node type (a module
 * uninstalled since the save) and a cycle, which would never finish. Readable strings.
 */
import type { Catalog } from '../catalogs/catalog';
import { validateNodeConfig } from '../catalogs/node-config';
import type { Graph } from './workflow';

export function checkGraph(g: Graph, catalog: Catalog): string[] {
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

function hasCycle(g: Graph): boolean {
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
