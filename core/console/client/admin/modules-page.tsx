/**
 * The tenant's modules (GET /modules): installed ones with upgrade, rollback and uninstall,
 * available ones (what the tenant's ring releases) with install. Each change is queued with
 * ?wait=false and followed live (operation.tsx). On an empty registry in development a super admin is
 * offered the first-run seed (POST /platform/seed: the first-party modules published and promoted).
 */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { confirmDialog, ErrorBox, toast } from '../dialogs';
import type { Me } from '../pages';
import { OperationProgress, useOperation, type Operation } from './operation';

interface Overview {
  ring: string;
  installed: Array<{ alias: string; version: string; description?: string; ring_version?: string | null }>;
  available: Array<{ alias: string; versions?: string[]; ring_version?: string | null; source?: string; description?: string }>;
}

const ENV = document.getElementById('app')?.dataset.env ?? 'production';

export function ModulesPage({ me }: { me: Me }) {
  const [overview, setOverview] = useState<Overview | null>(null);
  const [error, setError] = useState<unknown>();
  const [current, setCurrent] = useState<Operation | null>(null);
  const [seeding, setSeeding] = useState(false);
  const load = () => api<Overview>('/modules').then((o) => { setOverview(o); setError(undefined); }, setError);
  useEffect(() => void load(), []);
  const op = useOperation(current, (id) => `/modules/operations/${id}`, (done) => {
    toast(done.status === 'completed' ? 'ok' : 'error', done.status === 'completed' ? `${done.kind ?? 'Operation'} of ${done.module ?? 'module'} completed.` : done.error?.message ?? 'The operation failed.');
    load();
  });

  const run = async (alias: string, action: 'install' | 'upgrade' | 'rollback' | 'uninstall') => {
    if (action === 'uninstall' && !(await confirmDialog(`Uninstall ${alias}?`, 'The module stops serving this tenant. Its data is kept.'))) return;
    try {
      const res = action === 'uninstall'
        ? await api<{ operation: Operation }>(`/modules/${alias}?wait=false`, { method: 'DELETE' })
        : await api<{ operation: Operation }>(`/modules/${alias}/${action}?wait=false`, { body: {} });
      setCurrent(res.operation);
    } catch (err) {
      toast('error', (err as ApiError).message, (err as ApiError).reasons);
    }
  };

  const seed = async () => {
    setSeeding(true);
    try {
      const res = await api<{ modules: Array<{ alias: string; version: string }> }>('/platform/seed', { body: {} });
      toast('ok', `Seeded ${res.modules.map((m) => `${m.alias}@${m.version}`).join(', ')}.`);
      await load();
    } catch (err) {
      toast('error', (err as ApiError).message, (err as ApiError).reasons);
    } finally {
      setSeeding(false);
    }
  };

  if (error) return <ErrorBox error={error} title="Modules could not be loaded" />;
  if (!overview) return <p class="muted">Loading…</p>;
  const busy = op !== null && op.status !== 'completed' && op.status !== 'failed';
  const installed = new Set(overview.installed.map((m) => m.alias));
  const available = overview.available.filter((m) => !installed.has(m.alias));
  return (
    <div class="page">
      <h1>Modules</h1>
      <p class="muted">Ring <strong>{overview.ring}</strong> decides which versions this tenant can run.</p>
      {op ? <OperationProgress op={op} /> : null}
      {overview.installed.length === 0 && overview.available.length === 0 && (
        <div class="banner banner-info" role="status">
          <div>
            <strong>No modules are released to this tenant's ring yet.</strong>
            {ENV === 'development' && me.is_super_admin ? (
              <p>
                Publish and promote the first-party modules (orders, loyalty, …) in one step:{' '}
                <button type="button" class="primary" data-seed onClick={seed} disabled={seeding}>{seeding ? 'Seeding…' : 'Seed first-party modules'}</button>
              </p>
            ) : (
              <p>Run <code>mandi platform seed</code>, or publish a module and promote it into this ring.</p>
            )}
          </div>
        </div>
      )}
      <h2>Installed</h2>
      <table class="table" data-table="installed">
        <thead><tr><th scope="col">Module</th><th scope="col">Version</th><th scope="col">Ring's version</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
        <tbody>
          {overview.installed.map((m) => (
            <tr key={m.alias} data-module={m.alias}>
              <td><strong>{m.alias}</strong><br /><span class="muted">{m.description}</span></td>
              <td>{m.version}</td>
              <td>{m.ring_version ?? '—'}</td>
              <td class="row-end">
                <button type="button" class="secondary" disabled={busy || !m.ring_version || m.ring_version === m.version} onClick={() => run(m.alias, 'upgrade')}>Upgrade</button>
                <button type="button" class="secondary" data-rollback={m.alias} disabled={busy} onClick={() => run(m.alias, 'rollback')}>Roll back</button>
                <button type="button" class="danger" disabled={busy} onClick={() => run(m.alias, 'uninstall')}>Uninstall</button>
              </td>
            </tr>
          ))}
          {overview.installed.length === 0 && <tr><td colSpan={4} class="muted">None yet.</td></tr>}
        </tbody>
      </table>
      <h2>Available</h2>
      <table class="table" data-table="available">
        <thead><tr><th scope="col">Module</th><th scope="col">Version</th><th scope="col">Source</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
        <tbody>
          {available.map((m) => (
            <tr key={m.alias} data-module={m.alias}>
              <td><strong>{m.alias}</strong><br /><span class="muted">{m.description}</span></td>
              <td>{m.ring_version ?? m.versions?.[0] ?? '—'}</td>
              <td>{m.source ?? ''}</td>
              <td class="row-end"><button type="button" class="primary" data-install={m.alias} disabled={busy} onClick={() => run(m.alias, 'install')}>Install</button></td>
            </tr>
          ))}
          {available.length === 0 && <tr><td colSpan={4} class="muted">Nothing else is available.</td></tr>}
        </tbody>
      </table>
    </div>
  );
}
