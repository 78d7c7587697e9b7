/**
 * A provider is held to its contract (DESIGN.md, Host capabilities for modules): when its manifest
 * is validated (build, pack, publish) and again at install, every contract operation must be there,
 * accept at least the contract's input and promise what its output promises; contract names are
 * no module's alias. Refusals say which operation and what differs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { filesInDir, LoadedModule } from '../../core/kernel/modules/loaded-module';
import { validateManifest, type Manifest } from '../../sdk/manifest';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { addModules, dirs } from './support';

const manifestOf = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'module.json'), 'utf8')) as Manifest;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- manifests bent out of shape on purpose
const bent = (patch: (m: any) => void): Manifest => {
  const m = manifestOf(dirs.fakepay);
  patch(m);
  return m;
};
const problems = (m: unknown) => {
  const result = validateManifest(m);
  return result.ok ? [] : result.errors.map((e) => `${e.pointer}: ${e.message}`);
};

describe('manifest validation (build, pack, publish) of api.implements', () => {
  test('the first-party providers and the fixture keep their contracts', () => {
    expect(problems(manifestOf(dirs.fakepay))).toEqual([]);
    expect(problems(manifestOf(dirs.razorpay))).toEqual([]);
    expect(problems(manifestOf(path.join(dirs.razorpay, '../shipping-shiprocket')))).toEqual([]);
  });

  test('an input narrower than the contract, or an output promising less, is refused naming the operation and the difference', () => {
    expect(problems(bent((m) => (m.api.provides[1].input.properties.amount = { type: 'number' })))).toEqual([
      '/api/provides/1/input: refuses input payment@1 allows for payment.createLink: /properties/amount: no longer accepts string',
    ]);
    expect(problems(bent((m) => m.api.provides[1].input.required.push('description')))).toEqual([
      '/api/provides/1/input: refuses input payment@1 allows for payment.createLink: (root): now requires "description"',
    ]);
    expect(problems(bent((m) => (m.api.provides[2].output.properties.status.enum = ['pending', 'completed', 'failed', 'maybe'])))).toEqual([
      '/api/provides/2/output: returns what payment@1 does not promise for payment.link_status: /properties/status: enum value "maybe" added',
    ]);
    expect(problems(bent((m) => { delete m.api.provides[1].output.properties.url; m.api.provides[1].output.required = ['id']; }))).toEqual([
      '/api/provides/1/output: returns what payment@1 does not promise for payment.createLink: (root): "url" removed',
    ]);
    // Accepting more and promising more is what an implementation may do.
    expect(problems(bent((m) => { m.api.provides[1].input.properties.upi_only = { type: 'boolean' }; m.api.provides[1].output.properties.qr = { type: 'string' }; }))).toEqual([]);
  });

  test('a missing operation, an unknown contract and a consumed operation no contract has are refused', () => {
    expect(problems(bent((m) => m.api.provides.splice(4, 1)))).toEqual([
      expect.stringMatching(/^\/api\/implements\/0: implementing payment@1 needs the operation "payment_fakepay.refund_status" \(payment.refund_status: /),
    ]);
    expect(problems(bent((m) => (m.api.implements = ['payment@9'])))).toEqual(['/api/implements/0: "payment@9" is not a contract this platform defines (payment@1, shipping@1)']);
    expect(problems(bent((m) => (m.api.consumes = ['payment.teleport', 'payment.*', 'shipping.getRates'])))).toEqual([
      '/api/consumes/0: the payment contract has no operation "teleport" (it has describe, createLink, link_status, refund, refund_status)',
    ]);
  });

  test('a contract name is no module\'s alias', () => {
    for (const name of ['payment', 'shipping']) {
      const m = { name, version: '1.0.0', compatibility: { platform: '^2.0.0' }, api: { provides: [{ name: `${name}.createLink`, description: 'x', graphql_expose: false, input: { type: 'object' } }] } };
      expect(problems(m)).toEqual([expect.stringMatching(new RegExp(`^/name: "${name}" is reserved: it names a provider contract`))]);
    }
  });
});

describe('install refuses what validation would (a package published before this host knew the contract)', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  const code = () => readFileSync(path.join(dirs.fakepay, 'dist/index.js'), 'utf8');
  const install = (alias: string) => tp.api(`/modules/${alias}/install?wait=true`, { method: 'POST', token: owner.token, tenant: 'acme', body: {} });

  beforeAll(async () => {
    tp = await startTestPlatform();
    owner = await tp.install('acme');
    await addModules(tp, [dirs.fakepay]);
  }, 120_000);
  afterAll(() => tp?.close());

  test('a provider whose createLink takes a number where the contract sends a string: 422 naming the operation and the difference', async () => {
    const manifest = bent((m) => {
      m.name = 'payment_badpay';
      for (const op of m.api.provides) op.name = op.name.replace('payment_fakepay.', 'payment_badpay.');
      m.api.provides[1].input.properties.amount = { type: 'number' };
    });
    tp.platform.kernel.source.add(new LoadedModule(manifest, code(), filesInDir(dirs.fakepay)));
    const res = await install('payment_badpay');
    expect(res).toMatchObject({ status: 422, body: { code: 'MODULE_CONTRACT' } });
    expect(res.body.message).toContain('/api/provides/1/input: refuses input payment@1 allows for payment.createLink: /properties/amount: no longer accepts string');
    expect((await tp.api('/providers', { token: owner.token, tenant: 'acme' })).body.data[0].implementers).toEqual([]);
  });

  test('a module taking the alias "payment" is refused, so "payment.createLink" can only mean the tenant\'s provider', async () => {
    const manifest = bent((m) => {
      m.name = 'payment';
      delete m.api.implements;
      for (const op of m.api.provides) op.name = op.name.replace('payment_fakepay.', 'payment.');
    });
    tp.platform.kernel.source.add(new LoadedModule(manifest, code(), filesInDir(dirs.fakepay)));
    const res = await install('payment');
    expect(res).toMatchObject({ status: 422, body: { code: 'MODULE_CONTRACT' } });
    expect(res.body.message).toContain('/name: "payment" is reserved');
    expect(await tp.platform.kernel.bus.exists(owner.tenantId, 'payment.createLink')).toBe(false);
  });
});
