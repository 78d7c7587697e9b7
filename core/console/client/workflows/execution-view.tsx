/**
 * One execution (GET /workflow-executions/{id}): its status, timing and error, the workflow's graph
 * with each node coloured by its logged status, and the log per node in run order: status, attempt,
 * duration, error, and the input and output data (folded; shown as JSON text).
 */
import { ErrorBox } from '../dialogs';
import { WorkflowGraph } from './graph';
import { useWrapped } from './use-wrapped';
import { duration, statusVariant, when, WORKFLOWS_PATH, type Execution, type ExecutionLog, type Workflow } from './workflow-types';

const json = (v: unknown) => (v === null || v === undefined ? '—' : JSON.stringify(v, null, 2));

export function ExecutionView({ workflowId, id }: { workflowId: string; id: string }) {
  const execution = useWrapped<Execution & { logs: ExecutionLog[] }>(`/workflow-executions/${id}`);
  const workflow = useWrapped<Workflow>(`/workflows/${workflowId}`);
  if (execution.error) return <ErrorBox error={execution.error} title="The execution could not be loaded" />;
  const e = execution.data;
  if (!e) return <p class="muted">Loading…</p>;
  // Each node's last attempt decides its colour.
  const statuses = new Map(e.logs.map((l) => [l.node_id, l.status]));
  return (
    <div class="page" data-execution-detail={e.id}>
      <p><a href={`${WORKFLOWS_PATH}/${workflowId}`}>← {e.workflow_name}</a></p>
      <h1>Execution <span class={`badge badge-${statusVariant(e.status)}`} data-execution-status>{e.status}</span></h1>
      <dl class="details">
        <div class="detail"><dt>Started</dt><dd>{when(e.started_at)}</dd></div>
        <div class="detail"><dt>Completed</dt><dd>{when(e.completed_at)}</dd></div>
        <div class="detail"><dt>Duration</dt><dd>{duration(e.duration_ms)}</dd></div>
        <div class="detail"><dt>Nodes</dt><dd>{e.nodes_executed} of {e.nodes_total} run, {e.nodes_failed} failed</dd></div>
        {e.resume_at && <div class="detail"><dt>Resumes</dt><dd>{when(e.resume_at)}</dd></div>}
      </dl>
      {e.error_message && <div class="banner banner-error" role="alert">{e.error_message}</div>}
      {workflow.data && <WorkflowGraph nodes={workflow.data.nodes} connections={workflow.data.connections} statuses={statuses} />}
      <h2>Logs</h2>
      {e.logs.length === 0 ? <p class="muted">No node has run yet.</p> : (
        <ol class="wf-logs" data-logs>
          {e.logs.map((l) => (
            <li key={l.id} class="wf-log" data-log={l.node_label} data-log-status={l.status}>
              <div class="wf-log-head">
                <strong>{l.node_label}</strong> <span class="muted">{l.node_type}</span>
                <span class={`badge badge-${statusVariant(l.status)}`}>{l.status}</span>
                {l.retry_attempt > 0 && <span class="muted">attempt {l.retry_attempt + 1}</span>}
                <span class="muted" data-log-duration>{duration(l.duration_ms)}</span>
              </div>
              {l.error_message && <p class="input-error" data-log-error>{l.error_message}</p>}
              <details>
                <summary>Input and output</summary>
                <div class="wf-io">
                  <div><h3>Input</h3><pre class="code" data-log-input>{json(l.input_data)}</pre></div>
                  <div><h3>Output</h3><pre class="code" data-log-output>{json(l.output_data)}</pre></div>
                </div>
              </details>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
