/**
 * Workflows (spec 2, Workflows and Executions): the list with status and counters (GET /workflows),
 * one workflow's graph and its executions (GET /workflows/{id}, /workflows/{id}/executions), one
 * execution with its log per node (GET /workflow-executions/{id}), and the editor (editor/).
 * Paths: /admin/workflows, /admin/workflows/{id}, /admin/workflows/{id}/executions/{execution},
 * /admin/workflows/new, /admin/workflows/{id}/edit.
 */
import { useState } from 'preact/hooks';
import { ErrorBox } from '../dialogs';
import { can, type Me } from '../me';
import { EditorPage } from './editor/editor-page';
import { ExecutionView } from './execution-view';
import { WorkflowGraph } from './graph';
import { useWrapped } from './use-wrapped';
import { duration, statusVariant, when, WORKFLOWS_PATH, type Execution, type Workflow } from './workflow-types';


const STATUSES = ['draft', 'active', 'paused', 'archived'];

export function WorkflowsPage({ me, sub }: { me: Me; sub: string }) {
  const [, workflowId, kind, executionId] = sub.split('/');
  // One element for both editor paths: a first save moves /new to /{id}/edit without a reload.
  if (workflowId === 'new' || kind === 'edit') return <EditorPage id={workflowId === 'new' ? null : workflowId} />;
  if (workflowId && kind === 'executions' && executionId) return <ExecutionView workflowId={workflowId} id={executionId} />;
  if (workflowId) return <WorkflowDetail id={workflowId} canEdit={can(me, 'workflows.manage')} />;
  return <WorkflowList canEdit={can(me, 'workflows.manage')} />;
}

function WorkflowList({ canEdit }: { canEdit: boolean }) {
  const [status, setStatus] = useState('');
  const { data, error } = useWrapped<Workflow[]>('/workflows', { status: status || undefined, per_page: 100 });
  return (
    <div class="page">
      <h1>Workflows</h1>
      {canEdit && <p><a class="button-link" href={`${WORKFLOWS_PATH}/new`}>New workflow</a></p>}
      <div class="list-tools">
        <label class="field-label">Status
          <select data-filter="workflow-status" value={status} onChange={(e) => setStatus((e.target as HTMLSelectElement).value)}>
            <option value="">All</option>
            {STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
        </label>
      </div>
      {error ? <ErrorBox error={error} title="Workflows could not be loaded" /> : !data ? <p class="muted">Loading…</p> : data.length === 0 ? <p class="muted">No workflows.</p> : (
        <table class="table" data-table="workflows">
          <thead><tr><th scope="col">Name</th><th scope="col">Status</th><th scope="col">Trigger</th><th scope="col">Runs (ok / failed)</th><th scope="col">Last run</th></tr></thead>
          <tbody>
            {data.map((w) => (
              <tr key={w.id} data-workflow={w.name}>
                <td><a href={`${WORKFLOWS_PATH}/${w.id}`}>{w.name}</a>{w.description ? <div class="muted">{w.description}</div> : null}</td>
                <td><span class={`badge badge-${statusVariant(w.status)}`}>{w.status}</span></td>
                <td>{w.trigger_type}</td>
                <td>{w.execution_count} ({w.success_count} / {w.failure_count})</td>
                <td>{when(w.last_executed_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function WorkflowDetail({ id, canEdit }: { id: string; canEdit: boolean }) {
  const workflow = useWrapped<Workflow>(`/workflows/${id}`);
  const executions = useWrapped<Execution[]>(`/workflows/${id}/executions`, { per_page: 50 });
  if (workflow.error) return <ErrorBox error={workflow.error} title="The workflow could not be loaded" />;
  const w = workflow.data;
  if (!w) return <p class="muted">Loading…</p>;
  return (
    <div class="page" data-workflow-detail={w.id}>
      <p><a href={WORKFLOWS_PATH}>← Workflows</a></p>
      <h1>{w.name} <span class={`badge badge-${statusVariant(w.status)}`}>{w.status}</span></h1>
      {canEdit && <p><a class="button-link" href={`${WORKFLOWS_PATH}/${w.id}/edit`}>Edit in the editor</a></p>}
      {w.description && <p>{w.description}</p>}
      <p class="muted">Trigger: {w.trigger_type}{w.tags.length ? ` · tags: ${w.tags.join(', ')}` : ''} · {w.nodes.length} nodes, {w.connections.length} connections</p>
      <WorkflowGraph nodes={w.nodes} connections={w.connections} />
      <h2>Executions</h2>
      {executions.error ? <ErrorBox error={executions.error} title="Executions could not be loaded" /> : !executions.data ? <p class="muted">Loading…</p> : executions.data.length === 0 ? <p class="muted">Not run yet.</p> : (
        <table class="table" data-table="executions">
          <thead><tr><th scope="col">Started</th><th scope="col">Status</th><th scope="col">Trigger</th><th scope="col">Nodes run (failed)</th><th scope="col">Duration</th></tr></thead>
          <tbody>
            {executions.data.map((e) => (
              <tr key={e.id} data-execution={e.id}>
                <td><a href={`${WORKFLOWS_PATH}/${w.id}/executions/${e.id}`}>{when(e.started_at ?? e.created_at)}</a></td>
                <td><span class={`badge badge-${statusVariant(e.status)}`}>{e.status}</span></td>
                <td>{e.trigger_type}</td>
                <td>{e.nodes_executed} / {e.nodes_total} ({e.nodes_failed})</td>
                <td>{duration(e.duration_ms)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
