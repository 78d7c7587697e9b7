/**
 * A workflow's saved versions (workflow versions API): GET /workflows/{id}/versions lists them newest
 * first; one is opened read-only on the canvas (GET …/versions/{version}, its `workflow` snapshot),
 * and restored (POST …/versions/{version}/restore, answered like PUT /workflows/{id}). Until the
 * platform serves the route (404), the panel says versions are not available.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../../api';
import { confirmDialog, ErrorBox } from '../../dialogs';
import { when, type Workflow } from '../workflow-types';
import type { Loadable } from './draft';

export interface VersionEntry {
  version: number;
  created_at: string;
  author_id: number | string;
  author_name?: string;
  summary: string;
  restored_from?: number | null;
}

export interface VersionDetail extends Omit<VersionEntry, 'author_name' | 'restored_from'> {
  workflow: Omit<Loadable, 'id'>;
}

interface Props {
  workflowId: string;
  /** Changes on every save, so the list is read again. */
  reloadKey: string;
  viewing: number | null;
  onView: (v: VersionDetail) => void;
  onRestored: (w: Workflow) => void;
}

export function VersionsPanel({ workflowId, reloadKey, viewing, onView, onRestored }: Props) {
  const [state, setState] = useState<{ list?: VersionEntry[]; unavailable?: boolean; error?: unknown }>({});
  const [busy, setBusy] = useState<number | null>(null);
  const [actionError, setActionError] = useState<unknown>();
  useEffect(() => {
    api<{ data: VersionEntry[] }>(`/workflows/${workflowId}/versions`).then(
      (r) => setState({ list: r.data }),
      (error: unknown) => setState(error instanceof ApiError && error.status === 404 ? { unavailable: true } : { error }),
    );
  }, [workflowId, reloadKey]);

  const open = async (version: number) => {
    setBusy(version);
    setActionError(undefined);
    try {
      onView((await api<{ data: VersionDetail }>(`/workflows/${workflowId}/versions/${version}`)).data);
    } catch (err) {
      setActionError(err);
    } finally {
      setBusy(null);
    }
  };
  const restore = async (version: number) => {
    if (!(await confirmDialog(`Restore version ${version}?`, 'The workflow is saved as it was in that version; the current state stays in the history as a version of its own.'))) return;
    setBusy(version);
    setActionError(undefined);
    try {
      onRestored((await api<{ data: Workflow }>(`/workflows/${workflowId}/versions/${version}/restore`, { method: 'POST', body: {} })).data);
    } catch (err) {
      setActionError(err);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section class="wf-panel wf-versions" aria-label="Versions" data-versions-panel>
      <h2>Versions</h2>
      {state.unavailable ? <p class="muted" data-versions-unavailable>Versions are not available.</p>
        : state.error ? <ErrorBox error={state.error} title="Versions could not be loaded" />
          : !state.list ? <p class="muted">Loading…</p>
            : state.list.length === 0 ? <p class="muted">No versions yet.</p> : (
              <ol class="wf-version-list">
                {state.list.map((v) => (
                  <li key={v.version} data-version={v.version} aria-current={viewing === v.version ? 'true' : undefined}>
                    <div><strong>v{v.version}</strong> <span class="muted">{when(v.created_at)} · {v.author_name ?? `user ${v.author_id}`}</span></div>
                    <div>{v.summary}{v.restored_from ? <span class="muted"> (restored from v{v.restored_from})</span> : null}</div>
                    <div class="row-end">
                      <button type="button" disabled={busy !== null} onClick={() => open(v.version)} data-version-view>View</button>
                      <button type="button" disabled={busy !== null} onClick={() => restore(v.version)} data-version-restore>Restore</button>
                    </div>
                  </li>
                ))}
              </ol>
            )}
      {actionError ? <ErrorBox error={actionError} title="The version could not be used" /> : null}
    </section>
  );
}
