/** Members of the tenant and their roles (GET /members, /roles; PATCH /members/{userId} {role}; POST /members to invite). */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { ErrorBox, toast } from '../dialogs';

interface Member { user: { id: number | null; name?: string; email?: string }; role: string; status: string }

export function MembersPage() {
  const [members, setMembers] = useState<Member[] | null>(null);
  const [roles, setRoles] = useState<string[]>([]);
  const [error, setError] = useState<unknown>();
  const [invite, setInvite] = useState({ email: '', name: '', role: 'member' });
  const load = () => api<{ members: Member[] }>('/members').then((r) => setMembers(r.members), setError);
  useEffect(() => {
    load();
    api<{ roles?: Array<{ name: string }>; data?: Array<{ name: string }> }>('/roles').then((r) => setRoles((r.roles ?? r.data ?? []).map((x) => x.name)), () => undefined);
  }, []);
  const call = async (fn: () => Promise<unknown>, ok: string) => {
    try {
      await fn();
      toast('ok', ok);
      load();
    } catch (err) {
      toast('error', (err as ApiError).message, (err as ApiError).reasons);
    }
  };
  if (error) return <ErrorBox error={error} title="Members could not be loaded" />;
  if (!members) return <p class="muted">Loading…</p>;
  const roleNames = [...new Set([...roles, ...members.map((m) => m.role)])];
  return (
    <div class="page">
      <h1>Members</h1>
      <table class="table">
        <thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Status</th></tr></thead>
        <tbody>
          {members.map((m) => (
            <tr key={m.user.email}>
              <td>{m.user.name}</td>
              <td>{m.user.email}</td>
              <td>
                {m.user.id === null ? m.role : (
                  <label><span class="sr-only">Role of {m.user.name}</span>
                    <select value={m.role} onChange={(e) => call(() => api(`/members/${m.user.id}`, { method: 'PATCH', body: { role: (e.target as HTMLSelectElement).value } }), 'Role changed.')}>
                      {roleNames.map((r) => <option key={r}>{r}</option>)}
                    </select>
                  </label>
                )}
              </td>
              <td><span class={`badge badge-${m.status === 'active' ? 'success' : 'warning'}`}>{m.status}</span></td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Invite</h2>
      <form class="form inline-form" onSubmit={(e) => { e.preventDefault(); call(() => api('/members', { body: invite }), `Invitation sent to ${invite.email}.`); }}>
        <label>Email <input type="email" required value={invite.email} onInput={(e) => setInvite({ ...invite, email: (e.target as HTMLInputElement).value })} /></label>
        <label>Name <input required value={invite.name} onInput={(e) => setInvite({ ...invite, name: (e.target as HTMLInputElement).value })} /></label>
        <label>Role <select value={invite.role} onChange={(e) => setInvite({ ...invite, role: (e.target as HTMLSelectElement).value })}>{roleNames.map((r) => <option key={r}>{r}</option>)}</select></label>
        <button type="submit" class="primary">Invite</button>
      </form>
    </div>
  );
}
