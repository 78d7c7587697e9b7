import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { addFixtureModules, gql, installModule, type Who } from './support';

/**
 * Spec 1, Limits: GraphQL depth 7, complexity 1000, aliases 30 (graphql.limits.*), checked before
 * execution; each limit just under (runs) and just over (400, an error naming the limit and value).
 */
const chain = (levels: number, leaf = 'name') => {
  let inner = leaf;
  for (let i = 0; i < levels; i++) inner = `children { ${inner} }`;
  return inner;
};
const nest = (levels: number) => `{ category { ${chain(levels)} } }`;
const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: _gateway { ring }`).join(' ')} }`;

describe('spec 1 Limits: GraphQL depth, complexity and aliases', () => {
  let tp: TestPlatform;
  let owner: Who;
  let tenantId: string;

  const busCallsOf = async (requestId: string) => {
    await tp.platform.kernel.audit.flush();
    const rows = await tp.platform.central.models.AuditEntry.findAll({ where: { tenant_id: tenantId } });
    return rows.filter((r) => (r.details as { request_id?: string } | null)?.request_id === requestId);
  };

  beforeAll(async () => {
    tp = await startTestPlatform();
    const o = await tp.install('acme');
    tenantId = o.tenantId;
    owner = { token: o.token, tenant: 'acme' };
    await addFixtureModules(tp, ['shop']);
    await installModule(tp, o.token, 'acme', 'shop');
  }, 120_000);
  afterAll(() => tp?.close());

  test('depth 7 runs; depth 8 is refused before any bus call, naming the limit and the depth found', async () => {
    const ok = await gql(tp, owner, nest(5)); // category, 5 × children, name
    expect(ok.status).toBe(200);
    expect(ok.body.data.category.children[0].children[0].children[0].children[0].children[0].name).toBe('root/0/0/0/0/0');

    const deep = await gql(tp, owner, nest(6));
    expect(deep.status).toBe(400);
    expect(deep.body).toEqual({
      errors: [
        {
          message: 'Query depth 8 exceeds the limit of 7 (graphql.limits.depth).',
          extensions: { code: 'GRAPHQL_DEPTH_LIMIT', limit: 'graphql.limits.depth', max: 7, value: 8 },
        },
      ],
    });
    expect(await busCallsOf(deep.headers.get('x-request-id')!)).toEqual([]);
  });

  test('fragments count where they are spread', async () => {
    const q = `{ category { ...Deep } } fragment Deep on Category { children { children { children { children { children { children { name } } } } } } }`;
    const res = await gql(tp, owner, q);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'GRAPHQL_DEPTH_LIMIT', value: 8 });
  });

  test('complexity 1000 runs; 1001 is refused; page sizes multiply, from literals or variables', async () => {
    // category: 1 + children(limit: n): 1 + n × name: 1  =  n + 2
    const at = await gql(tp, owner, '{ category { children(limit: 998) { name } } }');
    expect(at.status).toBe(200);
    expect(at.body.data.category.children).toHaveLength(998);

    const over = await gql(tp, owner, 'query Big($n: Int) { category { children(limit: $n) { name } } }', { variables: { n: 999 } });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({
      errors: [
        {
          message: 'Query complexity 1001 exceeds the limit of 1000 (graphql.limits.complexity).',
          extensions: { code: 'GRAPHQL_COMPLEXITY_LIMIT', limit: 'graphql.limits.complexity', max: 1000, value: 1001 },
        },
      ],
    });
  });

  test('30 aliases run; 31 are refused', async () => {
    const ok = await gql(tp, owner, aliases(30));
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.body.data)).toHaveLength(30);
    const over = await gql(tp, owner, aliases(31));
    expect(over.status).toBe(400);
    expect(over.body.errors).toEqual([
      { message: 'The operation uses 31 aliases; the limit is 30 (graphql.limits.aliases).', extensions: { code: 'GRAPHQL_ALIAS_LIMIT', limit: 'graphql.limits.aliases', max: 30, value: 31 } },
    ]);
  });

  test('aliases inside a fragment count each time it is spread', async () => {
    const fields = Array.from({ length: 16 }, (_, i) => `r${i}: ring`).join(' ');
    const q = `{ a: _gateway { ...G } b: _gateway { ...G } } fragment G on GatewayInfo { ${fields} }`;
    const res = await gql(tp, owner, q);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'GRAPHQL_ALIAS_LIMIT', value: 34 });
  });

  test('every broken limit is reported at once', async () => {
    const many = `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: category { ${chain(7)} }`).join(' ')} }`;
    const res = await gql(tp, owner, many);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['GRAPHQL_DEPTH_LIMIT', 'GRAPHQL_ALIAS_LIMIT']);
  });
});

describe('spec 1 Limits: the values are configurable (GRAPHQL_LIMIT_*)', () => {
  let tp: TestPlatform;
  let owner: Who;

  beforeAll(async () => {
    tp = await startTestPlatform({ GRAPHQL_LIMIT_DEPTH: '2', GRAPHQL_LIMIT_ALIASES: '1', GRAPHQL_LIMIT_COMPLEXITY: '3' });
    const o = await tp.install('acme');
    owner = { token: o.token, tenant: 'acme' };
    await addFixtureModules(tp, ['shop']);
    await installModule(tp, o.token, 'acme', 'shop');
  }, 120_000);
  afterAll(() => tp?.close());

  test('the configured values apply and are named in the errors', async () => {
    expect((await gql(tp, owner, '{ x: _gateway { ring } }')).status).toBe(200);
    const messages = async (q: string) => (await gql(tp, owner, q)).body.errors.map((e: { message: string }) => e.message);
    expect(await messages('{ x: _gateway { ring } y: _gateway { ring } }')).toEqual(['The operation uses 2 aliases; the limit is 1 (graphql.limits.aliases).']);
    expect(await messages('{ _gateway { ring fingerprint modules } }')).toEqual(['Query complexity 4 exceeds the limit of 3 (graphql.limits.complexity).']);
    expect(await messages('{ category { children { name } } }')).toEqual(['Query depth 3 exceeds the limit of 2 (graphql.limits.depth).']);
  });
});
