/**
 * A state that cannot reach a level below (spec 3, States and transitions (chain order): every level
 * sees the order's progress) is retried by a job; once its attempts are spent it is recorded as stuck
 * with its reason, shown to the tenant's admin, retried by the admin or by the platform's own
 * re-drive schedule, and applied once however often it is re-driven.
 */
import { copyAt, placeOrder, startChain, type Chain } from './support';

let c: Chain;
beforeAll(async () => {
  c = await startChain();
}, 240_000);
afterAll(() => c?.host.close());

const FIFTEEN_MIN = 15 * 60_000;

/** A chain order forwarded D → C → B → A and accepted at A (the test host's tenant, whose jobs the test runs). */
async function acceptedAtTop() {
  const order = await placeOrder(c);
  await c.as('D', 'POST', '/chain-orders', { order_id: order.id });
  for (const level of ['D', 'C', 'B'] as const) await c.as(level, 'POST', `/chain-orders/${(await copyAt(c, level, order.order_number))!.id}/forward`);
  const top = (await copyAt(c, 'A', order.order_number))!;
  expect((await c.as('A', 'POST', `/chain-orders/${top.id}/accept`)).status).toBe(200);
  return { order, top };
}

/** Ships at A while C has D suspended, and spends every attempt of the push job: D's shipped state is stuck. */
async function stuckShipment(tracking: string) {
  const { order, top } = await acceptedAtTop();
  expect((await c.as('C', 'POST', `/reseller/sub-resellers/${c.ids.D}/suspend`, {})).status).toBe(200);
  expect((await c.as('A', 'POST', `/chain-orders/${top.id}/ship`, { tracking_number: tracking, carrier: 'Delhivery' })).status).toBe(200);
  const ended = await c.host.runJobs(c.host.clock.now() + 60_000);
  expect(ended).toContainEqual(expect.objectContaining({ job: 'push', status: 'failed', attempts: 10 }));
  return { order, top };
}

const stuckOf = async (orderNumber: string) => {
  const r = await c.as('A', 'GET', '/chain-orders/propagations?state=stuck&per_page=100');
  expect(r.status).toBe(200);
  return r.body.propagations.filter((p: { origin_order_number: string }) => p.origin_order_number === orderNumber);
};

