/**
 * The merge node (`workflows:merge`, modules/workflows README): it joins branches. The rule, ours
 * where spec 2 is silent: a merge runs once, after every incoming connection whose source has run or
 * can still run in this execution. A source can still run while it is queued or reachable from a
 * queued node through nodes that have not run; a branch a condition did not take is neither, so it
 * never holds the merge. Its input is its config with `inputs` (the output of each incoming source
 * that ran, by label) beside it.
 */
import type { Graph, NodeRow, RunContext } from './workflow';

export const MERGE_NODE = 'workflows:merge';

/** The nodes reachable from `from` (inclusive) through nodes not done. */
function reachable(g: Graph, from: string[], done: Set<string>): Set<string> {
  const seen = new Set<string>();
  const stack = from.filter((id) => !done.has(id));
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const c of g.connections) if (c.source_node_id === id && !done.has(c.target_node_id)) stack.push(c.target_node_id);
  }
  return seen;
}

/**
 * The queue in the order the nodes may run: a merge some of whose sources can still run goes after
 * the nodes that may run now. In an acyclic graph the first is always one that may run (the
 * earliest waiting merge's sources are reached from a node that is not a waiting merge).
 */
export function readyFirst(g: Graph, queue: string[], done: Set<string>): string[] {
  const merges = new Set(g.nodes.filter((n) => n.node_type === MERGE_NODE && queue.includes(n.id)).map((n) => n.id));
  if (merges.size === 0) return queue;
  const pending = reachable(g, queue, done);
  const waits = (id: string) => merges.has(id) && g.connections.some((c) => c.target_node_id === id && pending.has(c.source_node_id));
  return [...queue.filter((id) => !waits(id)), ...queue.filter(waits)];
}

/** A merge node's input: its resolved config and the outputs of the incoming sources that ran, by label. */
export function withMergeInputs(g: Graph, node: NodeRow, ctx: RunContext, input: unknown): unknown {
  if (node.node_type !== MERGE_NODE) return input;
  const inputs: Record<string, unknown> = {};
  for (const c of g.connections) {
    const source = c.target_node_id === node.id ? g.nodes.find((n) => n.id === c.source_node_id) : undefined;
    if (source && ctx.nodes[source.label] !== undefined) inputs[source.label] = ctx.nodes[source.label].output;
  }
  return { ...(input as Record<string, unknown>), inputs };
}
