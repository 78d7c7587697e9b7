/**
 * Workflow versions (README, Versions; spec 2 is silent): what a version holds, how a save keeps node
 * ids stable, the diff summary of a save, and a stored version back as a Graph a run can be pinned
 * to. SQL is in workflow-store.ts.
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { ConnectionRow, Graph, NodeRow, WorkflowRow } from './workflow';
import type { NodeInput, WorkflowInput } from './workflow-input';

/** A version's graph: the saved fields and the nodes and connections with their ids (workflow_id left out). */
export interface VersionContent extends Pick<WorkflowInput, 'name' | 'description' | 'trigger_type' | 'trigger_config' | 'settings' | 'tags'> {
  nodes: Omit<NodeRow, 'workflow_id'>[];
  connections: Omit<ConnectionRow, 'workflow_id'>[];
}

export interface VersionRow {
  workflow_id: string;
  version: number;
  author_id: string;
  author_name: string | null;
  summary: string;
  restored_from: number | null;
  content: VersionContent;
  created_at: Date;
}

/** Why a version was made when it is not an edit (an edit's summary is its diff). */
export const SUMMARIES = {
  created: 'Created',
  imported: (from: unknown) => (Number.isInteger(from) && (from as number) > 0 ? `Imported from an export of version ${from as number}` : 'Imported'),
  duplicated: (name: string, version: number) => `Duplicated from "${name}" version ${version}`,
  restored: (version: number) => `Restored from version ${version}`,
};

export function contentOf(g: Graph): VersionContent {
  const { name, description, trigger_type, trigger_config, settings, tags } = g.workflow;
  return {
    name, description, trigger_type, trigger_config, settings, tags,
    nodes: g.nodes.map(({ workflow_id: _w, ...n }) => n),
    connections: g.connections.map(({ workflow_id: _w, ...c }) => c),
  };
}

/** A stored version as the graph a run walks: the workflow's row (owner, status) with that version's fields. */
export function graphOfVersion(current: WorkflowRow, v: VersionRow): Graph {
  const { nodes, connections, ...fields } = v.content;
  return {
    workflow: { ...current, ...fields, version: v.version },
    nodes: nodes.map((n) => ({ ...n, workflow_id: current.id })),
    connections: connections.map((c) => ({ ...c, workflow_id: current.id })),
  };
}

/**
 * The id each saved node gets, so a waiting run and the editor keep addressing the same node: the id
 * it was sent with when that is one of this workflow's (now or in a kept version), else the id of a
 * current node of the same type and label not claimed by another, else a new one. An id that is not
 * this workflow's is never adopted.
 */
export function nodeIds(input: readonly NodeInput[], current: readonly NodeRow[], known: ReadonlySet<string>): string[] {
  const claimed = new Set<string>();
  const sent = input.map((n) => (n.id && known.has(n.id) ? (claimed.add(n.id), n.id) : undefined));
  return sent.map((id, i) => {
    if (id) return id;
    const same = current.find((c) => !claimed.has(c.id) && c.node_type === input[i].node_type && c.label === input[i].label);
    if (!same) return randomUUID();
    claimed.add(same.id);
    return same.id;
  });
}

const edgeKey = (c: Pick<ConnectionRow, 'source_node_id' | 'target_node_id' | 'source_handle' | 'target_handle' | 'condition_path'>) =>
  JSON.stringify([c.source_node_id, c.target_node_id, c.source_handle, c.target_handle, c.condition_path]);

/** The ids connections get: a connection equal to one of `known` (the current ones, a restored version's) keeps its id. */
export function connectionIds(edges: readonly Parameters<typeof edgeKey>[0][], known: readonly ConnectionRow[]): string[] {
  const free = new Map<string, string[]>();
  for (const c of known) free.set(edgeKey(c), [...(free.get(edgeKey(c)) ?? []), c.id]);
  const used = new Set<string>();
  return edges.map((e) => {
    const id = free.get(edgeKey(e))?.find((k) => !used.has(k)) ?? randomUUID();
    used.add(id);
    return id;
  });
}

const NODE_FIELDS = ['node_type', 'node_category', 'label', 'config', 'retry_count', 'retry_delay_seconds', 'timeout_seconds'] as const;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * What a save changed, e.g. "2 nodes added, 1 changed, connections changed, settings changed";
 * undefined when it changed nothing of the graph (README: such a save makes no version).
 */
export function diffSummary(before: VersionContent | undefined, after: VersionContent): string | undefined {
  if (!before) return SUMMARIES.created;
  const old = new Map(before.nodes.map((n) => [n.id, n]));
  const now = new Set(after.nodes.map((n) => n.id));
  let added = 0;
  let changed = 0;
  let moved = 0;
  for (const n of after.nodes) {
    const was = old.get(n.id);
    if (!was) added++;
    else if (NODE_FIELDS.some((f) => !isDeepStrictEqual(was[f], n[f]))) changed++;
    else if (!isDeepStrictEqual(was.position, n.position) || was.position_index !== n.position_index) moved++;
  }
  const removed = before.nodes.filter((n) => !now.has(n.id)).length;
  const counts = ([[added, 'added'], [removed, 'removed'], [changed, 'changed'], [moved, 'moved']] as const).filter(([n]) => n > 0);
  const parts = counts.map(([n, verb], i) => (i === 0 ? `${plural(n, 'node')} ${verb}` : `${n} ${verb}`));
  const edges = (c: VersionContent) => c.connections.map(edgeKey).sort();
  if (!isDeepStrictEqual(edges(before), edges(after))) parts.push('connections changed');
  if (before.name !== after.name) parts.push('renamed');
  if (before.description !== after.description) parts.push('description changed');
  if (before.trigger_type !== after.trigger_type || !isDeepStrictEqual(before.trigger_config, after.trigger_config)) parts.push('trigger changed');
  if (!isDeepStrictEqual(before.settings, after.settings)) parts.push('settings changed');
  if (!isDeepStrictEqual(before.tags, after.tags)) parts.push('tags changed');
  return parts.length ? parts.join(', ') : undefined;
}

/** A version in the list (author_name and restored_from only when known). */
export const toVersionSummary = (v: Omit<VersionRow, 'content'>) => ({
  version: v.version, created_at: new Date(v.created_at).toISOString(), author_id: Number(v.author_id),
  ...(v.author_name === null ? {} : { author_name: v.author_name }), summary: v.summary,
  ...(v.restored_from === null ? {} : { restored_from: v.restored_from }),
});
