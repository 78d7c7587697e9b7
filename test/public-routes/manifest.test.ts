/**
 * Spec 2 (public webhook trigger, public widget endpoints) as module authors declare them: the
 * manifest section http.public and the refusals that say what to fix: a prefix the platform uses, a
 * route without its token parameter, what needs a user, and a prefix another module owns (in the
 * tenant, and on the whole platform).
 */
import { validateManifest } from '../../sdk/manifest';
import { declaredManifest } from '../../sdk/build/declared-manifest';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { promote, promoteOk, publish, publishOk } from '../rings/support';
import { addFixture, fixture } from './support';

const base = {
  name: 'hooks',
  version: '1.0.0',
  compatibility: { platform: '^2.0.0' },
  main: 'dist/index.js',
  api: { provides: [{ name: 'hooks.receive', description: 'Receives a webhook.', graphql_expose: false, input: { type: 'object' } }] },
};
const withPublic = (pub: unknown, extra: Record<string, unknown> = {}) => ({ ...base, ...extra, http: { public: pub } });
const route = { method: 'POST', path: '/:token', token: 'token', operation: 'hooks.receive' };
const errorsOf = (doc: unknown) => {
  const result = validateManifest(doc);
  return result.ok ? [] : result.errors.map((e) => `${e.pointer}: ${e.message}`);
};

describe('spec 2: http.public in module.json', () => {
  test('a prefix of several segments with token routes is valid', () => {
    expect(errorsOf(withPublic({ prefix: 'hooks/incoming', routes: [{ ...route, rate_limit: '120/60' }] }))).toEqual([]);
  });

  test('a prefix the platform uses is refused: v1 and its areas', () => {
    expect(errorsOf(withPublic({ prefix: 'v1', routes: [route] }))).toEqual(["/http/public/prefix: /api/v1 is the platform's own API; choose a prefix of the module's own, e.g. its alias"]);
    expect(errorsOf(withPublic({ prefix: 'auth/hooks', routes: [route] }))).toEqual([
      "/http/public/prefix: \"auth\" is an area of the platform's own routes; choose a prefix of the module's own, e.g. its alias",
    ]);
    // The platform's own public area outside /api/v1 (spec 2: /api/webhooks/workflows/{token}), as a prefix and as a route.
    expect(errorsOf(withPublic({ prefix: 'webhooks/workflows', routes: [route] }))).toEqual([
      "/http/public/prefix: \"webhooks\" is an area of the platform's own routes; choose a prefix of the module's own, e.g. its alias",
    ]);
    expect(errorsOf({ ...base, http: { routes: [{ method: 'GET', path: '/webhooks/workflows/:id', operation: 'hooks.receive', permission: 'hooks.manage' }] }, permissions: [{ name: 'hooks.manage', description: 'x' }] })).toEqual([
      "/http/routes/0/path: /webhooks belongs to the platform's own routes; choose a path of the module's own",
    ]);
    expect(errorsOf(withPublic({ prefix: '/widget/', routes: [route] }))[0]).toMatch(/^\/http\/public\/prefix: must be one to four lowercase path segments/);
  });

  test('a route without a token parameter is refused, saying which parameter to name', () => {
    const { token: _token, ...noToken } = route;
    expect(errorsOf(withPublic({ prefix: 'hooks', routes: [{ ...noToken, path: '/incoming' }] }))).toEqual([
      '/http/public/routes/0/token: name the path parameter that holds the token the tenant is resolved from, e.g. "token" with the path "/:token/incoming"',
    ]);
    expect(errorsOf(withPublic({ prefix: 'hooks', routes: [{ ...route, token: 'key' }] }))).toEqual(['/http/public/routes/0/token: "key" is not a parameter of the path /:token; add :key to it']);
  });

  test('what needs a user or fills a disk is refused on public routes; token and cors only belong there', () => {
    expect(
      errorsOf(withPublic({ prefix: 'hooks', routes: [{ ...route, permission: 'hooks.manage', upload: { field: 'file', max_bytes: 10 }, cors: { operation: 'hooks.allow' } }] }, { permissions: [{ name: 'hooks.manage', description: 'x' }] })),
    ).toEqual([
      '/http/public/routes/0/cors/operation: "hooks.allow" is not in api.provides; a public route calls one of the module\'s own operations',
      '/http/public/routes/0/permission: a public route has no user to hold a permission; remove it',
      '/http/public/routes/0/upload: a public route cannot take uploads (anyone could fill the disk); use an authenticated route under http.routes',
    ]);
    expect(errorsOf({ ...base, http: { routes: [{ method: 'POST', path: '/hooks/:token', operation: 'hooks.receive', token: 'token', public: true }] } })).toEqual([
      '/http/routes/0/token: "token" applies to routes under http.public (served outside /api/v1, the tenant taken from a token); move the route there or remove it',
    ]);
  });

  test('the TypeScript declaration gives the same section: public_prefix and each operation\'s public_http', () => {
    const manifest = declaredManifest({
      ...base,
      api: undefined,
      public_prefix: 'hooks/incoming',
      operations: { receive: { description: 'Receives a webhook.', graphql_expose: false, input: { type: 'object' }, output: { type: 'object' }, public_http: { method: 'POST', path: '/:token', token: 'token' }, handler: () => ({}) } },
    }) as { http: unknown };
    expect(manifest.http).toEqual({ public: { prefix: 'hooks/incoming', routes: [{ method: 'POST', path: '/:token', token: 'token', operation: 'hooks.receive' }] } });
    expect(errorsOf(manifest)).toEqual([]);
  });
});

