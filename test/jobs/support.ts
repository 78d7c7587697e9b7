/** A real platform with the job fixture modules, installed in two tenants, and calls into them. */
import path from 'node:path';
import { loadModuleFromDir } from '../../core/kernel/modules/loaded-module';
import { eventually } from '../support/eventually';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

export const jobFixture = (name: string) => path.join(__dirname, 'fixtures', 'modules', name);

export interface JobsPlatform {
  tp: TestPlatform;
  tenants: { acme: string; globex: string };
  /** Calls a module operation as the platform would (its code runs in the sandbox). */
  call(op: string, input?: unknown, tenant?: 'acme' | 'globex'): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- results of any shape under test
  /** Waits until the job's status is one of `statuses`; returns the job as jobs.get shows it. */
  until(id: string, statuses: string[], ms?: number, tenant?: 'acme' | 'globex'): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- as call
}

export async function jobsPlatform(env: Record<string, string> = {}): Promise<JobsPlatform> {
  const tp = await startTestPlatform(env);
  const owner = await tp.install('acme');
  const made = await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Globex', alias: 'globex' } });
  if (made.status !== 201) throw new Error(`tenant: ${made.status} ${JSON.stringify(made.body)}`);
  for (const name of ['jobber', 'snoop']) tp.platform.kernel.source.add(await loadModuleFromDir(jobFixture(name)));
  const headers = (tenant: string): Record<string, string> => (tenant === 'acme' ? {} : { 'x-effective-tenant': tenant });
  for (const tenant of ['acme', 'globex']) {
    for (const alias of ['jobber', 'snoop']) {
      const res = await tp.api(`/modules/${alias}/install`, { token: owner.token, tenant: 'acme', headers: headers(tenant), body: {} });
      if (res.status !== 201) throw new Error(`install ${alias} in ${tenant}: ${res.status} ${JSON.stringify(res.body)}`);
    }
  }
  const tenants = { acme: owner.tenantId, globex: made.body.tenant.id as string };
  const call: JobsPlatform['call'] = (op, input = {}, tenant = 'acme') => tp.platform.kernel.bus.call({ kind: 'core' }, op, input, { tenantId: tenants[tenant], user: null });
  const until: JobsPlatform['until'] = (id, statuses, ms = 10_000, tenant = 'acme') => eventually(() => call('jobber.get', { id }, tenant), (j) => statuses.includes(j.status), ms, 100);
  return { tp, tenants, call, until };
}
