/**
 * A platform with the limited and limited_twin fixtures (authenticated routes declaring
 * rate_limit) installed in two tenants, acme and globex, each with its admin, and acme with a second
 * member: for the route rate-limit tests and their hostile counterpart.
 */
import path from 'node:path';
import { addMember, startTestPlatform, type ApiResponse, type TestPlatform } from '../support/test-platform';

export interface Who {
  token: string;
  tenant: string;
}

export interface LimitedPlatform {
  tp: TestPlatform;
  acme: Who;
  acmeMember: Who;
  globex: Who;
  call(who: Who, method: string, p: string, headers?: Record<string, string>): Promise<ApiResponse>;
}

const FIXTURES = ['limited', 'limited-twin'].map((f) => path.join(__dirname, 'fixtures', f));

export async function limitedPlatform(): Promise<LimitedPlatform> {
  const tp = await startTestPlatform({ MODULE_PATHS: FIXTURES.join(':') });
  const owner = await tp.install('acme');
  const acme = { token: owner.token, tenant: 'acme' };
  const made = await tp.api('/admin/tenants', { ...acme, body: { name: 'Globex', alias: 'globex' } });
  if (made.status !== 201) throw new Error(`POST /admin/tenants: ${made.status}`);
  for (const alias of ['limited', 'limited_twin']) {
    for (const headers of [{}, { 'x-effective-tenant': 'globex' }] as Array<Record<string, string>>) {
      const res = await tp.api(`/modules/${alias}/install`, { ...acme, headers, body: {} });
      if (res.status !== 201) throw new Error(`install ${alias}: ${res.status} ${JSON.stringify(res.body)}`);
    }
  }
  const globexAdmin = await addMember(tp, owner.token, made.body.tenant.id, { email: 'admin@globex.example', role: 'admin' }, 'acme');
  const member = await addMember(tp, owner.token, 'acme', { email: 'second@acme.example', role: 'admin' });
  return {
    tp,
    acme,
    acmeMember: { token: member.token, tenant: 'acme' },
    globex: { token: globexAdmin.token, tenant: 'globex' },
    call: (who, method, p, headers = {}) => tp.api(p, { ...who, method, headers, ...(method === 'POST' ? { body: {} } : {}) }),
  };
}
