/**
 * The public test host (@mandi/sdk/testing) itself: the narrow ways a module's tests reach what
 * they cannot reach through the module's operations and routes. Driven through the orders module,
 * which declares schedules and keeps tables of its own.
 */
import path from 'node:path';
import { createTestHost, type TestHost } from '../../sdk/testing';

let host: TestHost;
beforeAll(async () => {
  host = await createTestHost({ modulePath: path.resolve(__dirname, '../../modules/orders') });
}, 90_000);
afterAll(() => host?.close());

describe('sdk testing: the test host', () => {
  it('sql() reads the tenant database and refuses a write; arrange() writes', async () => {
    expect(await host.sql<{ n: number }>('SELECT count(*)::int AS n FROM orders.orders')).toEqual([{ n: 0 }]);
    await expect(host.sql(`DELETE FROM orders.orders`)).rejects.toThrow(/read-only transaction/);
    expect(await host.arrange((sql) => sql<{ db: string }>('SELECT current_database() AS db'))).toEqual([{ db: host.tenantDatabase }]);
  });

  it('runSchedule(name) runs one schedule now and resolves with its result; an unknown name is refused', async () => {
    await expect(host.runSchedule('analytics_refresh')).resolves.toBeDefined();
    await expect(host.runSchedule('no_such_schedule')).rejects.toThrow(/no schedule named no_such_schedule/);
  });

  it('clock moves the platform time; runSchedules(at, {settle}) queues the slots due then and waits for them', async () => {
    const at = Date.parse('2031-03-01T10:00:05Z');
    host.clock.freeze(at);
    try {
      expect(host.clock.now()).toBe(at);
      // 10:00 is a slot of every orders schedule (each period divides the hour).
      expect(await host.runSchedules(at, { settle: true })).toBe(6);
    } finally {
      host.clock.reset();
    }
  });

  it('inbox() holds the mail the platform sent: the invitation addMember followed', async () => {
    const { token } = await host.addMember({ email: 'mira@test-org.example', role: 'member' });
    expect(token).toEqual(expect.any(String));
    const invitation = await host.waitForMail((m) => m.to.includes('mira@test-org.example'));
    expect(invitation.text).toMatch(/\/invitations\//);
  });

  it('redeliver() hands an event to a module once more and says how it ended', async () => {
    const id = await host.emit('order.delivered', { order_id: '00000000-0000-4000-8000-000000000001', order_number: 'ORD-X' }, { settle: true });
    expect(await host.delivery(id, 'orders')).toBe('completed');
    expect(await host.redeliver(id, 'orders')).toBe('completed');
  });
});
