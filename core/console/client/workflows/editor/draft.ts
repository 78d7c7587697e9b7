/**
 * The editor's working copy of a workflow: nodes keyed (a saved node by its id, a new one by a local
 * key), connections between keys, positions in canvas pixels. It comes from a workflow as GET
 * /workflows/{id} answers it (connections by node id) or from a version's snapshot (connections by
 * node index, the create/update shape), and goes back as the POST/PUT body (spec 2, Workflows:
 * connections by `source_node_index`/`target_node_index`).
 */
import { layout } from '../graph';
import type { Connection, NodeEntry, Workflow, WorkflowNode } from '../workflow-types';

export const NODE_W = 180;
export const NODE_H = 64;

export interface DraftNode {
  key: string;
  node_type: string;
  node_category: string;
  label: string;
  config: Record<string, unknown>;
  position: { x: number; y: number };
  retry_count: number;
  retry_delay_seconds: number;
  timeout_seconds: number;
}

export interface DraftConnection {
  key: string;
  source: string;
  target: string;
  source_handle: string;
  condition_path: string | null;
}

export interface Draft {
  name: string;
  description: string;
  trigger_type: string;
  trigger_config: Record<string, unknown>;
  settings: Record<string, unknown>;
  tags: string[];
  nodes: DraftNode[];
  connections: DraftConnection[];
}

export const emptyDraft = (): Draft => ({ name: 'Untitled workflow', description: '', trigger_type: 'manual', trigger_config: {}, settings: {}, tags: [], nodes: [], connections: [] });

