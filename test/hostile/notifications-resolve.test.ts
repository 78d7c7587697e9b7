/**
 * notifications.resolve (spec 1, Notifications; core/services/notifications/send-operation.ts: a module marks
 * read the notifications it raised under a group key, as the ai module does with a paused run's
 * approval requests, spec 2 Graph flows) against a hostile module: it resolves nothing of another
 * module's (whatever group key or extra field it names), nothing of another tenant's, cannot raise
 * notifications under another module's name (which that module would then resolve, and its members
 * would take for that module's), cannot read or mark them through the bus, and bulk or unbounded
 * input is refused with the field named.
 */
import path from 'node:path';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

const RAISER = path.join(__dirname, 'fixtures/modules/notice-raiser');
const INTRUDER = path.join(__dirname, 'fixtures/modules/rt-intruder');
const GROUP = 'notice_raiser.approval.1';

let tp: TestPlatform;
let owner: { token: string; tenantId: string; userId: number };
let globex: string;

beforeAll(async () => {
  tp = await startTestPlatform({ MODULE_PATHS: [RAISER, INTRUDER].join(':') });
  owner = await tp.install('acme');
  for (const alias of ['notice_raiser', 'rt_intruder']) await tp.platform.kernel.modules.install(owner.tenantId, alias);
  const other = await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Globex', alias: 'globex' } });
  if (other.status !== 201) throw new Error(JSON.stringify(other.body));
  globex = other.body.tenant.id;
  await tp.platform.kernel.modules.install(globex, 'notice_raiser');
}, 240_000);
afterAll(() => tp?.close());

/** A module calls a host operation with exactly this input, from its sandbox, in a tenant. */
const relay = (alias: string, op: string, input: unknown, tenantId = owner.tenantId) =>
  tp.platform.kernel.bus.call({ kind: 'core', name: 'test' }, `${alias}.raw`, { op, input }, { tenantId, user: null });

/** notice_raiser asks the owner to approve something, under group_key. */
const raise = (group_key: string) =>
  relay('notice_raiser', 'notifications.send', { user_id: owner.userId, module: 'notice_raiser', type: 'notice_raiser.approval_requested', title: 'Approve this', group_key });

type Row = { module: string | null; group_key: string | null; read_at: string | null };
const ownersOf = async (module: string): Promise<Row[]> => {
  const res = await tp.api(`/notifications?module=${module}&per_page=100`, { method: 'GET', token: owner.token, tenant: 'acme' });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.notifications;
};

describe('notifications.resolve (hostile; spec 1 Notifications, spec 2 Graph flows): a module resolves only its own', () => {
  test("another module's group key resolves nothing of it, with or without naming the module", async () => {
    await raise(GROUP);
    expect(await relay('rt_intruder', 'notifications.resolve', { group_key: GROUP })).toEqual({ count: 0 });
    await expect(relay('rt_intruder', 'notifications.resolve', { group_key: GROUP, module: 'notice_raiser' })).rejects.toMatchObject({ status: 422, code: 'VALIDATION_FAILED' });
    expect((await ownersOf('notice_raiser')).filter((n) => n.group_key === GROUP).map((n) => n.read_at)).toEqual([null]);
    // Its raiser resolves it.
    expect(await relay('notice_raiser', 'notifications.resolve', { group_key: GROUP })).toEqual({ count: 1 });
    expect((await ownersOf('notice_raiser')).filter((n) => n.group_key === GROUP).map((n) => n.read_at)).toEqual([expect.any(String)]);
  });

  test("a module raises notifications only under its own name: none that its victim's resolve would mark, or its members would take for the victim's", async () => {
    const key = 'notice_raiser.approval.2';
    await expect(
      relay('rt_intruder', 'notifications.send', { user_id: owner.userId, module: 'notice_raiser', type: 'notice_raiser.approval_requested', title: 'Approve this (forged)', group_key: key }),
    ).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect((await ownersOf('notice_raiser')).filter((n) => n.group_key === key)).toEqual([]);
    // Its own name, or none, is fine.
    expect(await relay('rt_intruder', 'notifications.send', { user_id: owner.userId, module: 'rt_intruder', type: 'rt_intruder.hello', title: 'Hello', group_key: key })).toMatchObject({ count: 1 });
    expect(await relay('rt_intruder', 'notifications.send', { user_id: owner.userId, module: null, type: 'rt_intruder.hello', title: 'Hello', group_key: key })).toMatchObject({ count: 1 });
    expect(await relay('notice_raiser', 'notifications.resolve', { group_key: key })).toEqual({ count: 0 });
    expect((await ownersOf('rt_intruder')).map((n) => n.read_at)).toEqual([null]);
  });

  test("the same module in another tenant resolves nothing of this tenant's; a tenant in the input is refused", async () => {
    const key = 'notice_raiser.approval.3';
    await raise(key);
    expect(await relay('notice_raiser', 'notifications.resolve', { group_key: key }, globex)).toEqual({ count: 0 });
    await expect(relay('notice_raiser', 'notifications.resolve', { group_key: key, tenant_id: owner.tenantId }, globex)).rejects.toMatchObject({ status: 422 });
    expect((await ownersOf('notice_raiser')).filter((n) => n.group_key === key).map((n) => n.read_at)).toEqual([null]);
  });

  test('no module reads or marks notifications through the bus, and no edge resolves them', async () => {
    for (const op of ['notifications.list', 'notifications.read', 'notifications.mark_read', 'notifications.mark_all_read', 'notifications.delete']) {
      await expect(relay('rt_intruder', op, {})).rejects.toMatchObject({ status: 404, code: 'OPERATION_NOT_FOUND' });
    }
    const user = { tenantId: owner.tenantId, user: { id: owner.userId, email: 'ada@acme.example', name: 'Ada Owner', isSuperAdmin: false }, permissions: new Set(['*']) };
    await expect(tp.platform.kernel.bus.call({ kind: 'edge', via: 'graphql' }, 'notifications.resolve', { group_key: GROUP }, user)).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
  });

  test('bulk or unbounded input is refused, naming group_key; a pattern is a key, not a wildcard', async () => {
    await raise('notice_raiser.approval.4');
    for (const input of [{}, { group_key: '' }, { group_key: 'k'.repeat(101) }, { group_key: 'k'.repeat(1_000_000) }, { group_key: ['a', 'b'] }, { group_key: null }, { group_keys: Array.from({ length: 10_000 }, (_, i) => `k${i}`) }]) {
      const refused = await relay('notice_raiser', 'notifications.resolve', input).then(
        () => undefined,
        (err: { status: number; code: string; details: { errors: Record<string, string[]> } }) => err,
      );
      expect(refused).toMatchObject({ status: 422, code: 'VALIDATION_FAILED' });
      expect(JSON.stringify(refused!.details.errors)).toMatch(/group_key/);
    }
    for (const group_key of ['%', 'notice_raiser.approval.%', '*', '.*']) expect(await relay('notice_raiser', 'notifications.resolve', { group_key })).toEqual({ count: 0 });
    expect((await ownersOf('notice_raiser')).filter((n) => n.group_key === 'notice_raiser.approval.4').map((n) => n.read_at)).toEqual([null]);
  });
});
