/**
 * Spec 2, public widget endpoints, as a module author tests them (SDK guide, docs/guides/06-webhooks-and-timers.md): the SDK
 * test host registers a token as the module and reaches /api/<prefix>/<token>/... over real HTTP.
 */
import { createTestHost, type TestHost } from '../../sdk/testing';
import { fixture } from './support';

let host: TestHost;
beforeAll(async () => {
  host = await createTestHost({ modulePath: fixture('widgetry') });
}, 120_000);
afterAll(() => host.close());

describe('spec 2: public routes under createTestHost', () => {
  test('a token registered as the module opens its public routes in the test tenant', async () => {
    const { token } = await host.call<{ token: string }>('public_tokens.register', {}, { asModule: 'widgetry' });
    const res = await fetch(`${host.url}/api/widget/${token}/config`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ tenant: host.tenantId, user: null, caller: 'http' });
  });

  test('registering from outside a module (the owner at the edge) is refused', async () => {
    await expect(host.call('public_tokens.register', {})).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