let next = 0;
export const newKey = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${next++}`;

/** A snapshot's node (no id) or a stored one; a snapshot's connection names nodes by index. */
type LoadedNode = Omit<WorkflowNode, 'id' | 'is_entry_point'> & { id?: string };
type LoadedConnection = Partial<Connection> & { source_node_index?: number; target_node_index?: number };
export type Loadable = Pick<Workflow, 'name'> & Partial<Omit<Workflow, 'nodes' | 'connections'>> & { nodes: LoadedNode[]; connections: LoadedConnection[] };

/**
 * Saved positions are whatever the tenant's editor wrote: grid cells, zeros, nothing (an import).
 * When any two nodes would overlap at them, the graph is laid out in layers instead (graph.tsx).
 */
function placed(nodes: DraftNode[], connections: DraftConnection[]): DraftNode[] {
  const overlap = nodes.some((a, i) => nodes.some((b, j) => j > i && Math.abs(a.position.x - b.position.x) < NODE_W && Math.abs(a.position.y - b.position.y) < NODE_H));
  if (!overlap) return nodes;
  const asGraph = nodes.map((n) => ({ ...n, id: n.key, is_entry_point: n.node_category === 'trigger' }));
  const at = layout(asGraph, connections.map((c) => ({ id: c.key, source_node_id: c.source, target_node_id: c.target, source_handle: c.source_handle, condition_path: c.condition_path })));
  return nodes.map((n) => ({ ...n, position: { x: 40 + at.get(n.key)!.x * 1.2, y: 40 + at.get(n.key)!.y * 1.3 } }));
}

export function draftOf(w: Loadable): Draft {
  const nodes: DraftNode[] = w.nodes.map((n) => ({
    key: n.id ?? newKey('node'), node_type: n.node_type, node_category: n.node_category, label: n.label, config: n.config ?? {},
    position: n.position ?? { x: 0, y: 0 }, retry_count: n.retry_count ?? 0, retry_delay_seconds: n.retry_delay_seconds ?? 0, timeout_seconds: n.timeout_seconds ?? 30,
  }));
  const keyAt = (id: string | undefined, index: number | undefined) => (index !== undefined ? nodes[index]?.key : id);
  const connections: DraftConnection[] = [];
  for (const c of w.connections) {
    const source = keyAt(c.source_node_id, c.source_node_index);
    const target = keyAt(c.target_node_id, c.target_node_index);
    if (source && target) connections.push({ key: c.id ?? newKey('edge'), source, target, source_handle: c.source_handle ?? 'output', condition_path: c.condition_path ?? null });
  }
  return {
    name: w.name, description: w.description ?? '', trigger_type: w.trigger_type ?? 'manual', trigger_config: w.trigger_config ?? {},
    settings: w.settings ?? {}, tags: w.tags ?? [], nodes: placed(nodes, connections), connections,
  };
}

/** The POST/PUT body (spec 2: "same fields as create"). */
export function bodyOf(d: Draft) {
  const index = new Map(d.nodes.map((n, i) => [n.key, i]));
  return {
    name: d.name, description: d.description || null, trigger_type: d.trigger_type, trigger_config: d.trigger_config, settings: d.settings, tags: d.tags,
    // A saved node's key is its id, which the save keeps (core/services/workflows/README.md, Versions); a new node's local key is no id of the workflow's, so it gets one.
    nodes: d.nodes.map(({ key, position, ...n }) => ({ id: key, ...n, position: { x: Math.round(position.x), y: Math.round(position.y) } })),
    connections: d.connections.map((c) => ({
      source_node_index: index.get(c.source)!, target_node_index: index.get(c.target)!, source_handle: c.source_handle, target_handle: 'input', condition_path: c.condition_path,
    })),
  };
}

/**
 * What renames the keys of `before` to those of `after`, the same graph as saved and loaded again
 * (a save gives new nodes and connections their ids; the API keeps the node order, see `load` in
 * editor-page.tsx): applied to the undo history's steps (history.ts, rebase). Keys `before` does not
 * have (a node deleted earlier, back by an undo) stay as they are: they are no id of the workflow's.
 */
export function renamer(before: Draft, after: Draft): (d: Draft) => Draft {
  const nodes = new Map(before.nodes.flatMap((n, i) => (after.nodes[i] ? [[n.key, after.nodes[i].key] as const] : [])));
  const node = (k: string) => nodes.get(k) ?? k;
  const end = (c: DraftConnection) => `${node(c.source)} ${c.source_handle} ${node(c.target)}`;
  const saved = new Map(after.connections.map((c) => [end(c), c.key]));
  const edges = new Map(before.connections.flatMap((c) => (saved.has(end(c)) ? [[c.key, saved.get(end(c))!] as const] : [])));
  return (d) => ({
    ...d,
    nodes: d.nodes.map((n) => (nodes.has(n.key) ? { ...n, key: node(n.key) } : n)),
    connections: d.connections.map((c) => ({ ...c, key: edges.get(c.key) ?? c.key, source: node(c.source), target: node(c.target) })),
  });
}

/** A label not yet used (labels are unique: `{{nodes.<label>}}` placeholders name nodes by them). */
export function freeLabel(d: Draft, name: string): string {
  const used = new Set(d.nodes.map((n) => n.label));
  if (!used.has(name)) return name;
  let i = 2;
  while (used.has(`${name} ${i}`)) i++;
  return `${name} ${i}`;
}

export function addNode(d: Draft, entry: NodeEntry, position?: { x: number; y: number }): { draft: Draft; key: string } {
  // Without a drop point (the keyboard's Enter), right of the rightmost node.
  const at = position ?? { x: d.nodes.length ? Math.max(...d.nodes.map((n) => n.position.x)) + NODE_W + 60 : 40, y: d.nodes.length ? d.nodes[d.nodes.length - 1].position.y : 60 };
  const node: DraftNode = {
    key: newKey('node'), node_type: entry.identifier, node_category: entry.category, label: freeLabel(d, entry.name),
    config: structuredClone(entry.defaultConfig ?? {}), position: { x: Math.max(0, at.x), y: Math.max(0, at.y) }, retry_count: 0, retry_delay_seconds: 0, timeout_seconds: 30,
  };
  return { draft: { ...d, nodes: [...d.nodes, node] }, key: node.key };
}

/**
 * A connection from an output handle. A handle other than `output` (a condition's `true`/`false`)
 * is also the connection's `condition_path`: the engine follows it when the node's output `branch`
 * matches (core/services/workflows/engine.ts, successors). One connection per source handle and target.
 */
export function connect(d: Draft, source: string, handle: string, target: string): Draft | { refused: string } {
  if (source === target) return { refused: 'A node cannot connect to itself.' };
  const to = d.nodes.find((n) => n.key === target);
  if (!to) return { refused: 'No such node.' };
  if (to.node_category === 'trigger') return { refused: 'A trigger has no input.' };
  if (d.connections.some((c) => c.source === source && c.target === target && c.source_handle === handle)) return { refused: 'These nodes are already connected.' };
  const connection = { key: newKey('edge'), source, target, source_handle: handle, condition_path: handle === 'output' ? null : handle };
  return { ...d, connections: [...d.connections, connection] };
}

export function removeNode(d: Draft, key: string): Draft {
  return { ...d, nodes: d.nodes.filter((n) => n.key !== key), connections: d.connections.filter((c) => c.source !== key && c.target !== key) };
}

export const removeConnection = (d: Draft, key: string): Draft => ({ ...d, connections: d.connections.filter((c) => c.key !== key) });

export const updateNode = (d: Draft, key: string, change: Partial<DraftNode>): Draft => ({ ...d, nodes: d.nodes.map((n) => (n.key === key ? { ...n, ...change } : n)) });

/**
 * Output handles: the registry entry's, else those a node of its category has by default
 * (core/services/contributions/workflow-nodes.ts). A condition whose config lists `cases` (workflows:switch: its
 * output `branch` is the matching case, else "default") also has one handle per case.
 */
export function outputsOf(node: DraftNode, entry?: NodeEntry): string[] {
  const named = entry ? entry.outputs.map((o) => o.name) : node.node_category === 'condition' ? ['true', 'false'] : ['output'];
  const cases = node.config.cases;
  if (node.node_category !== 'condition' || !Array.isArray(cases)) return named;
  return [...new Set([...cases.filter((c): c is string => typeof c === 'string' && c !== ''), ...named])].slice(0, 20);
}
