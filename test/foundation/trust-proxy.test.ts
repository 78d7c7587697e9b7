/**
 * TRUST_PROXY: only the proxies it names may set the client's address through X-Forwarded-For.
 * Failed logins are counted per address (spec 1, Limits), so a trusted peer that is no proxy could
 * name a new address for every guess and never be locked out.
 */
import http from 'node:http';
import os from 'node:os';
import { classifyAddress } from '../../core/kernel/net/outbound-policy';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

/** A non-loopback address of this machine on a private network (as another host on the LAN would be), if it has one. */
function privateAddress(): string | undefined {
  const all = Object.values(os.networkInterfaces()).flatMap((list) => list ?? []);
  const candidates = all.filter((a) => !a.internal && !a.address.startsWith('fe80:'));
  return (candidates.find((a) => classifyAddress(a.address) === 'private') ?? candidates[0])?.address;
}

/** A login sent from `localAddress` (so the platform sees that peer), naming another client address. */
function loginFrom(localAddress: string, port: number, forwardedFor: string, password: string): Promise<number> {
  const host = localAddress.includes(':') ? `[${localAddress}]` : localAddress;
  const body = JSON.stringify({ email: 'ada@acme.example', password });
  return new Promise((resolve, reject) => {
    const req = http.request(
      `http://${host}:${port}/api/v1/auth/login`,
      { method: 'POST', localAddress, agent: false, headers: { 'content-type': 'application/json', 'x-tenant': 'acme', 'x-forwarded-for': forwardedFor } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const peer = privateAddress();

describe('TRUST_PROXY unset: X-Forwarded-For counts from loopback only (spec 1 Limits: lockout per IP)', () => {
  let tp: TestPlatform;
  beforeAll(async () => {
    tp = await startTestPlatform({ HOST: '::' });
    await tp.install('acme');
  });
  afterAll(() => tp.close());

  (peer ? test : test.skip)(`a client on the same network (${peer ?? 'none on this machine'}) cannot dodge the lockout by naming a new address per guess`, async () => {
    const port = Number(new URL(tp.url).port);
    for (let i = 1; i <= 5; i++) expect(await loginFrom(peer!, port, `198.51.100.${i}`, `guess-${i}-wrong`)).toBe(401);
    // All five counted against the peer's own address: locked, whatever address it names now.
    expect(await loginFrom(peer!, port, '198.51.100.99', 'correct-horse-battery')).toBe(429);
    // A proxy on this machine (loopback) still names its clients: this one is not locked.
    expect((await tp.api('/auth/login', { tenant: 'acme', headers: { 'x-forwarded-for': '198.51.100.99' }, body: { email: 'ada@acme.example', password: 'correct-horse-battery' } })).status).toBe(200);
  });
});

describe('TRUST_PROXY values', () => {
  const lastLoginIp = async (env: Record<string, string>, forwardedFor: string) => {
    const tp = await startTestPlatform(env);
    try {
      await tp.install('acme');
      const login = await tp.api('/auth/login', { tenant: 'acme', headers: { 'x-forwarded-for': forwardedFor }, body: { email: 'ada@acme.example', password: 'correct-horse-battery' } });
      expect(login.status).toBe(200);
      return (await tp.api('/profile', { token: login.body.token, tenant: 'acme' })).body.last_login_ip as string;
    } finally {
      await tp.close();
    }
  };

  test('false: no peer is trusted, loopback included', async () => {
    expect(await lastLoginIp({ TRUST_PROXY: 'false' }, '203.0.113.9')).toBe('127.0.0.1');
  });

  test('a hop count: exactly that many proxies are trusted, whatever their addresses', async () => {
    // One hop: the address our proxy (the loopback peer) saw; with the default the loopback entry would be skipped too.
    expect(await lastLoginIp({ TRUST_PROXY: '1' }, '203.0.113.10, 127.0.0.5')).toBe('127.0.0.5');
  });
});
