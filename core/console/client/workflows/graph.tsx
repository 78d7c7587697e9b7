/**
 * A workflow's nodes and connections, read-only, as SVG. The layout is layered, not the saved
 * positions: positions are whatever the tenant's editor wrote (pixels, grid cells, or nothing for
 * an imported workflow), while layers read the same for every workflow. A node's layer is its longest
 * path from an entry point; within a layer nodes keep the order of their saved position (y, then x),
 * so an editor's top-to-bottom branches stay in that order. A cycle (possible in a draft) cannot
 * push a node further than the number of nodes. With an execution's logs, each node takes the
 * colour of its last logged status.
 */
import type { Connection, WorkflowNode } from './workflow-types';

const W = 170;
const H = 56;
const GAP_X = 70;
const GAP_Y = 30;
const PAD = 12;

interface Placed<N> {
  node: N;
  x: number;
  y: number;
}

/** Only ids, positions and the connections' ends matter, so the editor's draft nodes are laid out the same way. */
type Laid = Pick<WorkflowNode, 'id' | 'position'>;

export function layout<N extends Laid>(nodes: N[], connections: Pick<Connection, 'source_node_id' | 'target_node_id'>[]): Map<string, Placed<N>> {
  const layer = new Map(nodes.map((n) => [n.id, 0]));
  // Longest path by relaxation: at most nodes.length rounds, which also bounds a cycle.
  for (let round = 0; round < nodes.length; round++) {
    let moved = false;
    for (const c of connections) {
      const from = layer.get(c.source_node_id);
      const to = layer.get(c.target_node_id);
      if (from === undefined || to === undefined || to >= from + 1 || from + 1 >= nodes.length) continue;
      layer.set(c.target_node_id, from + 1);
      moved = true;
    }
    if (!moved) break;
  }
  const byLayer = new Map<number, N[]>();
  nodes.forEach((n) => byLayer.set(layer.get(n.id)!, [...(byLayer.get(layer.get(n.id)!) ?? []), n]));
  const placed = new Map<string, Placed<N>>();
  for (const [depth, group] of byLayer) {
    const ordered = group
      .map((node, i) => ({ node, i }))
      .sort((a, b) => a.node.position.y - b.node.position.y || a.node.position.x - b.node.position.x || a.i - b.i);
    ordered.forEach(({ node }, row) => placed.set(node.id, { node, x: PAD + depth * (W + GAP_X), y: PAD + row * (H + GAP_Y) }));
  }
  return placed;
}

const CATEGORY_COLOURS: Record<string, string> = { trigger: '#1d4ed8', action: '#166534', condition: '#854d0e', transformer: '#6b21a8' };
/** A node log is completed or failed (core/services/workflows/engine.ts). */
const STATUS_FILL: Record<string, string> = { completed: '#dcfce7', failed: '#fee2e2' };

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function WorkflowGraph({ nodes, connections, statuses }: { nodes: WorkflowNode[]; connections: Connection[]; statuses?: Map<string, string> }) {
  if (nodes.length === 0) return <p class="muted">This workflow has no nodes.</p>;
  const placed = layout(nodes, connections);
  const all = [...placed.values()];
  const width = Math.max(...all.map((p) => p.x)) + W + PAD;
  const height = Math.max(...all.map((p) => p.y)) + H + PAD;
  return (
    <figure class="wf-graph" data-graph>
      <svg viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-label={`Workflow graph: ${nodes.length} nodes, ${connections.length} connections`}>
        <defs>
          <marker id="wf-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0 10 5 0 10z" fill="#6b7280" /></marker>
        </defs>
        {connections.map((c) => {
          const a = placed.get(c.source_node_id);
          const b = placed.get(c.target_node_id);
          if (!a || !b) return null;
          const x1 = a.x + W;
          const y1 = a.y + H / 2;
          const x2 = b.x;
          const y2 = b.y + H / 2;
          const mid = (x1 + x2) / 2;
          const label = c.condition_path ?? (c.source_handle && c.source_handle !== 'output' ? c.source_handle : null);
          return (
            <g key={c.id} data-edge={`${a.node.label}->${b.node.label}`}>
              <path d={`M${x1} ${y1} C${mid} ${y1} ${mid} ${y2} ${x2} ${y2}`} fill="none" stroke="#6b7280" stroke-width="1.5" marker-end="url(#wf-arrow)" />
              {label && <text x={mid} y={(y1 + y2) / 2 - 4} text-anchor="middle" class="wf-edge-label">{label}</text>}
            </g>
          );
        })}
        {all.map(({ node, x, y }) => {
          const status = statuses?.get(node.id);
          return (
            <g key={node.id} transform={`translate(${x} ${y})`} data-node={node.label} data-node-status={status}>
              <title>{`${node.label} (${node.node_type})${status ? `: ${status}` : ''}`}</title>
              <rect width={W} height={H} rx="8" fill={status ? STATUS_FILL[status] ?? '#fff' : '#fff'} stroke={CATEGORY_COLOURS[node.node_category] ?? '#6b7280'} stroke-width={node.is_entry_point ? 3 : 1.5} />
              <text x="10" y="22" class="wf-node-label">{cut(node.label, 20)}</text>
              <text x="10" y="42" class="wf-node-type">{cut(node.node_type, 26)}</text>
            </g>
          );
        })}
      </svg>
      <figcaption class="legend">
        {Object.entries(CATEGORY_COLOURS).map(([k, colour]) => <span key={k}><i style={{ background: colour }} />{k}</span>)}
      </figcaption>
    </figure>
  );
}
