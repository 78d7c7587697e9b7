/**
 * The workflow editor (`/admin/workflows/new`, `/admin/workflows/{id}/edit`): palette, canvas and a
 * side panel (the selection, or the workflow's own fields; runs; versions). Save creates (POST
 * /workflows) or updates (PUT /workflows/{id}); Validate, Simulate, Test run, Execute and Activate
 * work on the saved workflow, so with unsaved changes they save first. What the API answers lands
 * on the graph (run-overlay.ts); its refusals are shown as it gave them. Every edit of the working
 * copy is a step of the undo history (history.ts): Undo/Redo in the toolbar, Ctrl/Cmd+Z and
 * Ctrl/Cmd+Shift+Z or Ctrl+Y anywhere in the editor but in a form field.
 */
import { useEffect, useReducer, useState } from 'preact/hooks';
import { api } from '../../api';
import { ErrorBox, toast } from '../../dialogs';
import { navigate } from '../../router';
import { useWrapped } from '../use-wrapped';
import { statusVariant, WORKFLOWS_PATH, type NodeEntry, type NodeGroup, type Workflow } from '../workflow-types';
import { Canvas, editable, type Selection } from './canvas';
import { addNode, connect, draftOf, emptyDraft, removeConnection, removeNode, renamer, updateNode, type Draft, type DraftNode } from './draft';
import { executeAndFollow, executionOf, saveWorkflow, setActive, simulateWorkflow, testRun, validateWorkflow, type Outcome } from './editor-api';
import { historyOf, historyReducer, type History, type HistoryAction } from './history';
import { NodePanel } from './node-panel';
import { Palette } from './palette';
import type { Overlay } from './run-overlay';
import { RunsPanel } from './runs-panel';
import { WorkflowFields } from './workflow-fields';
import { VersionsPanel, type VersionDetail } from './versions-panel';

