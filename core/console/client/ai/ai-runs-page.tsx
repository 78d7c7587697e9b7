/**
 * AI graph runs (spec 2, AI: Graph run, States and transitions; modules/ai README, "Graph flows"):
 * the list (GET /ai/agent/graph/runs, filtered by status, paused runs first) and one run (GET
 * /ai/agent/graph/{run_id}/status): its flow, status and current node, what a paused node asks (its
 * prompt and the state it decides on), its steps (`node_results`, in run order), the final output or
 * error, and for a paused run the answer form (run-answer-form.tsx) to users holding ai.configure.
 * The approvers' notification links here (`/admin/ai-runs/<run_id>`, modules/ai/src/graph/approvals.ts).
 * Everything a model or a user wrote (prompt, reasoning, notes, outputs) is rendered as text.
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { ErrorBox } from '../dialogs';
import { can, type Me } from '../me';
import { statusVariant, when } from '../workflows/workflow-types';
import { RunAnswerForm } from './run-answer-form';
import { AI_RUNS_PATH, flowName, pausedFirst, RUN_STATUSES, type Run, type RunSummary } from './run-types';

const json = (v: unknown) => (v === null || v === undefined ? '—' : JSON.stringify(v, null, 2));

/** One GET, again when its key changes (the ai module's answers are not wrapped in `{success, data}`). */
function useApi<T>(path: string, query: Record<string, string | undefined>, reloadKey: number): { data?: T; error?: unknown } {
  const [state, setState] = useState<{ data?: T; error?: unknown }>({});
  const key = `${path}?${JSON.stringify(query)}#${reloadKey}`;
  useEffect(() => {
    api<T>(path, { query }).then((data) => setState({ data }), (error: unknown) => setState({ error }));
  }, [key]);
  return state;
}

export function AiRunsPage({ me, sub }: { me: Me; sub: string }) {
  const id = decodeURIComponent(sub.split('/')[1] ?? '');
  return id ? <RunDetail id={id} canAnswer={can(me, 'ai.configure')} /> : <RunList />;
}

function RunList() {
  const [status, setStatus] = useState('');
  const { data, error } = useApi<{ data: RunSummary[] }>('/ai/agent/graph/runs', { status: status || undefined, limit: '100' }, 0);
  const runs = data ? pausedFirst(data.data) : undefined;
  return (
    <div class="page">
      <h1>AI runs</h1>
      <div class="list-tools">
        <label class="field-label">Status
          <select data-filter="run-status" value={status} onChange={(e) => setStatus((e.target as HTMLSelectElement).value)}>
            <option value="">All</option>
            {RUN_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
        </label>
      </div>
      {error ? <ErrorBox error={error} title="Runs could not be loaded" /> : !runs ? <p class="muted">Loading…</p> : runs.length === 0 ? <p class="muted">No runs.</p> : (
        <table class="table" data-table="ai-runs">
          <thead><tr><th scope="col">Flow</th><th scope="col">Status</th><th scope="col">Current node</th><th scope="col">Started</th><th scope="col">Updated</th></tr></thead>
          <tbody>
            {runs.map((r) => (
              <tr key={r.run_id} data-run={r.run_id}>
                <td><a href={`${AI_RUNS_PATH}/${encodeURIComponent(r.run_id)}`}>{flowName(r.flow_type)}</a></td>
                <td><span class={`badge badge-${statusVariant(r.status)}`}>{r.requires_human_input ? 'waits for approval' : r.status}</span></td>
                <td>{r.current_node ?? '—'}</td>
                <td>{when(r.created_at)}</td>
                <td>{when(r.updated_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function RunDetail({ id, canAnswer }: { id: string; canAnswer: boolean }) {
  const [reload, setReload] = useState(0);
  const { data: run, error } = useApi<Run>(`/ai/agent/graph/${encodeURIComponent(id)}/status`, {}, reload);
  if (error) return <ErrorBox error={error} title="The run could not be loaded" />;
  if (!run || run.run_id !== id) return <p class="muted">Loading…</p>;
  const paused = run.status === 'paused';
  return (
    <div class="page" data-run-detail={run.run_id}>
      <p><a href={AI_RUNS_PATH}>← AI runs</a></p>
      <h1>{flowName(run.flow_type)} <span class={`badge badge-${statusVariant(run.status)}`} data-run-status>{run.status}</span></h1>
      <dl class="details">
        <div class="detail"><dt>Flow type</dt><dd>{run.flow_type}</dd></div>
        <div class="detail"><dt>Current node</dt><dd data-current-node>{run.current_node ?? '—'}</dd></div>
        <div class="detail"><dt>Started</dt><dd>{when(run.created_at)}{run.started_by !== null ? ` by user ${run.started_by}` : ''}</dd></div>
        <div class="detail"><dt>Updated</dt><dd>{when(run.updated_at)}</dd></div>
        <div class="detail"><dt>Tokens</dt><dd>{run.total_tokens} (cost {run.total_cost})</dd></div>
      </dl>
      {run.error && <div class="banner banner-error" role="alert"><strong>{run.error.code}</strong><p>{run.error.message}</p></div>}
      {paused && (
        <section aria-label="Approval requested">
          <h2>{run.current_node} asks</h2>
          <p class="run-prompt" data-run-prompt>{run.human_input_prompt ?? '—'}</p>
          <details>
            <summary>The data it decides on</summary>
            <pre class="code" data-run-state>{json(run.state)}</pre>
          </details>
          {canAnswer ? <RunAnswerForm run={run} onDone={() => setReload((n) => n + 1)} /> : <p class="muted" data-read-only>Answering takes the ai.configure permission.</p>}
        </section>
      )}
      {run.final_output && (<><h2>Outcome</h2><pre class="code" data-final-output>{json(run.final_output)}</pre></>)}
      <h2>Steps</h2>
      {run.node_results.length === 0 ? <p class="muted">No step has run yet.</p> : (
        <ol class="run-steps">
          {run.node_results.map((s, i) => (
            <li key={i} data-step={s.node_name}>
              <details>
                <summary><strong>{s.node_name}</strong> <span class={`badge badge-${statusVariant(s.status)}`}>{s.status}</span></summary>
                <pre class="code">{json(s.output)}</pre>
              </details>
            </li>
          ))}
        </ol>
      )}
      <h2>Input</h2>
      <pre class="code" data-run-input>{json(run.input_data)}</pre>
    </div>
  );
}
