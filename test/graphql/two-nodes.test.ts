import { eventually } from '../support/eventually';
import type { TestPlatform } from '../support/test-platform';
import { describeWithRedis, startTwoPlatforms, type TwoNodes } from '../support/two-nodes';
import { addFixtureModules, gql, installModule, setGatewaySettings, type Who } from './support';

/** Spec 1, GraphQL rules 1-2 and 9 on two nodes: each caches settings and persisted lookups, and drops them when either node changes them. */
describeWithRedis('spec 1 GraphQL rules 1, 2, 9 across two nodes on one Redis', () => {
  let nodes: TwoNodes<TestPlatform>;
  let a: TestPlatform;
  let b: TestPlatform;
  let owner: Who;
  const QUERY = '{ product(sku: "P-01") { sku } }';

  beforeAll(async () => {
    nodes = await startTwoPlatforms();
    ({ a, b } = nodes);
    const o = await a.install('acme');
    owner = { token: o.token, tenant: 'acme' };
    await addFixtureModules(a, ['shop']);
    await addFixtureModules(b, ['shop']);
    await installModule(a, o.token, 'acme', 'shop');
  }, 120_000);
  afterAll(() => nodes?.close());

  test('a persisted query registered on A runs on B; removed on A, B refuses it as soon as the change reaches it', async () => {
    const { body } = await a.api('/graphql/persisted', { token: owner.token, tenant: 'acme', body: { query: QUERY, name: 'p1' } });
    const byHash = { extensions: { persistedQuery: { version: 1, sha256Hash: body.hash } } };
    expect((await gql(b, owner, undefined, byHash)).body).toEqual({ data: { product: { sku: 'P-01' } } });
    await a.api(`/graphql/persisted/${body.hash}`, { method: 'DELETE', token: owner.token, tenant: 'acme' });
    const after = await eventually(() => gql(b, owner, undefined, byHash), (r) => r.status === 400);
    expect(after.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  test('settings changed on A apply on B as soon as the change reaches it', async () => {
    expect((await gql(b, owner, '{ __schema { queryType { name } } }')).status).toBe(200);
    await setGatewaySettings(a, owner, { graphql: { introspection: false, persisted_queries_only: true } });
    const introspect = () => gql(b, owner, '{ __schema { queryType { name } } }');
    expect((await eventually(introspect, (r) => r.status === 403)).status).toBe(403); // persisted-only is checked first
    await setGatewaySettings(a, owner, { graphql: { persisted_queries_only: false } });
    const refused = await eventually(introspect, (r) => r.status === 400);
    expect(refused.body.errors[0].extensions.code).toBe('GRAPHQL_INTROSPECTION_DISABLED');
  });
});
