/**
 * The side panel for the selection. A node: its label, its config form (node-form.tsx), a way to
 * connect it to another node from the keyboard, and what the overlay knows of it (a run's or a
 * simulation's input and output, its status, the problems a validation named). A connection: its
 * ends and branch, and its removal. Values from runs are user and module data: shown as JSON text.
 */
import { useState } from 'preact/hooks';
import type { NodeEntry } from '../workflow-types';
import { outputsOf, type Draft, type DraftNode } from './draft';
import type { Selection } from './canvas';
import { NodeForm } from './node-form';
import type { NodeMark } from './run-overlay';

const json = (v: unknown) => (v === undefined ? '—' : JSON.stringify(v, null, 2));

interface Props {
  draft: Draft;
  entries: Map<string, NodeEntry>;
  selection: NonNullable<Selection>;
  mark?: NodeMark;
  readOnly: boolean;
  onChange: (key: string, change: Partial<DraftNode>) => void;
  onConnect: (source: string, handle: string, target: string) => void;
  onDelete: (s: NonNullable<Selection>) => void;
}

export function NodePanel({ draft, entries, selection, mark, readOnly, onChange, onConnect, onDelete }: Props) {
  if (selection.kind === 'edge') {
    const c = draft.connections.find((x) => x.key === selection.key);
    if (!c) return null;
    const label = (k: string) => draft.nodes.find((n) => n.key === k)?.label ?? '?';
    return (
      <section class="wf-panel" aria-label="Connection" data-edge-panel>
        <h2>Connection</h2>
        <p>{label(c.source)} → {label(c.target)}{c.condition_path ? <> when <strong>{c.condition_path}</strong></> : null}</p>
        {!readOnly && <button type="button" class="danger" onClick={() => onDelete(selection)}>Delete connection</button>}
      </section>
    );
  }
  const node = draft.nodes.find((n) => n.key === selection.key);
  if (!node) return null;
  const entry = entries.get(node.node_type);
  const id = `wf-node-${node.key}`;
  return (
    <section class="wf-panel" aria-label={`Node ${node.label}`} data-node-panel={node.label}>
      <h2>{entry?.name ?? node.node_type}</h2>
      {entry?.description && <p class="muted">{entry.description}</p>}
      {mark && <MarkView mark={mark} />}
      <div class="form">
        <div class="form-row">
          <label for={`${id}-label`}>Label<span aria-hidden="true"> *</span></label>
          <input id={`${id}-label`} data-node-label-input value={node.label} disabled={readOnly} aria-required="true" onInput={(e) => onChange(node.key, { label: (e.target as HTMLInputElement).value })} />
          <small class="muted">Unique in the workflow: later nodes read this one's output as {'{{nodes.<label>.output}}'}.</small>
        </div>
        {entry ? <NodeForm entry={entry} config={node.config} readOnly={readOnly} idPrefix={id} onChange={(config) => onChange(node.key, { config })} />
          : <p class="input-error">The node type {node.node_type} is not in this tenant's node registry.</p>}
      </div>
      {!readOnly && <ConnectFrom draft={draft} node={node} entry={entry} onConnect={onConnect} />}
      {!readOnly && <p><button type="button" class="danger" onClick={() => onDelete(selection)}>Delete node</button></p>}
    </section>
  );
}

function MarkView({ mark }: { mark: NodeMark }) {
  return (
    <div class="wf-mark" data-node-mark>
      {mark.status && <p>Status: <strong data-mark-status>{mark.status}</strong>{mark.reason ? <span class="muted"> · {mark.reason}</span> : null}</p>}
      {mark.error && <p class="input-error" data-mark-error>{mark.error}</p>}
      {mark.problems.length > 0 && <ul class="input-error" data-mark-problems>{mark.problems.map((p, i) => <li key={i}>{p}</li>)}</ul>}
      {(mark.input !== undefined || mark.output !== undefined) && (
        <div class="wf-io">
          <div><h3>Input</h3><pre class="code" data-mark-input>{json(mark.input)}</pre></div>
          <div><h3>Output</h3><pre class="code" data-mark-output>{json(mark.output)}</pre></div>
        </div>
      )}
    </div>
  );
}

/** Connecting without a mouse: pick an output handle of this node and the node it leads to. */
function ConnectFrom({ draft, node, entry, onConnect }: { draft: Draft; node: DraftNode; entry?: NodeEntry; onConnect: Props['onConnect'] }) {
  const outs = outputsOf(node, entry);
  const targets = draft.nodes.filter((n) => n.key !== node.key && n.node_category !== 'trigger');
  const [handle, setHandle] = useState(outs[0]);
  const [target, setTarget] = useState('');
  if (targets.length === 0) return null;
  const id = `wf-connect-${node.key}`;
  return (
    <fieldset class="wf-connect" data-connect-from={node.label}>
      <legend>Connect to</legend>
      {outs.length > 1 && (
        <label class="field-label" for={`${id}-handle`}>Output
          <select id={`${id}-handle`} data-connect-handle value={handle} onChange={(e) => setHandle((e.target as HTMLSelectElement).value)}>
            {outs.map((o) => <option key={o} value={o}>{o}</option>)}
          </select>
        </label>
      )}
      <label class="field-label" for={`${id}-target`}>Node
        <select id={`${id}-target`} data-connect-target value={target} onChange={(e) => setTarget((e.target as HTMLSelectElement).value)}>
          <option value="">Choose a node</option>
          {targets.map((n) => <option key={n.key} value={n.key}>{n.label}</option>)}
        </select>
      </label>
      <button type="button" disabled={!target} onClick={() => onConnect(node.key, outs.includes(handle) ? handle : outs[0], target)}>Connect</button>
    </fieldset>
  );
}
