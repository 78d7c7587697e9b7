/**
 * Attacks on provider contracts (DESIGN.md, Host capabilities for modules): a tenant admin choosing
 * the provider of another tenant, a module calling `payment.createLink` (or a provider behind it)
 * without consuming it, and a module offering the contract's operations without declaring the
 * contract, hoping to be chosen or reached as a payment provider.
 */
import path from 'node:path';
import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';
import { addModules, dirs } from '../contracts/support';

const hostile = (name: string) => path.join(__dirname, 'fixtures', name);

describe('DESIGN Host capabilities: provider contracts cannot be hijacked across tenants, modules or contracts', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  let globexId: string;
  let admin: { token: string };
  const call = (op: string, input: unknown, tenantId = owner.tenantId) => tp.platform.kernel.bus.call({ kind: 'core' }, op, input, { tenantId, user: null });
  const link = { amount: '10.00', currency: 'INR', reference: 'R-1' };

  beforeAll(async () => {
    tp = await startTestPlatform();
    owner = await tp.install('acme');
    const made = await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Globex', alias: 'globex' } });
    globexId = made.body.tenant.id;
    await addModules(tp, [dirs.razorpay, dirs.fakepay, dirs.checkout, hostile('sneaky'), hostile('payment-impostor')]);
    for (const alias of ['payment_fakepay', 'payment_razorpay', 'checkout', 'sneaky', 'payment_impostor']) await tp.platform.kernel.modules.install(owner.tenantId, alias);
    for (const alias of ['payment_fakepay', 'payment_razorpay', 'checkout']) await tp.platform.kernel.modules.install(globexId, alias);
    // A tenant admin of acme (every permission there), not a super admin.
    admin = await addMember(tp, owner.token, 'acme', { email: 'tam@acme.example', role: 'admin' });
  }, 240_000);
  afterAll(() => tp?.close());

  test("a tenant admin cannot read or choose another tenant's provider, by X-Tenant or X-Effective-Tenant", async () => {
    const put = { method: 'PUT', token: admin.token, body: { module: 'payment_fakepay' } };
    expect((await tp.api('/providers/payment', { ...put, tenant: 'acme' })).status).toBe(200);
    expect([401, 403]).toContain((await tp.api('/providers/payment', { ...put, tenant: 'globex' })).status);
    expect([401, 403]).toContain((await tp.api('/providers/payment', { ...put, tenant: 'acme', headers: { 'x-effective-tenant': 'globex' } })).status);
    expect([401, 403]).toContain((await tp.api('/providers', { token: admin.token, tenant: 'globex' })).status);
    const globex = await tp.platform.central.models.Tenant.findByPk(globexId);
    expect((globex!.settings as { providers?: unknown }).providers).toBeUndefined();
    // acme's choice routes acme only: globex, with the same two providers and no choice, is still ambiguous.
    expect(await call('checkout.pay', link)).toMatchObject({ id: 'fp_R-1_10.00' });
    await expect(call('checkout.pay', link, globexId)).rejects.toMatchObject({ code: 'PROVIDER_AMBIGUOUS' });
  });

  test('a module calling payment.createLink, or a provider behind it, without consuming it is refused', async () => {
    const ran = () => tp.platform.kernel.sandboxTimings.snapshot()['payment_fakepay.createLink']?.calls ?? 0;
    const before = ran();
    await expect(call('sneaky.grab', {})).rejects.toMatchObject({ code: 'OPERATION_NOT_CONSUMED', status: 403, details: { module: 'sneaky', operation: 'payment.createLink' } });
    for (const provider of ['payment_fakepay', 'payment_razorpay']) {
      await expect(call('sneaky.grab_at', { provider })).rejects.toMatchObject({ code: 'OPERATION_NOT_CONSUMED', details: { operation: `${provider}.createLink` } });
    }
    expect(ran()).toBe(before); // no provider ran for it
  });

  test('a module offering the contract\'s operations without declaring it is never chosen, routed to or reached through the contract', async () => {
    const chosen = await tp.api('/providers/payment', { method: 'PUT', token: owner.token, tenant: 'acme', body: { module: 'payment_impostor' } });
    expect(chosen).toMatchObject({ status: 422, body: { code: 'PROVIDER_NOT_IMPLEMENTING' } });
    expect((await tp.api('/providers', { token: owner.token, tenant: 'acme' })).body.data[0]).toMatchObject({ implementers: ['payment_fakepay', 'payment_razorpay'], chosen: 'payment_fakepay' });
    // checkout consumes payment.createLink: that reaches implementers by name, not a look-alike.
    await expect(tp.platform.kernel.bus.call({ kind: 'module', alias: 'checkout' }, 'payment_impostor.createLink', link, { tenantId: owner.tenantId, user: null })).rejects.toMatchObject({
      code: 'OPERATION_NOT_CONSUMED',
    });
    // With the real providers gone, the contract has nowhere to go: it never falls to the impostor.
    await tp.platform.kernel.modules.uninstall(owner.tenantId, 'payment_fakepay');
    await tp.platform.kernel.modules.uninstall(owner.tenantId, 'payment_razorpay');
    await expect(call('checkout.pay', link)).rejects.toMatchObject({ code: 'PROVIDER_MISSING' });
  });
});
