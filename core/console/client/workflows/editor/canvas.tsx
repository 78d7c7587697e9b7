/**
 * The editor's canvas: nodes at their positions (HTML, focusable), connections as SVG curves beneath,
 * both on one layer the viewport (viewport.ts) pans and zooms. Mouse: a palette node dropped here is
 * placed where dropped; a node is moved by dragging it; a connection is drawn by dragging from an
 * output handle (a condition's `true`/`false`) onto another node; dragging empty canvas, or anything
 * with Space held, pans; the wheel pans and Ctrl/Cmd+wheel zooms at the pointer. Keyboard: Tab
 * reaches every node and connection, focus selects, Delete/Backspace removes the selection, arrow
 * keys move a node, + and - zoom, 0 is 100%, 1 fits the graph. Every pointer position goes through
 * the viewport into graph coordinates, so drops and connections land under the pointer at any zoom.
 * Labels are user text and rendered as text only.
 */
import { useRef, useState } from 'preact/hooks';
import type { NodeEntry } from '../workflow-types';
import { NODE_H, NODE_W, outputsOf, type Draft, type DraftNode } from './draft';
import { PALETTE_DRAG_TYPE } from './palette';
import type { NodeMark, Overlay } from './run-overlay';
import { fitView, HOME, MAX_ZOOM, MIN_ZOOM, panBy, steppedZoom, toGraph, zoomAt, type Point, type View } from './viewport';

export type Selection = { kind: 'node' | 'edge'; key: string } | null;

interface Props {
  draft: Draft;
  entries: Map<string, NodeEntry>;
  selection: Selection;
  overlay: Overlay | null;
  readOnly: boolean;
  onSelect: (s: Selection) => void;
  /** `gesture` is the same for every move of one drag: the history keeps the drag as one step. */
  onMove: (key: string, position: { x: number; y: number }, gesture?: number) => void;
  onConnect: (source: string, handle: string, target: string) => void;
  onDelete: (s: NonNullable<Selection>) => void;
  onDropNode: (identifier: string, position: { x: number; y: number }) => void;
}

type Gesture =
  | { kind: 'move'; key: string; dx: number; dy: number; id: number }
  | { kind: 'connect'; source: string; handle: string; x1: number; y1: number; x2: number; y2: number }
  | { kind: 'pan'; from: Point; view: View };

/** A node grows with its handles (a switch with many cases). */
const heightOf = (handles: number) => Math.max(NODE_H, handles * 20 + 8);
const outY = (i: number, count: number) => (heightOf(count) * (i + 1)) / (count + 1);
const curve = (x1: number, y1: number, x2: number, y2: number) => {
  const bend = Math.max(40, Math.abs(x2 - x1) / 2);
  return `M${x1} ${y1} C${x1 + bend} ${y1} ${x2 - bend} ${y2} ${x2} ${y2}`;
};
/** A form field: keys typed there are text, not the editor's shortcuts. */
export const editable = (t: EventTarget | null) => t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));
let gestures = 0;

