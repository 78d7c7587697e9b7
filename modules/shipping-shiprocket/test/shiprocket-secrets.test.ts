/** shipping_shiprocket keeps its password, login token and webhook token as module secrets, in the real sandbox. */
import path from 'node:path';
import type { TestHost } from '../../../sdk/testing';
import { shiprocketStandIn, startHostAllowing } from '../../orders/test/support';

let host: TestHost;
let sr: Awaited<ReturnType<typeof shiprocketStandIn>>;

beforeAll(async () => {
  sr = await shiprocketStandIn(new Map());
  host = await startHostAllowing({ modulePath: path.resolve(__dirname, '..') }, { shipping_shiprocket: [sr.origin] });
}, 60_000);
afterAll(async () => {
  await host?.close();
  await sr?.close();
});

const rates = () => host.call<{ rates: unknown[] }>('shipping_shiprocket.getRates', { pickup_pincode: '110001', delivery_pincode: '560001', weight: 1 });
const webhook = (token: string) =>
  fetch(`${host.url}/api/v1/shipping-shiprocket/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-tenant': host.tenantId, 'x-api-key': token }, body: JSON.stringify({}) });

describe('DESIGN Host capabilities for modules: Shiprocket credentials are module secrets, the account host settings; earlier versions\' rows move on first use or at the legacy_secrets schedule', () => {
  it('configure keeps the password, token and webhook token out of the Setting table', async () => {
    await host.call('shipping_shiprocket.configure', { email: 'ops@test-org.example', password: 'sr-pass', base_url: sr.origin, webhook_token: 'webhook-token-0123456789' });
    expect((await rates()).rates.length).toBeGreaterThan(0);
    const keys = (await host.sql<{ key: string }>(`SELECT key FROM shipping_shiprocket.settings ORDER BY key`)).map((r) => r.key);
    expect(keys).toEqual(['token_at']); // the module's own state; the rest are host settings
    expect((await host.request('GET', '/modules/shipping_shiprocket/settings')).body.values).toEqual({ email: 'ops@test-org.example', base_url: sr.origin, pickup_location: 'Primary' });
    const listed = await host.request('GET', '/modules/shipping_shiprocket/secrets');
    expect(listed.body.secrets.map((s: { name: string; set: boolean }) => [s.name, s.set])).toEqual([['password', true], ['token', true], ['webhook_token', true]]);
    expect(JSON.stringify(listed.body)).not.toContain('sr-pass');
  });

  it("1.0's plaintext password, token and webhook token rows are moved into the secrets, deleted, and still work", async () => {
    for (const name of ['password', 'token', 'webhook_token']) await host.request('DELETE', `/modules/shipping_shiprocket/secrets/${name}`);
    const logins = () => sr.seen.filter((s) => s.url === '/v1/external/auth/login').length;
    const before = logins();
    await host.arrange((sql) =>
      sql(`INSERT INTO shipping_shiprocket.settings (key, value) VALUES ('password', 'sr-pass'), ('token', 'sr-token-1'), ('webhook_token', 'legacy-webhook-token-01')`),
    );
    expect((await rates()).rates.length).toBeGreaterThan(0);
    expect(logins()).toBe(before); // the moved token was used as it was
    expect((await host.sql(`SELECT key FROM shipping_shiprocket.settings WHERE key IN ('password', 'token', 'webhook_token')`))).toEqual([]);
    expect((await webhook('legacy-webhook-token-01')).status).toBe(201); // accepted (nothing to apply in an empty push)
    expect((await webhook('another-webhook-token-01')).status).toBe(401);
  });

  it("1.1's email, base URL and pickup location rows are copied once into the host settings and deleted; token_at stays", async () => {
    await host.request('PUT', '/modules/shipping_shiprocket/settings', { values: {} });
    await host.arrange((sql) => sql(`INSERT INTO shipping_shiprocket.settings (key, value) VALUES ('email', 'ops@test-org.example'), ('base_url', $1), ('pickup_location', 'Warehouse 2')`, [sr.origin]));
    expect((await rates()).rates.length).toBeGreaterThan(0);
    expect((await host.sql<{ key: string }>(`SELECT key FROM shipping_shiprocket.settings ORDER BY key`)).map((r) => r.key)).toEqual(['token_at']);
    expect((await host.request('GET', '/modules/shipping_shiprocket/settings')).body.values).toEqual({ email: 'ops@test-org.example', base_url: sr.origin, pickup_location: 'Warehouse 2' });
  });

  it('in a tenant that makes no call, the legacy_secrets schedule moves them at its next quarter hour', async () => {
    for (const name of ['password', 'token', 'webhook_token']) await host.request('DELETE', `/modules/shipping_shiprocket/secrets/${name}`);
    const logins = () => sr.seen.filter((s) => s.url === '/v1/external/auth/login').length;
    const before = logins();
    await host.arrange((sql) =>
      sql(`INSERT INTO shipping_shiprocket.settings (key, value) VALUES ('password', 'sr-pass'), ('token', 'sr-token-1'), ('webhook_token', 'legacy-webhook-token-02')`),
    );

    // 10:15 is a slot of the 15-minute schedule; it runs through the tick and the job queue, as on a platform node.
    expect(await host.runSchedules(Date.parse('2031-03-01T10:15:05Z'), { settle: true })).toBe(1);
    expect(await host.sql(`SELECT key FROM shipping_shiprocket.settings WHERE key IN ('password', 'token', 'webhook_token')`)).toEqual([]);
    const listed = await host.request('GET', '/modules/shipping_shiprocket/secrets');
    expect(listed.body.secrets.map((s: { name: string; set: boolean }) => [s.name, s.set])).toEqual([['password', true], ['token', true], ['webhook_token', true]]);
    // The module reads them: the moved token serves without a login, the moved webhook token is accepted.
    expect((await rates()).rates.length).toBeGreaterThan(0);
    expect(logins()).toBe(before);
    expect((await webhook('legacy-webhook-token-02')).status).toBe(201);
    // A run with nothing left to move changes nothing.
    expect(await host.runSchedule('legacy_secrets')).toEqual({ checked: true });
    expect((await webhook('legacy-webhook-token-02')).status).toBe(201);
  });
});
