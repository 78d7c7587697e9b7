/**
 * Rings (GET /rings, /rings/{ring}): each ring's current release and history; promote a module
 * version into a ring and roll a ring back. Refusals are shown as the API gives them (422
 * PROMOTION_REFUSED with `details.reasons`, 409 OPERATION_IN_PROGRESS), and an accepted change is
 * followed live.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { confirmDialog, ErrorBox } from '../dialogs';
import { OperationProgress, useOperation, type Operation } from './operation';

interface Release { id: string; number: number; modules: Record<string, string>; kind: string; changes?: Array<{ alias: string; from: string | null; to: string | null }>; created_at: string }
interface Ring { name: string; position: number; description?: string; tenants?: number; release: Release | null }

export function RingsPage() {
  const [rings, setRings] = useState<Ring[] | null>(null);
  const [error, setError] = useState<unknown>();
  const [open, setOpen] = useState<string | null>(null);
  const [history, setHistory] = useState<Release[]>([]);
  const [refusal, setRefusal] = useState<unknown>();
  const [current, setCurrent] = useState<Operation | null>(null);
  const [form, setForm] = useState({ ring: '', module: '', version: '', from: '' });
  const load = () => api<{ rings: Ring[] }>('/rings').then((r) => setRings(r.rings), setError);
  useEffect(() => void load(), []);
  useEffect(() => {
    if (open) api<{ history: Release[] }>(`/rings/${open}`).then((r) => setHistory(r.history), setError);
  }, [open, rings]);
  const op = useOperation(current, (id) => `/rings/operations/${id}`, () => load());

  const submit = async (path: string, body: unknown) => {
    setRefusal(undefined);
    try {
      setCurrent((await api<{ operation: Operation }>(path, { body })).operation);
    } catch (err) {
      setRefusal(err as ApiError);
    }
  };

  if (error) return <ErrorBox error={error} title="Rings could not be loaded" />;
  if (!rings) return <p class="muted">Loading…</p>;
  return (
    <div class="page">
      <h1>Rings</h1>
      {op ? <OperationProgress op={op} /> : null}
      {refusal ? <ErrorBox error={refusal} title="Refused" /> : null}
      <table class="table">
        <thead><tr><th scope="col">Ring</th><th scope="col">Release</th><th scope="col">Modules</th><th scope="col">Tenants</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
        <tbody>
          {rings.map((r) => (
            <tr key={r.name} data-ring={r.name}>
              <td><strong>{r.name}</strong><br /><span class="muted">{r.description}</span></td>
              <td>{r.release ? `#${r.release.number}` : '—'}</td>
              <td>{r.release ? Object.entries(r.release.modules).map(([a, v]) => `${a}@${v}`).join(', ') : 'none'}</td>
              <td>{r.tenants ?? ''}</td>
              <td class="row-end">
                <button type="button" class="secondary" aria-expanded={open === r.name} onClick={() => setOpen(open === r.name ? null : r.name)}>History</button>
                <button type="button" class="danger" onClick={async () => (await confirmDialog(`Roll back ${r.name}?`, 'The ring returns to its previous release and its tenants follow.')) && submit(`/rings/${r.name}/rollback`, {})}>Roll back</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {open && (
        <section aria-label={`History of ${open}`}>
          <h2>History of {open}</h2>
          <ol class="timeline">
            {history.map((h) => (
              <li key={h.id}><span class="dot" aria-hidden="true" /><strong>#{h.number} {h.kind}</strong> {(h.changes ?? []).map((c) => `${c.alias}: ${c.from ?? '—'} → ${c.to ?? '—'}`).join('; ')} <span class="muted">{new Date(h.created_at).toLocaleString()}</span></li>
            ))}
          </ol>
        </section>
      )}
      <h2>Promote</h2>
      <form class="form inline-form" onSubmit={(e) => { e.preventDefault(); submit(`/rings/${form.ring}/promote`, { module: form.module, version: form.version, ...(form.from ? { from: form.from } : {}) }); }}>
        <div class="form-row"><label for="promote-ring">Ring</label><select id="promote-ring" required value={form.ring} onChange={(e) => setForm({ ...form, ring: (e.target as HTMLSelectElement).value })}><option value="">Choose…</option>{rings.map((r) => <option key={r.name}>{r.name}</option>)}</select></div>
        <div class="form-row"><label for="promote-module">Module</label><input id="promote-module" required value={form.module} onInput={(e) => setForm({ ...form, module: (e.target as HTMLInputElement).value })} /></div>
        <div class="form-row"><label for="promote-version">Version</label><input id="promote-version" required value={form.version} onInput={(e) => setForm({ ...form, version: (e.target as HTMLInputElement).value })} /></div>
        <div class="form-row"><label for="promote-from">From ring</label><select id="promote-from" value={form.from} onChange={(e) => setForm({ ...form, from: (e.target as HTMLSelectElement).value })}><option value="">the registry</option>{rings.map((r) => <option key={r.name}>{r.name}</option>)}</select></div>
        <button type="submit" class="primary">Promote</button>
      </form>
    </div>
  );
}