export function Canvas({ draft, entries, selection, overlay, readOnly, onSelect, onMove, onConnect, onDelete, onDropNode }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const [gesture, setGesture] = useState<Gesture | null>(null);
  const [view, setView] = useState<View>(HOME);
  const [space, setSpace] = useState(false);
  const byKey = new Map(draft.nodes.map((n) => [n.key, n]));
  const width = Math.max(960, ...draft.nodes.map((n) => n.position.x + NODE_W + 240));
  const height = Math.max(520, ...draft.nodes.map((n) => n.position.y + NODE_H + 200));
  /** A pointer's position in the viewport's pixels, from inside its border (where the layer's origin is). */
  const onScreen = (e: { clientX: number; clientY: number }): Point => {
    const el = ref.current!;
    const r = el.getBoundingClientRect();
    return { x: e.clientX - r.left - el.clientLeft, y: e.clientY - r.top - el.clientTop };
  };
  const local = (e: { clientX: number; clientY: number }) => toGraph(view, onScreen(e));
  const middle = (): Point => ({ x: ref.current!.clientWidth / 2, y: ref.current!.clientHeight / 2 });
  const outsOf = (n: DraftNode) => outputsOf(n, entries.get(n.node_type));
  const handlePoint = (n: DraftNode, handle: string) => {
    const outs = outsOf(n);
    return { x: n.position.x + NODE_W, y: n.position.y + outY(Math.max(0, outs.indexOf(handle)), outs.length) };
  };
  const zoomTo = (zoom: number, at = middle()) => setView(zoomAt(view, zoom, at));
  const fit = () => setView(fitView(draft.nodes.map((n) => ({ x: n.position.x, y: n.position.y, width: NODE_W, height: heightOf(outsOf(n).length) })),
    { width: ref.current!.clientWidth, height: ref.current!.clientHeight }));

  const startPan = (e: PointerEvent) => {
    ref.current!.setPointerCapture(e.pointerId);
    setGesture({ kind: 'pan', from: { x: e.clientX, y: e.clientY }, view });
  };
  /** Space held, or the middle button: a pan wherever it starts, before a node or handle sees it. */
  const onPointerDownCapture = (e: PointerEvent) => {
    if (!space && e.button !== 1) return;
    e.stopPropagation();
    e.preventDefault();
    startPan(e);
  };
  const onEmptyDown = (e: PointerEvent) => {
    if (e.button !== 0 || (e.target as Element).closest('[data-node-key], [data-edge]')) return;
    onSelect(null);
    startPan(e);
  };
  const onNodeDown = (e: PointerEvent, n: DraftNode) => {
    if (e.button !== 0) return;
    onSelect({ kind: 'node', key: n.key });
    if (readOnly) return;
    const p = local(e);
    ref.current!.setPointerCapture(e.pointerId);
    setGesture({ kind: 'move', key: n.key, dx: p.x - n.position.x, dy: p.y - n.position.y, id: ++gestures });
  };
  const onHandleDown = (e: PointerEvent, n: DraftNode, handle: string) => {
    if (e.button !== 0 || readOnly) return;
    e.stopPropagation();
    e.preventDefault();
    const from = handlePoint(n, handle);
    ref.current!.setPointerCapture(e.pointerId);
    setGesture({ kind: 'connect', source: n.key, handle, x1: from.x, y1: from.y, x2: from.x, y2: from.y });
  };
  const onPointerMove = (e: PointerEvent) => {
    if (!gesture) return;
    if (gesture.kind === 'pan') return setView(panBy(gesture.view, e.clientX - gesture.from.x, e.clientY - gesture.from.y));
    const p = local(e);
    if (gesture.kind === 'move') onMove(gesture.key, { x: Math.max(0, Math.round(p.x - gesture.dx)), y: Math.max(0, Math.round(p.y - gesture.dy)) }, gesture.id);
    else setGesture({ ...gesture, x2: p.x, y2: p.y });
  };
  const onPointerUp = (e: PointerEvent) => {
    if (gesture?.kind === 'connect') {
      // The pointer is captured by the canvas: the node under it is found by position.
      const under = document.elementFromPoint(e.clientX, e.clientY)?.closest<HTMLElement>('[data-node-key]');
      const target = under?.dataset.nodeKey;
      if (target && target !== gesture.source) onConnect(gesture.source, gesture.handle, target);
    }
    setGesture(null);
  };
  const onWheel = (e: WheelEvent) => {
    e.preventDefault();
    // Ctrl+wheel is also what a trackpad's pinch sends; its deltas are small, a mouse notch's about 100.
    if (e.ctrlKey || e.metaKey) zoomTo(view.zoom * Math.exp(-e.deltaY / 500), onScreen(e));
    else setView(panBy(view, -e.deltaX, -e.deltaY));
  };
  /** Focus moving to a node out of view scrolls the viewport: that becomes a pan, the layer stays put. */
  const onScroll = () => {
    const el = ref.current!;
    if (!el.scrollLeft && !el.scrollTop) return;
    setView(panBy(view, -el.scrollLeft, -el.scrollTop));
    el.scrollLeft = 0;
    el.scrollTop = 0;
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (editable(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
    const zoomKeys: Record<string, () => void> = {
      '+': () => zoomTo(steppedZoom(view.zoom, 1)), '=': () => zoomTo(steppedZoom(view.zoom, 1)), '-': () => zoomTo(steppedZoom(view.zoom, -1)),
      '0': () => zoomTo(1), '1': fit,
    };
    if (zoomKeys[e.key]) {
      e.preventDefault();
      return zoomKeys[e.key]();
    }
    if (e.key === ' ') {
      // Held for space+drag; also keeps the page from scrolling.
      e.preventDefault();
      if (!space) setSpace(true);
      return;
    }
    if (!selection) return;
    if ((e.key === 'Delete' || e.key === 'Backspace') && !readOnly) {
      e.preventDefault();
      onDelete(selection);
      ref.current?.focus();
      return;
    }
    const step = e.shiftKey ? 60 : 20;
    const arrows: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const node = selection.kind === 'node' ? byKey.get(selection.key) : undefined;
    if (node && arrows[e.key] && !readOnly) {
      e.preventDefault();
      onMove(node.key, { x: Math.max(0, node.position.x + arrows[e.key][0]), y: Math.max(0, node.position.y + arrows[e.key][1]) });
    }
  };
  const onDrop = (e: DragEvent) => {
    const identifier = e.dataTransfer?.getData(PALETTE_DRAG_TYPE);
    if (!identifier || readOnly) return;
    e.preventDefault();
    const p = local(e);
    onDropNode(identifier, { x: Math.round(p.x - NODE_W / 2), y: Math.round(p.y - NODE_H / 2) });
  };

  const percent = `${Math.round(view.zoom * 100)}%`;
  return (
    <div class="wf-canvas-col">
      <div class="wf-zoom" role="toolbar" aria-label="Zoom" data-zoom-controls>
        <button type="button" aria-label="Zoom out" title="Zoom out (-)" disabled={view.zoom <= MIN_ZOOM} onClick={() => zoomTo(steppedZoom(view.zoom, -1))} data-zoom="out">−</button>
        <button type="button" aria-label={`Zoom ${percent}, reset to 100%`} title="Reset to 100% (0)" onClick={() => zoomTo(1)} data-zoom-level={view.zoom}>{percent}</button>
        <button type="button" aria-label="Zoom in" title="Zoom in (+)" disabled={view.zoom >= MAX_ZOOM} onClick={() => zoomTo(steppedZoom(view.zoom, 1))} data-zoom="in">+</button>
        <button type="button" aria-label="Fit the workflow in view" title="Fit (1)" onClick={fit} data-zoom="fit">Fit</button>
      </div>
      <div ref={ref} class={`wf-canvas-wrap${space || gesture?.kind === 'pan' ? ' panning' : ''}`} tabIndex={-1} aria-label="Workflow canvas" data-viewport
        style={{ backgroundSize: `${20 * view.zoom}px ${20 * view.zoom}px`, backgroundPosition: `${view.x}px ${view.y}px` }}
        onPointerDownCapture={onPointerDownCapture} onPointerDown={onEmptyDown} onPointerMove={onPointerMove} onPointerUp={onPointerUp} onPointerCancel={() => setGesture(null)}
        onWheel={onWheel} onScroll={onScroll} onKeyDown={onKeyDown} onKeyUp={(e) => { if (e.key === ' ') setSpace(false); }} onBlur={() => setSpace(false)}
        onDragOver={(e) => { if (!readOnly && e.dataTransfer?.types.includes(PALETTE_DRAG_TYPE)) e.preventDefault(); }} onDrop={onDrop}>
        <div class={`wf-canvas${readOnly ? ' read-only' : ''}`} style={{ width, height, transform: `translate(${view.x}px, ${view.y}px) scale(${view.zoom})` }} data-canvas>
          <svg class="wf-edges" width={width} height={height} aria-hidden={draft.connections.length === 0 ? true : undefined}>
            <defs><marker id="wf-editor-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0 0 10 5 0 10z" fill="#6b7280" /></marker></defs>
            {draft.connections.map((c) => {
              const a = byKey.get(c.source);
              const b = byKey.get(c.target);
              if (!a || !b) return null;
              const from = handlePoint(a, c.source_handle);
              const d = curve(from.x, from.y, b.position.x, b.position.y + heightOf(outsOf(b).length) / 2);
              const selected = selection?.kind === 'edge' && selection.key === c.key;
              const ran = overlay?.kind === 'execution' && overlay.marks.has(a.key) && overlay.marks.has(b.key);
              const name = `${a.label} → ${b.label}${c.condition_path ? ` (${c.condition_path})` : ''}`;
              return (
                <g key={c.key} class={`wf-edge${selected ? ' selected' : ''}${ran ? ' ran' : ''}`} data-edge={`${a.label}->${b.label}`} data-edge-path={c.condition_path ?? undefined}
                  tabIndex={0} role="button" aria-label={`Connection ${name}`} aria-pressed={selected}
                  onPointerDown={(e) => { e.stopPropagation(); onSelect({ kind: 'edge', key: c.key }); }} onFocus={() => onSelect({ kind: 'edge', key: c.key })}>
                  <title>{name}</title>
                  <path class="wf-edge-hit" d={d} />
                  <path class="wf-edge-line" d={d} marker-end="url(#wf-editor-arrow)" />
                </g>
              );
            })}
            {gesture?.kind === 'connect' && <path class="wf-edge-pending" d={curve(gesture.x1, gesture.y1, gesture.x2, gesture.y2)} />}
          </svg>
          {draft.nodes.map((n) => (
            <CanvasNode key={n.key} node={n} entry={entries.get(n.node_type)} selected={selection?.kind === 'node' && selection.key === n.key} mark={overlay?.marks.get(n.key)}
              onPointerDown={(e) => onNodeDown(e, n)} onFocus={() => onSelect({ kind: 'node', key: n.key })} onHandleDown={(e, h) => onHandleDown(e, n, h)} />
          ))}
          {draft.nodes.length === 0 && <p class="wf-canvas-empty muted">Drag a node from the palette here, or focus one in the palette and press Enter.</p>}
        </div>
      </div>
    </div>
  );
}

interface NodeProps {
  node: DraftNode;
  entry?: NodeEntry;
  selected: boolean;
  mark?: NodeMark;
  onPointerDown: (e: PointerEvent) => void;
  onFocus: () => void;
  onHandleDown: (e: PointerEvent, handle: string) => void;
}

function CanvasNode({ node, entry, selected, mark, onPointerDown, onFocus, onHandleDown }: NodeProps) {
  const outs = outputsOf(node, entry);
  const problems = mark?.problems.length ?? 0;
  const status = mark?.status;
  return (
    <div class={`wf-enode${selected ? ' selected' : ''}${problems ? ' has-problems' : ''}${status ? ` st-${status}` : ''}`} style={{ left: node.position.x, top: node.position.y, width: NODE_W, height: heightOf(outs.length), borderLeftColor: entry?.color }}
      data-node-key={node.key} data-enode={node.label} data-node-status={status} tabIndex={0} role="button" aria-pressed={selected}
      aria-label={`${node.label}, ${entry?.name ?? node.node_type}${status ? `, ${status}` : ''}${problems ? `, ${problems} problem${problems > 1 ? 's' : ''}` : ''}`}
      onPointerDown={onPointerDown} onFocus={onFocus}>
      {node.node_category !== 'trigger' && <span class="wf-handle wf-in" data-handle-in aria-hidden="true" />}
      <span class="wf-enode-label" title={node.label}>{node.label}</span>
      <span class="wf-enode-type">{entry?.name ?? node.node_type}</span>
      {status && <span class={`wf-enode-status badge badge-${status === 'failed' ? 'destructive' : status === 'completed' || status === 'executed' ? 'success' : 'secondary'}`}>{status}</span>}
      {problems > 0 && <span class="wf-enode-problems" data-node-problems={problems} title={mark!.problems.join('\n')}>⚠ {problems}</span>}
      {outs.map((h, i) => (
        <span key={h} class="wf-handle wf-out" data-handle-out={h} style={{ top: outY(i, outs.length) - 7 }} title={`Drag to connect (${h})`} aria-hidden="true" onPointerDown={(e) => onHandleDown(e, h)}>
          {h !== 'output' && <span class="wf-handle-label">{h}</span>}
        </span>
      ))}
    </div>
  );
}
