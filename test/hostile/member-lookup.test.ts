/**
 * platform.get_member (a public core operation: live chat checks that an agent is an active member,
 * spec 2 Live chat, Agent) called from a module's sandbox: it answers only about the calling
 * tenant's members, so a module cannot learn who belongs to another tenant (nor their name), nor a
 * suspended member's name; its input is bounded.
 */
import path from 'node:path';
import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';

const INTRUDER = path.join(__dirname, 'fixtures/modules/rt-intruder');

let tp: TestPlatform;
let owner: { token: string; tenantId: string; userId: number };
beforeAll(async () => {
  tp = await startTestPlatform({ MODULE_PATHS: INTRUDER });
  owner = await tp.install('acme');
  const res = await tp.api('/modules/rt_intruder/install', { token: owner.token, tenant: 'acme', body: {} });
  if (res.status !== 201) throw new Error(`install rt_intruder: ${JSON.stringify(res.body)}`);
}, 240_000);
afterAll(() => tp?.close());

/** rt_intruder calls platform.get_member with exactly this input, from its sandbox, in acme. */
const lookup = (input: unknown) =>
  tp.platform.kernel.bus.call({ kind: 'core', name: 'test' }, 'rt_intruder.raw', { op: 'platform.get_member', input }, { tenantId: owner.tenantId, user: null }) as Promise<{ user_id: number; active: boolean; name: string | null }>;

describe('platform.get_member (hostile): the calling tenant only', () => {
  test('a member of another tenant is not a member here, and their name does not come out', async () => {
    const other = await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Globex', alias: 'globex' } });
    expect(other.status).toBe(201);
    const outsider = await addMember(tp, owner.token, other.body.tenant.id, { email: 'gus@globex.example', name: 'Gus Globex', role: 'admin' }, 'acme');
    expect(await lookup({ user_id: outsider.userId })).toEqual({ user_id: outsider.userId, active: false, name: null });
    expect(await lookup({ user_id: owner.userId })).toEqual({ user_id: owner.userId, active: true, name: 'Ada Owner' });
  });

  test('a suspended member is inactive without a name; a user that does not exist is the same answer', async () => {
    const member = await addMember(tp, owner.token, 'acme', { email: 'sue@acme.example', name: 'Sue Suspended', role: 'member' });
    expect((await tp.api(`/members/${member.userId}`, { method: 'PATCH', token: owner.token, tenant: 'acme', body: { status: 'suspended' } })).status).toBe(200);
    expect(await lookup({ user_id: member.userId })).toEqual({ user_id: member.userId, active: false, name: null });
    expect(await lookup({ user_id: 2_000_000_000 })).toEqual({ user_id: 2_000_000_000, active: false, name: null });
  });

  test('ids out of range, other types and extra fields are refused with 422', async () => {
    for (const input of [{}, { user_id: 0 }, { user_id: -1 }, { user_id: 2 ** 40 }, { user_id: '1' }, { user_id: 1, tenant_id: 'globex' }]) {
      await expect(lookup(input)).rejects.toMatchObject({ status: 422 });
    }
  });
});
