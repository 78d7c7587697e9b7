/** Tenants and their rings (GET /rings, /rings/{ring}/tenants), moving a tenant between rings (POST /rings/{ring}/tenants). */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { ErrorBox, toast } from '../dialogs';
import { OperationProgress, useOperation, type Operation } from './operation';

export function TenantsPage() {
  const [rows, setRows] = useState<Array<{ id: string; name: string; ring: string }> | null>(null);
  const [rings, setRings] = useState<string[]>([]);
  const [error, setError] = useState<unknown>();
  const [current, setCurrent] = useState<Operation | null>(null);
  const load = async () => {
    try {
      const { rings: all } = await api<{ rings: Array<{ name: string }> }>('/rings');
      setRings(all.map((r) => r.name));
      const lists = await Promise.all(all.map(async (r) => (await api<{ tenants: Array<{ id: string; name: string }> }>(`/rings/${r.name}/tenants`)).tenants.map((t) => ({ ...t, ring: r.name }))));
      setRows(lists.flat());
    } catch (err) {
      setError(err);
    }
  };
  useEffect(() => void load(), []);
  const op = useOperation(current, (id) => `/rings/operations/${id}`, () => load());
  const move = async (tenant: string, ring: string) => {
    try {
      setCurrent((await api<{ operation: Operation }>(`/rings/${ring}/tenants`, { body: { tenant } })).operation);
    } catch (err) {
      toast('error', (err as ApiError).message, (err as ApiError).reasons);
    }
  };
  if (error) return <ErrorBox error={error} title="Tenants could not be loaded" />;
  if (!rows) return <p class="muted">Loading…</p>;
  return (
    <div class="page">
      <h1>Tenants</h1>
      {op ? <OperationProgress op={op} /> : null}
      <table class="table">
        <thead><tr><th scope="col">Tenant</th><th scope="col">Id</th><th scope="col">Ring</th></tr></thead>
        <tbody>
          {rows.map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td>
              <td><code>{t.id}</code></td>
              <td>
                <label><span class="sr-only">Ring of {t.name}</span>
                  <select value={t.ring} onChange={(e) => move(t.id, (e.target as HTMLSelectElement).value)}>{rings.map((r) => <option key={r}>{r}</option>)}</select>
                </label>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
