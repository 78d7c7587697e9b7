/** The pub/sub contract, run in process and on Redis. */
import { kinds, sleep, useDrivers, waitFor } from './support';

describe.each(kinds())('pub/sub (%s)', (kind) => {
  const drivers = useDrivers(kind, 'ps');

  it('delivers JSON messages to the subscribers of a channel', async () => {
    const got: [unknown, string][] = [];
    const off = await drivers().pubsub.subscribe('orders.created', (m, c) => void got.push([m, c]));
    await drivers().pubsub.publish('orders.created', { id: 1, total: '10.00' });
    await drivers().pubsub.publish('orders.updated', { id: 1 });
    await waitFor(() => got.length === 1, 'message');
    await sleep(50);
    expect(got).toEqual([[{ id: 1, total: '10.00' }, 'orders.created']]);
    await off();
  });

  it('matches `*` patterns and treats other characters literally', async () => {
    const got: string[] = [];
    const off = await drivers().pubsub.subscribe('tenant.*.events', (_m, c) => void got.push(c));
    const offLiteral = await drivers().pubsub.subscribe('odd?[x]', (_m, c) => void got.push(`literal:${c}`));
    await drivers().pubsub.publish('tenant.abc12345.events', 1);
    await drivers().pubsub.publish('tenant.x.y.events', 2);
    await drivers().pubsub.publish('tenant.abc12345.other', 3);
    await drivers().pubsub.publish('oddA[x]', 4);
    await drivers().pubsub.publish('odd?[x]', 5);
    await waitFor(() => got.length === 3, 'three messages');
    await sleep(50);
    expect(got.sort()).toEqual(['literal:odd?[x]', 'tenant.abc12345.events', 'tenant.x.y.events']);
    await off();
    await offLiteral();
  });

  it('stops delivering after unsubscribe, keeping the other subscribers', async () => {
    const a: unknown[] = [];
    const b: unknown[] = [];
    const offA = await drivers().pubsub.subscribe('chan', (m) => void a.push(m));
    const offB = await drivers().pubsub.subscribe('chan', (m) => void b.push(m));
    await drivers().pubsub.publish('chan', 1);
    await waitFor(() => a.length === 1 && b.length === 1, 'both');
    await offA();
    await drivers().pubsub.publish('chan', 2);
    await waitFor(() => b.length === 2, 'b only');
    await sleep(50);
    expect(a).toEqual([1]);
    await offB();
  });

  it('isolates a failing handler from the others', async () => {
    const got: unknown[] = [];
    const offBad = await drivers().pubsub.subscribe('fragile', () => {
      throw new Error('handler bug');
    });
    const offGood = await drivers().pubsub.subscribe('fragile', (m) => void got.push(m));
    await drivers().pubsub.publish('fragile', 'x');
    await drivers().pubsub.publish('fragile', 'y');
    await waitFor(() => got.length === 2, 'two messages');
    await offBad();
    await offGood();
  });
});