describe('spec 2: one installed module owns a public prefix', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  beforeAll(async () => {
    tp = await startTestPlatform();
    owner = await tp.install('acme');
    await addFixture(tp, fixture('widgetry'));
    await addFixture(tp, fixture('widget-clone'));
  }, 120_000);
  afterAll(() => tp.close());

  test('installing a module whose prefix lies inside another installed module\'s is refused with what to do', async () => {
    expect((await tp.api('/modules/widgetry/install', { token: owner.token, tenant: 'acme', body: {} })).status).toBe(201);
    const res = await tp.api('/modules/widget_clone/install', { token: owner.token, tenant: 'acme', body: {} });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'module widget_clone@1.0.0 serves public routes under /api/widget/v2, which overlaps /api/widget of module widgetry@1.0.0: only one installed module may own a public prefix; choose another prefix',
    );
  });
});

describe('DESIGN wave 3: a public prefix has one owner on the whole platform, recorded at its first publish', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  beforeAll(async () => {
    tp = await startTestPlatform();
    owner = await tp.install('acme');
    await publishOk(tp, owner.token, fixture('widgetry'));
  }, 120_000);
  afterAll(() => tp.close());

  test('publishing a module whose prefix overlaps one another module owns is refused, in no ring yet, naming the owner', async () => {
    const refused = await publish(tp, owner.token, fixture('widget-clone'));
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      code: 'PUBLIC_PREFIX_TAKEN',
      message: 'Module widget_clone cannot serve public routes under /api/widget/v2: /api/widget belongs to module widgetry on this platform (a public prefix has one owner across every ring and tenant); choose another prefix.',
      details: { prefix: 'widget/v2', owner: 'widgetry', owned_prefix: 'widget' },
    });
  });

  test('the owner is promoted as before and keeps its prefix', async () => {
    await promoteOk(tp, owner.token, 'stable', 'widgetry', '1.0.0');
    expect(await tp.platform.kernel.modules.prefixes.owns('widgetry', 'widget')).toBe(true);
  });
});

describe('DESIGN wave 3: promotion claims the prefix of a package published before prefixes had owners', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  beforeAll(async () => {
    tp = await startTestPlatform();
    owner = await tp.install('acme');
    // Both published as they were before migration 0036: widgetry's claim is dropped, so widget_clone's publish passes.
    await publishOk(tp, owner.token, fixture('widgetry'));
    await tp.platform.central.sequelize.query('DELETE FROM public_prefix_owners');
    await publishOk(tp, owner.token, fixture('widget-clone'));
  }, 120_000);
  afterAll(() => tp.close());

  test('promoting it into a ring with no tenant is refused when another module owns an overlapping prefix', async () => {
    const refused = await promote(tp, owner.token, 'canary', 'widgetry', '1.0.0');
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('PROMOTION_REFUSED');
    expect(refused.body.details.reasons).toEqual([
      {
        kind: 'routes',
        message: 'Module widgetry cannot serve public routes under /api/widget: /api/widget/v2 belongs to module widget_clone on this platform (a public prefix has one owner across every ring and tenant); choose another prefix.',
      },
    ]);
    await promoteOk(tp, owner.token, 'canary', 'widget_clone', '1.0.0');
  });
});
