import { describeWithRedis, startTwoNodes, type TwoNodes } from '../support/two-nodes';
import { startAccountsPlatform, type AccountsPlatform } from './support/accounts-platform';

// Two nodes share lockout counters only through Redis; without it each node counts alone.
describeWithRedis('spec 1 Limits: the failed-login lockout holds across two app instances on one Redis', () => {
  let nodes: TwoNodes<AccountsPlatform>;
  let a: AccountsPlatform;
  let b: AccountsPlatform;

  beforeAll(async () => {
    nodes = await startTwoNodes(
      (db) => startAccountsPlatform({}, db),
      async (node) => {
        await node.tp.platform.stop();
        await node.smtp.close();
      },
    );
    ({ a, b } = nodes);
    await a.tp.install('acme');
  });
  afterAll(() => nodes?.close());

  const signIn = (node: AccountsPlatform, password: string, ip: string) =>
    node.api('/auth/login', { tenant: 'acme', ip, body: { email: 'ada@acme.example', password } });

  test('failures on A and on B add up; the locked address is refused by both', async () => {
    const ip = '203.0.113.77';
    for (const node of [a, b, a, b]) expect((await signIn(node, 'wrong-password-1', ip)).status).toBe(401);
    expect((await signIn(a, 'correct-horse-battery', ip)).status).toBe(200);
    expect((await signIn(b, 'wrong-password-1', ip)).status).toBe(401);
    for (const node of [a, b]) {
      const res = await signIn(node, 'correct-horse-battery', ip);
      expect(res.status).toBe(429);
      expect(res.body.retry_after).toBeGreaterThan(880);
    }
    expect((await signIn(b, 'correct-horse-battery', '203.0.113.78')).status).toBe(200);
    // Both nodes wrote to the same tenant history.
    const token = (await signIn(b, 'correct-horse-battery', '203.0.113.78')).body.token;
    const rows = (await a.api('/login-history?per_page=100', { token, tenant: 'acme' })).body.history as Array<{ ip_address: string; status: string }>;
    expect(rows.filter((r) => r.ip_address === ip).map((r) => r.status)).toEqual(['failed', 'failed', 'failed', 'success', 'failed', 'failed', 'failed', 'failed']);
  });

  test('the account guard set by failures spread over both nodes holds on both', async () => {
    for (let i = 0; i < 10; i++) {
      const node = i % 2 ? b : a;
      expect((await node.api('/auth/login', { tenant: 'acme', ip: `192.0.2.${Math.floor(i / 2) + 100}`, body: { email: 'guessed@acme.example', password: `try-${i}-pw` } })).status).toBe(401);
    }
    for (const node of [a, b]) {
      const res = await node.api('/auth/login', { tenant: 'acme', ip: '192.0.2.200', body: { email: 'guessed@acme.example', password: 'x-y-z-w-v' } });
      expect(res.status).toBe(429);
    }
  });
});
