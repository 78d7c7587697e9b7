/** The registry's packages and their versions (GET /registry/modules, /registry/modules/{alias}). */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { ErrorBox } from '../dialogs';

interface Pkg { alias: string; version: string; publisher?: string; signed?: boolean; compatible?: boolean; published_at?: string; size?: number }

export function RegistryPage() {
  const [modules, setModules] = useState<Array<{ alias: string; latest: string; versions: string[]; description?: string }> | null>(null);
  const [versions, setVersions] = useState<{ alias: string; versions: Pkg[] } | null>(null);
  const [error, setError] = useState<unknown>();
  useEffect(() => void api<{ modules: NonNullable<typeof modules> }>('/registry/modules').then((r) => setModules(r.modules), setError), []);
  if (error) return <ErrorBox error={error} title="The registry could not be read" />;
  if (!modules) return <p class="muted">Loading…</p>;
  return (
    <div class="page">
      <h1>Registry</h1>
      <table class="table">
        <thead><tr><th scope="col">Package</th><th scope="col">Latest</th><th scope="col">Versions</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
        <tbody>
          {modules.map((m) => (
            <tr key={m.alias}>
              <td><strong>{m.alias}</strong><br /><span class="muted">{m.description}</span></td>
              <td>{m.latest}</td>
              <td>{m.versions.length}</td>
              <td class="row-end"><button type="button" class="secondary" onClick={() => api<{ alias: string; versions: Pkg[] }>(`/registry/modules/${m.alias}`).then(setVersions, setError)}>Versions</button></td>
            </tr>
          ))}
          {modules.length === 0 && <tr><td colSpan={4} class="muted">The registry is empty.</td></tr>}
        </tbody>
      </table>
      {versions && (
        <section aria-label={`Versions of ${versions.alias}`}>
          <h2>{versions.alias}</h2>
          <table class="table">
            <thead><tr><th scope="col">Version</th><th scope="col">Publisher</th><th scope="col">Signed</th><th scope="col">Compatible</th><th scope="col">Published</th></tr></thead>
            <tbody>{versions.versions.map((v) => <tr key={v.version}><td>{v.version}</td><td>{v.publisher}</td><td>{v.signed ? 'yes' : 'no'}</td><td>{v.compatible ? 'yes' : 'no'}</td><td>{v.published_at ? new Date(v.published_at).toLocaleString() : ''}</td></tr>)}</tbody>
          </table>
        </section>
      )}
    </div>
  );
}
