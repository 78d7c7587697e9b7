/**
 * Runs from the editor (spec 2, Endpoints: Workflows): the trigger data for a run or a simulation
 * (JSON), Test run (POST /workflows/{id}/test: validates, runs now for real), Execute (POST
 * /workflows/{id}/execute: queued), and the workflow's executions (GET /workflows/{id}/executions);
 * opening one shows its path on the graph.
 */
import { ErrorBox } from '../../dialogs';
import { useWrapped } from '../use-wrapped';
import { duration, statusVariant, when, type Execution } from '../workflow-types';

interface Props {
  workflowId: string | null;
  reloadKey: string;
  data: string;
  dataProblem: string | null;
  busy: boolean;
  shown: string | null;
  onData: (text: string) => void;
  onTest: () => void;
  onExecute: () => void;
  onOpen: (executionId: string) => void;
}

export function RunsPanel({ workflowId, reloadKey, data, dataProblem, busy, shown, onData, onTest, onExecute, onOpen }: Props) {
  return (
    <section class="wf-panel" aria-label="Runs" data-runs-panel>
      <h2>Run</h2>
      <label class="field-label" for="wf-run-data">Trigger data (JSON)</label>
      <textarea id="wf-run-data" class="code" rows={3} value={data} aria-invalid={dataProblem ? true : undefined} aria-describedby="wf-run-data-help" onInput={(e) => onData((e.target as HTMLTextAreaElement).value)} />
      <small id="wf-run-data-help" class={dataProblem ? 'input-error' : 'muted'}>{dataProblem ?? 'Used by Simulate, Test run and Execute.'}</small>
      <div class="row-end">
        <button type="button" disabled={busy || !!dataProblem} onClick={onTest} data-action="test">Test run</button>
        <button type="button" disabled={busy || !!dataProblem} onClick={onExecute} data-action="execute">Execute</button>
      </div>
      {workflowId && <ExecutionList workflowId={workflowId} reloadKey={reloadKey} shown={shown} onOpen={onOpen} />}
    </section>
  );
}

function ExecutionList({ workflowId, reloadKey, shown, onOpen }: { workflowId: string; reloadKey: string; shown: string | null; onOpen: (id: string) => void }) {
  const list = useWrapped<Execution[]>(`/workflows/${workflowId}/executions`, { per_page: 10 }, reloadKey);
  if (list.error) return <ErrorBox error={list.error} title="Executions could not be loaded" />;
  if (!list.data) return <p class="muted">Loading…</p>;
  if (list.data.length === 0) return <p class="muted">Not run yet.</p>;
  return (
    <>
      <h3>Executions</h3>
      <ul class="wf-runs">
        {list.data.map((e) => (
          <li key={e.id}>
            <button type="button" class="link" data-open-execution={e.id} aria-pressed={shown === e.id} onClick={() => onOpen(e.id)}>
              <span class={`badge badge-${statusVariant(e.status)}`}>{e.status}</span> {when(e.started_at ?? e.created_at)} · {duration(e.duration_ms)}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
