import { loadConfig } from '../../core/config';
import { createLogger } from '../../core/kernel/logger';
import { SchemaCache } from '../../core/services/graphql/schema-cache';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { addFixtureModules, gql, installModule, type Who } from './support';

/**
 * Spec 1, Versioning 3 and Limits (schema cache TTL): the schema is per ring, cached under
 * graphql:schema:<ring>:<fingerprint of every enabled module's alias@version>; rings never share a
 * compiled schema.
 */
describe('spec 1 Versioning 3: a GraphQL schema per ring', () => {
  let tp: TestPlatform;
  let owner: Who;
  const ids: Record<string, string> = {};
  /** The owner is a super admin: X-Effective-Tenant lets them act in every tenant. */
  const as = (alias: string) => ({ headers: { 'x-effective-tenant': alias } });
  const schemaOf = (alias: string) => tp.api('/graphql/schema', { token: owner.token, tenant: 'acme', ...as(alias) });
  const productFields = async (alias: string) => {
    const res = await gql(tp, owner, '{ __type(name: "Product") { fields { name } } }', as(alias));
    return res.body.data.__type.fields.map((f: { name: string }) => f.name);
  };

  beforeAll(async () => {
    tp = await startTestPlatform();
    const o = await tp.install('acme');
    owner = { token: o.token, tenant: 'acme' };
    ids.acme = o.tenantId;
    await addFixtureModules(tp, ['shop', 'shop-v2']);
    await installModule(tp, o.token, 'acme', 'shop', '1.0.0');
    for (const [alias, ring, version] of [['canary1', 'canary', '2.0.0'], ['canary2', 'canary', '1.0.0']] as const) {
      const made = await tp.api('/admin/tenants', { token: o.token, tenant: 'acme', body: { name: alias, alias, ring } });
      if (made.status !== 201) throw new Error(JSON.stringify(made.body));
      ids[alias] = made.body.tenant.id;
      await tp.platform.kernel.modules.install(ids[alias], 'shop', version);
    }
  }, 120_000);
  afterAll(() => tp?.close());

  test('two rings running different module versions answer with different schemas', async () => {
    expect(await productFields('acme')).not.toContain('barcode');
    expect(await productFields('canary1')).toContain('barcode');
    const stable = await gql(tp, owner, '{ _gateway { ring modules } }', as('acme'));
    const canary = await gql(tp, owner, '{ _gateway { ring modules } }', as('canary1'));
    expect(stable.body.data._gateway).toEqual({ ring: 'stable', modules: ['shop@1.0.0'] });
    expect(canary.body.data._gateway).toEqual({ ring: 'canary', modules: ['shop@2.0.0'] });
    const refused = await gql(tp, owner, '{ product(sku: "P-01") { barcode } }', as('acme'));
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].message).toBe('Cannot query field "barcode" on type "Product".');
  });

  test('the cache key is graphql:schema:<ring>:<fingerprint>; equal module sets in two rings still get two keys', async () => {
    const keyOf = async (alias: string) => (await schemaOf(alias)).headers.get('x-schema-key')!;
    const [stable, canary1, canary2] = [await keyOf('acme'), await keyOf('canary1'), await keyOf('canary2')];
    const fingerprint = (await tp.platform.kernel.modules.modulesFor(ids.acme)).fingerprint;
    expect(stable).toBe(`graphql:schema:stable:${fingerprint}`);
    expect(canary2).toBe(`graphql:schema:canary:${fingerprint}`); // same modules as acme, other ring
    expect(canary1).toMatch(/^graphql:schema:canary:[0-9a-f]{16}$/);
    expect(canary1).not.toBe(canary2);
  });

  test('an upgrade changes the fingerprint: the tenant gets the new schema at once', async () => {
    const before = (await schemaOf('acme')).headers.get('x-schema-key');
    await installModule(tp, owner.token, 'acme', 'shop', '2.0.0');
    expect(await productFields('acme')).toContain('barcode');
    const after = (await schemaOf('acme')).headers.get('x-schema-key');
    expect(after).not.toBe(before);
    expect(after).toBe(`graphql:schema:stable:${(await tp.platform.kernel.modules.modulesFor(ids.canary1)).fingerprint}`);
  });

  describe('spec 1 Limits: schema cache TTL (graphql.schema_cache.ttl)', () => {
    test('86400 seconds by default, GRAPHQL_SCHEMA_CACHE_TTL to change it', () => {
      expect(loadConfig({}).graphql.schemaCacheTtlSeconds).toBe(86_400);
      expect(loadConfig({ GRAPHQL_SCHEMA_CACHE_TTL: '60' }).graphql.schemaCacheTtlSeconds).toBe(60);
    });

    test('a compiled schema is reused within its TTL, rebuilt after it, and never shared between rings', async () => {
      const cache = new SchemaCache({ ttlSeconds: 1, coreOperations: () => tp.platform.kernel.bus.coreOperations(), logger: createLogger('silent') });
      const modules = await tp.platform.kernel.modules.modulesFor(ids.canary2);
      const first = await cache.get('canary', modules);
      expect(await cache.get('canary', modules)).toBe(first);
      const otherRing = await cache.get('stable', modules);
      expect(otherRing).not.toBe(first);
      expect(otherRing.schema).not.toBe(first.schema);
      expect(cache.keys().sort()).toEqual([`graphql:schema:canary:${modules.fingerprint}`, `graphql:schema:stable:${modules.fingerprint}`]);
      expect(cache.remainingTtl(first.key)).toBeLessThanOrEqual(1);
      await new Promise((r) => setTimeout(r, 1_100));
      expect(cache.remainingTtl(first.key)).toBeUndefined();
      const rebuilt = await cache.get('canary', modules);
      expect(rebuilt).not.toBe(first);
      expect(rebuilt.sdl).toBe(first.sdl);
    });

    test('concurrent first requests share one build', async () => {
      const cache = new SchemaCache({ ttlSeconds: 60, coreOperations: () => [], logger: createLogger('silent') });
      const modules = await tp.platform.kernel.modules.modulesFor(ids.acme);
      const built = await Promise.all(Array.from({ length: 5 }, () => cache.get('stable', modules)));
      expect(new Set(built).size).toBe(1);
    });
  });
});