const readData = (text: string): { data?: Record<string, unknown>; problem: string | null } => {
  try {
    const v: unknown = JSON.parse(text || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? { data: v as Record<string, unknown>, problem: null } : { problem: 'The trigger data must be a JSON object.' };
  } catch {
    return { problem: 'The trigger data is not valid JSON.' };
  }
};

/** The fields two versions of an object differ in: what an edit touched, for its undo group. */
const changedKeys = (a: object, b: object) => {
  const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>];
  return [...new Set([...Object.keys(x), ...Object.keys(y)])].filter((k) => JSON.stringify(x[k]) !== JSON.stringify(y[k])).join('+');
};
export function EditorPage({ id }: { id: string | null }) {
  const registry = useWrapped<NodeGroup[]>('/workflow-nodes/grouped');
  const [saved, setSaved] = useState<Workflow | null>(null);
  const [history, dispatch] = useReducer<History<Draft>, HistoryAction<Draft>>(historyReducer, historyOf(emptyDraft()));
  /** The working copy as last loaded or saved: unsaved changes are any other (an undo can come back to it). */
  const [loaded, setLoaded] = useState<Draft>(history.present);
  const [selected, setSelection] = useState<Selection>(null);
  const [loadError, setLoadError] = useState<unknown>();
  const [overlay, setOverlay] = useState<(Overlay & { executionId?: string }) | null>(null);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState<string | null>(null);
  const [version, setVersion] = useState<{ detail: VersionDetail; draft: Draft } | null>(null);
  const [runData, setRunData] = useState('{}');
  const [runsKey, setRunsKey] = useState(0);

  useEffect(() => {
    if (!id || saved?.id === id) return;
    api<{ data: Workflow }>(`/workflows/${id}`).then((r) => load(r.data), setLoadError);
  }, [id]);

  const entries = new Map<string, NodeEntry>((registry.data ?? []).flatMap((g) => g.nodes.map((n) => [n.identifier, n] as const)));
  const readOnly = version !== null;
  const draft = history.present;
  const dirty = draft !== loaded;
  // An undo can take away the selected node or connection.
  const selection = selected && (selected.kind === 'node' ? draft.nodes : draft.connections).some((x) => x.key === selected.key) ? selected : null;
  const shown = version?.draft ?? draft;
  const parsedData = readData(runData);

  /**
   * `afterSave`: the workflow as the canvas's own save (or activation) answered it, the same graph
   * with new nodes under their ids, so the history is kept, renamed to match. Otherwise a fresh
   * start (opened, a version restored): nothing to undo.
   */
  function load(w: Workflow, afterSave = false) {
    const next = draftOf(w);
    // Saved nodes get their ids as keys: the selection follows its node by position in the list.
    const at = afterSave && selection?.kind === 'node' ? draft.nodes.findIndex((n) => n.key === selection.key) : -1;
    setSaved(w);
    dispatch(afterSave ? { type: 'rebase', present: next, rename: renamer(draft, next) } : { type: 'reset', present: next });
    setLoaded(next);
    setSelection(at >= 0 && next.nodes[at] ? { kind: 'node', key: next.nodes[at].key } : null);
  }
  /** `group`: edits in a row with the same group are one undo step (typing into one field, one drag). */
  const change = (next: Draft, group?: string) => dispatch({ type: 'commit', next, group });
  const onNodeChange = (key: string, c: Partial<DraftNode>) => {
    const node = draft.nodes.find((n) => n.key === key);
    const fields = Object.keys(c).map((f) => (f === 'config' && node && c.config ? `config.${changedKeys(node.config, c.config)}` : f));
    change(updateNode(draft, key, c), `node ${key} ${fields.join()}`);
  };
  const onAdd = (entry: NodeEntry, position?: { x: number; y: number }) => {
    const { draft: next, key } = addNode(draft, entry, position);
    change(next);
    setSelection({ kind: 'node', key });
  };
  const onConnect = (source: string, handle: string, target: string) => {
    const next = connect(draft, source, handle, target);
    if ('refused' in next) return toast('error', next.refused);
    change(next);
  };
  const onDelete = (s: NonNullable<Selection>) => {
    change(s.kind === 'node' ? removeNode(draft, s.key) : removeConnection(draft, s.key));
    setSelection(null);
  };
  const canUndo = !readOnly && history.past.length > 0;
  const canRedo = !readOnly && history.future.length > 0;
  const undo = () => { if (canUndo) dispatch({ type: 'undo' }); };
  const redo = () => { if (canRedo) dispatch({ type: 'redo' }); };
  // Bound once, not per render: an effect re-bound after each render would leave a key pressed right
  // after a change to the previous render's handler (a redo with nothing to redo yet). The reducer
  // itself ignores an undo or redo with nothing behind or ahead.
  useEffect(() => {
    if (readOnly) return;
    const onKey = (e: KeyboardEvent) => {
      // A form field keeps its own undo (the text typed so far).
      if (!(e.ctrlKey || e.metaKey) || e.altKey || editable(e.target)) return;
      const key = e.key.toLowerCase();
      if (key === 'z' && !e.shiftKey) dispatch({ type: 'undo' });
      else if ((key === 'z' && e.shiftKey) || (key === 'y' && !e.shiftKey)) dispatch({ type: 'redo' });
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [readOnly]);

  /** Runs `fn` with the busy flag and the error box; a refusal naming nodes becomes the overlay. */
  async function act<T>(what: string, fn: () => Promise<T>): Promise<T | undefined> {
    setBusy(what);
    setError(undefined);
    try {
      return await fn();
    } catch (err) {
      setError(err);
      return undefined;
    } finally {
      setBusy(null);
    }
  }
  const shownOutcome = <T,>(o: Outcome<T>): T | undefined => {
    if (o.ok) return o.value;
    setOverlay(o.overlay);
    return undefined;
  };
  const save = async (): Promise<Workflow | undefined> => {
    const outcome = await saveWorkflow(saved?.id ?? null, draft);
    const w = shownOutcome(outcome);
    if (!w) return undefined;
    load(w, true);
    setOverlay(null);
    if (!saved) navigate(`${WORKFLOWS_PATH}/${w.id}/edit`, true);
    return w;
  };
  /** The saved workflow, saving first when the canvas has unsaved changes. */
  const current = async () => (dirty || !saved ? save() : saved);
  const withSaved = (what: string, fn: (w: Workflow) => Promise<void>) => act(what, async () => {
    const w = await current();
    if (w) await fn(w);
  });

  const showExecution = async (executionId: string) => {
    const o = await executionOf(executionId);
    setOverlay({ ...o, executionId });
    setRunsKey((k) => k + 1);
  };
  const onSave = () => act('save', async () => {
    if (await save()) toast('ok', 'Workflow saved');
  });
  const onValidate = () => withSaved('validate', async (w) => setOverlay(await validateWorkflow(w.id, draftOf(w).nodes)));
  const onSimulate = () => withSaved('simulate', async (w) => setOverlay(await simulateWorkflow(w.id, draftOf(w).nodes, parsedData.data!)));
  const onTest = () => withSaved('test', async (w) => {
    const executionId = shownOutcome(await testRun(w.id, draftOf(w).nodes, parsedData.data!));
    if (executionId) await showExecution(executionId);
  });
  const onExecute = () => withSaved('execute', async (w) => showExecution(await executeAndFollow(w.id, parsedData.data!)));
  const onActive = (active: boolean) => withSaved(active ? 'activate' : 'deactivate', async (w) => {
    const updated = shownOutcome(await setActive(w.id, active, draftOf(w).nodes));
    if (!updated) return;
    load(updated, true);
    toast('ok', active ? 'Workflow activated' : 'Workflow paused');
  });

  if (loadError) return <ErrorBox error={loadError} title="The workflow could not be loaded" />;
  if (id && !saved) return <p class="muted">Loading…</p>;
  const selectedMark = selection && selection.kind === 'node' ? overlay?.marks.get(selection.key) : undefined;
  const status = saved?.status ?? 'new';
  const named = overlay ? draft.nodes.flatMap((n) => (overlay.marks.get(n.key)?.problems ?? []).map((p, i) => ({ n, p, i }))) : [];

  return (
    <div class="wf-editor" data-workflow-editor={saved?.id ?? 'new'}>
      <header class="wf-toolbar">
        <a href={saved ? `${WORKFLOWS_PATH}/${saved.id}` : WORKFLOWS_PATH}>←<span class="sr-only"> Back</span></a>
        <label class="sr-only" for="wf-name">Workflow name</label>
        <input id="wf-name" class="wf-name" value={draft.name} disabled={readOnly} onInput={(e) => change({ ...draft, name: (e.target as HTMLInputElement).value }, 'name')} />
        <span class={`badge badge-${statusVariant(status)}`} data-workflow-status>{status}</span>
        {dirty && <span class="muted" data-unsaved>Unsaved changes</span>}
        <span class="spacer" />
        <button type="button" aria-label="Undo" title="Undo (Ctrl+Z)" aria-keyshortcuts="Control+Z Meta+Z" disabled={!canUndo} onClick={undo} data-action="undo">↶<span class="sr-only"> Undo</span></button>
        <button type="button" aria-label="Redo" title="Redo (Ctrl+Shift+Z)" aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z Control+Y" disabled={!canRedo} onClick={redo} data-action="redo">↷<span class="sr-only"> Redo</span></button>
        <button type="button" class="primary" disabled={readOnly || busy !== null} onClick={onSave} data-action="save">{busy === 'save' ? 'Saving…' : 'Save'}</button>
        <button type="button" disabled={readOnly || busy !== null} onClick={onValidate} data-action="validate">Validate</button>
        <button type="button" disabled={readOnly || busy !== null || !!parsedData.problem} onClick={onSimulate} data-action="simulate">Simulate</button>
        {status === 'active'
          ? <button type="button" disabled={readOnly || busy !== null} onClick={() => onActive(false)} data-action="deactivate">Pause</button>
          : <button type="button" disabled={readOnly || busy !== null} onClick={() => onActive(true)} data-action="activate">Activate</button>}
      </header>
      {busy && <p class="muted" role="status">Working: {busy}…</p>}
      {error ? <ErrorBox error={error} title="The platform refused this" /> : null}
      {saved?.paused_reason && <div class="banner banner-warning">{saved.paused_reason}</div>}
      {version && (
        <div class="banner banner-info" data-version-banner>
          <span>Viewing version {version.detail.version} (read-only): {version.detail.summary}</span>
          <button type="button" onClick={() => setVersion(null)}>Back to the current workflow</button>
        </div>
      )}
      {overlay && (
        <div class={`banner ${overlay.general.length || [...overlay.marks.values()].some((m) => m.problems.length || m.status === 'failed') ? 'banner-warning' : 'banner-info'}`} data-overlay={overlay.kind} role="status">
          <div>
            <strong data-overlay-title>{overlay.title}</strong>
            {overlay.general.length > 0 && <ul data-overlay-general>{overlay.general.map((g, i) => <li key={i}>{g}</li>)}</ul>}
            {named.length > 0 && <ul data-overlay-nodes>{named.map(({ n, p, i }) => <li key={`${n.key}-${i}`}><strong>{n.label}</strong>: {p}</li>)}</ul>}
            {overlay.kind === 'execution' && <p>Select a node to see its input and output.</p>}
          </div>
          <button type="button" class="ghost" onClick={() => setOverlay(null)}>Clear</button>
        </div>
      )}
      {registry.error ? <ErrorBox error={registry.error} title="The node registry could not be loaded" /> : null}
      <div class="wf-editor-body">
        <Palette groups={registry.data ?? []} disabled={readOnly} onAdd={(e) => onAdd(e)} />
        <Canvas draft={shown} entries={entries} selection={selection} overlay={readOnly ? null : overlay} readOnly={readOnly}
          onSelect={setSelection} onMove={(key, position, gesture) => change(updateNode(draft, key, { position }), gesture === undefined ? undefined : `move ${gesture}`)} onConnect={onConnect} onDelete={onDelete}
          onDropNode={(identifier, position) => { const e = entries.get(identifier); if (e) onAdd(e, position); }} />
        <div class="wf-side">
          {selection ? (
            <NodePanel key={selection.key} draft={shown} entries={entries} selection={selection} mark={readOnly ? undefined : selectedMark} readOnly={readOnly}
              onChange={onNodeChange} onConnect={onConnect} onDelete={onDelete} />
          ) : <WorkflowFields draft={shown} readOnly={readOnly} onChange={(next) => change(next, `workflow ${changedKeys(draft, next)}`)} />}
          {!readOnly && (
            <RunsPanel workflowId={saved?.id ?? null} reloadKey={`${runsKey}`} data={runData} dataProblem={parsedData.problem} busy={busy !== null}
              shown={overlay?.executionId ?? null} onData={setRunData} onTest={onTest} onExecute={onExecute} onOpen={(eid) => act('open execution', () => showExecution(eid))} />
          )}
          {saved && (
            <VersionsPanel workflowId={saved.id} reloadKey={saved.updated_at ?? ''} viewing={version?.detail.version ?? null}
              onView={(detail) => { setVersion({ detail, draft: draftOf({ ...detail.workflow, name: detail.workflow.name }) }); setSelection(null); }}
              onRestored={(w) => { setVersion(null); load(w); setOverlay(null); toast('ok', 'Version restored'); }} />
          )}
        </div>
      </div>
    </div>
  );
}
