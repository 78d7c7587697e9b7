import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { gql, setGatewaySettings, type Who } from './support';

/**
 * Spec 1, GraphQL rule 9 and the playground row of the gateway table, in production: introspection
 * and the playground are off by default; GRAPHQL_INTROSPECTION=true / GRAPHQL_PLAYGROUND=true turn
 * them on for the environment, and a tenant setting decides for one tenant.
 */
const INTROSPECT = '{ __schema { queryType { name } } }';

describe('spec 1 GraphQL rule 9: production defaults', () => {
  let tp: TestPlatform;
  let owner: Who;

  beforeAll(async () => {
    tp = await startTestPlatform({ NODE_ENV: 'production' });
    const o = await tp.install('acme');
    owner = { token: o.token, tenant: 'acme' };
  }, 120_000);
  afterAll(() => tp?.close());

  test('introspection is off; ordinary operations run', async () => {
    const res = await gql(tp, owner, INTROSPECT);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_INTROSPECTION_DISABLED');
    expect((await gql(tp, owner, '{ _gateway { ring } }')).status).toBe(200);
  });

  test('the playground is disabled, even with the permission', async () => {
    const res = await tp.api('/graphql/playground', { token: owner.token, tenant: 'acme' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'The GraphQL playground is disabled here (GRAPHQL_PLAYGROUND, or the tenant setting graphql.playground).', code: 'PLAYGROUND_DISABLED' });
  });

  test('a tenant turns introspection and the playground on through its settings', async () => {
    const before = await tp.api('/graphql/settings', { token: owner.token, tenant: 'acme' });
    expect(before.body).toEqual({ graphql: { persisted_queries_only: false, introspection: false, playground: false }, audit_mutations: false });
    await setGatewaySettings(tp, owner, { graphql: { introspection: true, playground: true } });
    expect((await gql(tp, owner, INTROSPECT)).body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
    expect((await tp.api('/graphql/playground', { token: owner.token, tenant: 'acme' })).status).toBe(200);
  });
});

describe('spec 1 GraphQL rule 9: GRAPHQL_INTROSPECTION=true in production', () => {
  let tp: TestPlatform;
  let owner: Who;

  beforeAll(async () => {
    tp = await startTestPlatform({ NODE_ENV: 'production', GRAPHQL_INTROSPECTION: 'true', GRAPHQL_PLAYGROUND: 'true' });
    const o = await tp.install('acme');
    owner = { token: o.token, tenant: 'acme' };
  }, 120_000);
  afterAll(() => tp?.close());

  test('introspection and the playground are on for every tenant', async () => {
    expect((await gql(tp, owner, INTROSPECT)).status).toBe(200);
    expect((await tp.api('/graphql/playground', { token: owner.token, tenant: 'acme' })).status).toBe(200);
  });

  test('a tenant may still switch introspection off', async () => {
    await setGatewaySettings(tp, owner, { graphql: { introspection: false } });
    expect((await gql(tp, owner, INTROSPECT)).status).toBe(400);
  });
});
