/**
 * Signing in with the existing auth routes (POST /auth/login in a tenant; the second step for
 * two-factor), and on a fresh platform (GET /install/status) creating the owner (POST /install/owner).
 * The tenant is the page's subdomain when it has one, else the one typed here.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from './api';
import { ErrorBox } from './dialogs';
import { setSession } from './session';

const PAGE_TENANT = document.getElementById('app')?.dataset.tenant ?? '';

interface LoginAnswer { token?: string; user?: { id: number; name?: string; email?: string }; tenant?: { id: string; alias?: string }; challenge?: string; two_factor_required?: boolean }

export function SignIn() {
  const [installed, setInstalled] = useState<boolean | null>(null);
  const [error, setError] = useState<unknown>();
  const [f, setF] = useState({ tenant: PAGE_TENANT, email: '', password: '', code: '', organization_name: '', organization_slug: '', name: '' });
  const [challenge, setChallenge] = useState<string | null>(null);
  useEffect(() => void api<{ installed: boolean }>('/install/status').then((s) => setInstalled(s.installed), setError), []);
  const field = (key: keyof typeof f, label: string, type = 'text', auto?: string) => (
    <div class="form-row">
      <label for={`si-${key}`}>{label}</label>
      <input id={`si-${key}`} name={key} type={type} autoComplete={auto} required value={f[key]} onInput={(e) => setF({ ...f, [key]: (e.target as HTMLInputElement).value })} />
    </div>
  );
  const finish = (tenant: string, res: LoginAnswer) => {
    if (res.token && res.user) setSession({ token: res.token, tenant: res.tenant?.id ?? tenant, user: res.user });
    else if (res.challenge) setChallenge(res.challenge);
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    try {
      if (installed === false) {
        const res = await api<LoginAnswer>('/install/owner', { body: { organization_name: f.organization_name, organization_slug: f.organization_slug, name: f.name, email: f.email, password: f.password } });
        finish(f.organization_slug, res);
      } else if (challenge) {
        finish(f.tenant, await api<LoginAnswer>('/auth/login/two-factor', { tenant: f.tenant, body: { challenge, code: f.code } }));
      } else {
        finish(f.tenant, await api<LoginAnswer>('/auth/login', { tenant: f.tenant, body: { email: f.email, password: f.password, device_name: 'Mandi console' } }));
      }
    } catch (err) {
      setError(err as ApiError);
    }
  };
  if (installed === null && !error) return <p class="muted">Loading…</p>;
  return (
    <main class="sign-in" id="main">
      <h1>{installed === false ? 'Create the owner' : 'Sign in to Mandi'}</h1>
      {installed === false && <p class="muted">This platform is new: create the first organisation and its owner.</p>}
      {error ? <ErrorBox error={error} title={installed === false ? 'Not created' : 'Not signed in'} /> : null}
      <form class="form" onSubmit={submit}>
        {installed === false ? (
          <>
            {field('organization_name', 'Organisation')}
            {field('organization_slug', 'Subdomain (tenant)')}
            {field('name', 'Your name', 'text', 'name')}
          </>
        ) : !PAGE_TENANT ? field('tenant', 'Tenant (subdomain or id)', 'text', 'organization') : null}
        {challenge ? field('code', 'Authentication code', 'text', 'one-time-code') : (
          <>
            {field('email', 'Email', 'email', 'username')}
            {field('password', 'Password', 'password', installed === false ? 'new-password' : 'current-password')}
          </>
        )}
        <button type="submit" class="primary">{installed === false ? 'Create and sign in' : 'Sign in'}</button>
      </form>
    </main>
  );
}