describe('spec 3 States and transitions (chain order), Errors, Authentication: a propagation that spent its attempts is stuck, shown, and repaired', () => {
  afterEach(async () => {
    await c.as('C', 'POST', `/reseller/sub-resellers/${c.ids.D}/reactivate`, {});
    c.host.clock.reset();
  });

  test('stuck after 10 attempts with its reason; the chain order view shows it; the admin sees it; a retry while the cause remains stays stuck', async () => {
    const { order, top } = await stuckShipment('STUCK1');
    const stuck = await stuckOf(order.order_number);
    expect(stuck).toEqual([
      expect.objectContaining({
        id: expect.any(String),
        chain_order_id: top.id,
        target_tenant_id: c.ids.D,
        status: 'shipped',
        state: 'stuck',
        attempts: 11,
        last_error: { code: expect.any(String), message: expect.any(String), at: expect.any(String) },
        stuck_at: expect.any(String),
        next_retry_at: expect.any(String),
      }),
    ]);
    const view = (await c.as('A', 'GET', `/chain-orders/${top.id}`)).body.order;
    expect(view.propagation).toEqual({ state: 'stuck', pending: 1, last_error: stuck[0].last_error, next_retry_at: stuck[0].next_retry_at });
    // Only holders of reseller_orders.repair (the tenant's admin, the platform's super admin) see them.
    const viewer = (await c.host.addMember({ email: 'member@level-a.example', role: 'member' })).token;
    const refused = await c.as('A', 'GET', '/chain-orders/propagations', undefined, viewer);
    expect(refused.status).toBe(403);
    const admin = (await c.host.addMember({ email: 'second-admin@level-a.example', role: 'admin' })).token;
    const seen = await c.as('A', 'GET', '/chain-orders/propagations', undefined, admin);
    expect(seen.status).toBe(200);
    expect(seen.body.propagations.map((p: { id: string }) => p.id)).toContain(stuck[0].id);
    const again = await c.as('A', 'POST', `/chain-orders/propagations/${stuck[0].id}/retry`);
    expect(again.status).toBe(502);
    expect(again.body).toEqual({ error: expect.any(String), code: 'PROPAGATION_FAILED', details: expect.objectContaining({ propagation: expect.objectContaining({ state: 'stuck', attempts: 12 }) }) });
    expect((await copyAt(c, 'D', order.order_number))!.chain_status).toBe('accepted');
    expect((await c.as('A', 'POST', '/chain-orders/propagations/00000000-0000-4000-8000-000000000000/retry')).body).toMatchObject({ code: 'NOT_FOUND' });
  }, 120_000);

  test('once the cause is gone the admin retries one: applied; retried again it changes nothing', async () => {
    const { order, top } = await stuckShipment('STUCK2');
    const [stuck] = await stuckOf(order.order_number);
    expect((await c.as('C', 'POST', `/reseller/sub-resellers/${c.ids.D}/reactivate`, {})).status).toBe(200);
    const r = await c.as('A', 'POST', `/chain-orders/propagations/${stuck.id}/retry`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ applied: true, propagation: { id: stuck.id, state: 'done', done_at: expect.any(String) } });
    const d = (await copyAt(c, 'D', order.order_number))!;
    expect(d).toMatchObject({ chain_status: 'shipped', shipping: { tracking_number: 'STUCK2' } });
    const timeline = (await c.as('D', 'GET', `/chain-orders/${d.id}/timeline`)).body.timeline;
    const twice = await c.as('A', 'POST', `/chain-orders/propagations/${stuck.id}/retry`);
    expect(twice.status).toBe(200);
    expect(twice.body).toMatchObject({ applied: false, propagation: { state: 'done' } });
    expect((await c.as('D', 'GET', `/chain-orders/${d.id}/timeline`)).body.timeline).toEqual(timeline);
    expect((await c.as('A', 'GET', `/chain-orders/${top.id}`)).body.order.propagation).toMatchObject({ state: 'synced', pending: 0, next_retry_at: null });
  }, 120_000);

  test('the platform re-drives stuck propagations on its schedule, with backoff, until they succeed; a second run changes nothing', async () => {
    const { order, top } = await stuckShipment('STUCK3');
    const [stuck] = await stuckOf(order.order_number);
    const due = Date.parse(stuck.next_retry_at);
    // Before it is due the schedule leaves it alone.
    await c.host.runSchedule('redrive_propagations');
    expect((await stuckOf(order.order_number))[0]).toMatchObject({ attempts: stuck.attempts });
    // Due while D is still suspended: tried, still stuck, the next try further away (backoff).
    c.host.clock.set(due + 1000);
    await c.host.runSchedule('redrive_propagations');
    const later = (await stuckOf(order.order_number))[0];
    expect(later.attempts).toBe(stuck.attempts + 1);
    expect(Date.parse(later.next_retry_at) - Date.parse(later.last_error.at)).toBeGreaterThan(FIFTEEN_MIN);
    // The cause gone, the next due run applies it, and every other stuck one that is due (the first test's): none stays stuck.
    expect((await c.as('C', 'POST', `/reseller/sub-resellers/${c.ids.D}/reactivate`, {})).status).toBe(200);
    c.host.clock.set(Date.parse(later.next_retry_at) + 1000);
    const run = (await c.host.runSchedule('redrive_propagations')) as { retried: number; done: number; stuck: number };
    expect(run).toMatchObject({ stuck: 0 });
    expect(run.done).toBe(run.retried);
    expect((await c.as('A', 'GET', '/chain-orders/propagations?state=stuck')).body.pagination.total).toBe(0);
    const d = (await copyAt(c, 'D', order.order_number))!;
    expect(d).toMatchObject({ chain_status: 'shipped', shipping: { tracking_number: 'STUCK3' } });
    expect(await stuckOf(order.order_number)).toEqual([]);
    const timeline = (await c.as('D', 'GET', `/chain-orders/${d.id}/timeline`)).body.timeline;
    expect(await c.host.runSchedule('redrive_propagations')).toMatchObject({ retried: 0 });
    expect((await c.as('D', 'GET', `/chain-orders/${d.id}/timeline`)).body.timeline).toEqual(timeline);
    expect((await c.as('A', 'GET', `/chain-orders/${top.id}`)).body.order.propagation).toMatchObject({ state: 'synced', pending: 0 });
  }, 120_000);

  test("a level whose module refuses a state (delivered before shipped arrived) is stuck too; the re-drive applies them oldest first", async () => {
    const { order, top } = await stuckShipment('STUCK4');
    expect((await c.as('C', 'POST', `/reseller/sub-resellers/${c.ids.D}/reactivate`, {})).status).toBe(200);
    // D is reachable again but its copy is still accepted: its reseller_orders refuses delivered (INVALID_STATUS).
    expect((await c.as('A', 'POST', `/chain-orders/${top.id}/deliver`)).status).toBe(200);
    const ended = await c.host.runJobs(c.host.clock.now() + 60_000);
    expect(ended).toContainEqual(expect.objectContaining({ job: 'push', status: 'failed', attempts: 10 }));
    const stuck = await stuckOf(order.order_number);
    expect(stuck.map((p: { status: string }) => p.status)).toEqual(['shipped', 'delivered']);
    expect(stuck[1].last_error).toMatchObject({ code: 'INVALID_STATUS' });
    expect((await c.as('A', 'GET', `/chain-orders/${top.id}`)).body.order.propagation).toMatchObject({ state: 'stuck', pending: 2 });
    c.host.clock.set(Date.parse(stuck[1].next_retry_at) + 1000);
    expect(await c.host.runSchedule('redrive_propagations')).toMatchObject({ stuck: 0 });
    expect(await copyAt(c, 'D', order.order_number)).toMatchObject({ chain_status: 'delivered', shipping: { tracking_number: 'STUCK4' } });
    expect((await c.as('A', 'GET', `/chain-orders/${top.id}`)).body.order.propagation).toMatchObject({ state: 'synced' });
  }, 120_000);

  test('a stuck state the level below has since moved past (accepted, when shipped reached it) is superseded, not retried for ever', async () => {
    const order = await placeOrder(c);
    await c.as('D', 'POST', '/chain-orders', { order_id: order.id });
    for (const level of ['D', 'C', 'B'] as const) await c.as(level, 'POST', `/chain-orders/${(await copyAt(c, level, order.order_number))!.id}/forward`);
    const top = (await copyAt(c, 'A', order.order_number))!;
    expect((await c.as('C', 'POST', `/reseller/sub-resellers/${c.ids.D}/suspend`, {})).status).toBe(200);
    expect((await c.as('A', 'POST', `/chain-orders/${top.id}/accept`)).status).toBe(200);
    await c.host.runJobs(c.host.clock.now() + 60_000);
    const [stuck] = await stuckOf(order.order_number);
    expect(stuck).toMatchObject({ status: 'accepted', state: 'stuck' });
    expect((await c.as('C', 'POST', `/reseller/sub-resellers/${c.ids.D}/reactivate`, {})).status).toBe(200);
    // Shipped reaches D at once (a forwarded copy may take it), so D is past accepted.
    expect((await c.as('A', 'POST', `/chain-orders/${top.id}/ship`, { tracking_number: 'STUCK5', carrier: 'Delhivery' })).status).toBe(200);
    expect((await copyAt(c, 'D', order.order_number))!.chain_status).toBe('shipped');
    c.host.clock.set(Date.parse(stuck.next_retry_at) + 1000);
    expect(await c.host.runSchedule('redrive_propagations')).toMatchObject({ stuck: 0 });
    const all = (await c.as('A', 'GET', '/chain-orders/propagations?state=superseded&per_page=100')).body.propagations;
    expect(all).toContainEqual(expect.objectContaining({ id: stuck.id, state: 'superseded', next_retry_at: null }));
    expect((await copyAt(c, 'D', order.order_number))!.chain_status).toBe('shipped');
    expect((await c.as('A', 'GET', `/chain-orders/${top.id}`)).body.order.propagation).toMatchObject({ state: 'synced' });
  }, 120_000);
});
