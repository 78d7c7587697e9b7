/**
 * The node palette: the tenant's node registry grouped by category (spec 2, GET
 * /workflow-nodes/grouped), filterable. Each node is a button: dragged onto the canvas it is placed
 * where dropped; Enter or a click adds it beside the last node, so the editor works without a mouse.
 */
import { useState } from 'preact/hooks';
import type { NodeEntry, NodeGroup } from '../workflow-types';

/** The drag payload's type: a registry identifier, read by the canvas's drop. */
export const PALETTE_DRAG_TYPE = 'application/x-mandi-node';

export function Palette({ groups, onAdd, disabled }: { groups: NodeGroup[]; onAdd: (entry: NodeEntry) => void; disabled?: boolean }) {
  const [filter, setFilter] = useState('');
  const q = filter.trim().toLowerCase();
  const shown = groups.map((g) => ({ ...g, nodes: g.nodes.filter((n) => !q || n.name.toLowerCase().includes(q) || n.identifier.toLowerCase().includes(q)) }));
  return (
    <aside class="wf-palette" aria-label="Node palette" data-palette>
      <h2>Nodes</h2>
      <input type="search" aria-label="Filter nodes" placeholder="Filter nodes" value={filter} onInput={(e) => setFilter((e.target as HTMLInputElement).value)} />
      {shown.map((g) => g.nodes.length > 0 && (
        <section key={g.category} data-palette-group={g.category}>
          <h3 style={{ borderColor: g.color }} title={g.description}>{g.label}</h3>
          <ul>
            {g.nodes.map((n) => (
              <li key={n.identifier}>
                <button type="button" class="wf-palette-node" draggable={!disabled} disabled={disabled} data-palette-node={n.identifier} title={n.description}
                  aria-label={`Add ${n.name} (${g.label}): ${n.description}`} style={{ borderLeftColor: n.color }}
                  onDragStart={(e) => { e.dataTransfer!.setData(PALETTE_DRAG_TYPE, n.identifier); e.dataTransfer!.effectAllowed = 'copy'; }}
                  onClick={() => onAdd(n)}>
                  <strong>{n.name}</strong>
                  <span class="muted">{n.module}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
      {shown.every((g) => g.nodes.length === 0) && <p class="muted">No node matches.</p>}
    </aside>
  );
}
