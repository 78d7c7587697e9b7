/**
 * Spec 1, Server-driven screens (and Limits: section page size max 50, definition cache TTL 300 s):
 * screens registered by the kiosk fixture, served from static files and from provider operations
 * that run in the real sandbox as the requesting user.
 */
import { createHash } from 'node:crypto';
import { loadConfig } from '../../core/config';
import { runWithContext } from '../../core/kernel/context';
import { ScreenDefinitions } from '../../core/services/contributions/screen-definitions';
import { userCalls } from '../../core/services/contributions/user-calls';
import { MemoryCache } from '../../core/kernel/drivers/cache/memory';
import { createLogger } from '../../core/kernel/logger';
import { catalogWorld, inTenant, memberWith, type CatalogWorld, type ShopTenant } from './support';

describe('spec 1 Server-driven screens: /mobile/screens', () => {
  let w: CatalogWorld;
  let viewer: ShopTenant;
  const get = (path: string, who?: ShopTenant) => inTenant(w.tp, who ?? w.stable, path);
  const post = (path: string, body: unknown, who?: ShopTenant) => inTenant(w.tp, who ?? w.stable, path, { body });

  beforeAll(async () => {
    w = await catalogWorld();
    viewer = await memberWith(w.tp, w.stable, 'viewer', ['kiosk.view']);
  }, 240_000);
  afterAll(() => w?.tp.close());

  test('GET /mobile/screens: metadata of every screen; detail, edit and create screens stay out of navigation', async () => {
    const res = await get('/mobile/screens');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { id: 'kiosk.items', module: 'kiosk', title: 'Items', icon: 'box', layout: 'scroll', route: '/kiosk/items', version: 1, navigation: true },
      { id: 'kiosk.detail', module: 'kiosk', title: 'Item', icon: 'box', layout: 'scroll', route: '/kiosk/items/:sku', version: 1, navigation: false },
      { id: 'kiosk.home', module: 'kiosk', title: 'Home', icon: 'home', layout: 'scroll', route: '/kiosk', version: 1, navigation: true },
      { id: 'kiosk.broken', module: 'kiosk', title: 'Broken', icon: null, layout: 'scroll', route: '/kiosk/broken', version: 1, navigation: true },
    ]);
  });

  test('GET /mobile/screens/manifest: version is the MD5 of the screens and their versions', async () => {
    const res = await get('/mobile/screens/manifest');
    expect(res.status).toBe(200);
    const expected = createHash('md5').update(['kiosk.broken@1', 'kiosk.detail@1', 'kiosk.home@1', 'kiosk.items@1'].join('\n')).digest('hex');
    expect(res.body).toEqual({
      version: expected,
      screens: [
        { id: 'kiosk.broken', version: 1 },
        { id: 'kiosk.detail', version: 1 },
        { id: 'kiosk.home', version: 1 },
        { id: 'kiosk.items', version: 1 },
      ],
    });
    expect(res.headers.get('etag')).toBe(`"${expected}"`);
    const empty = await get('/mobile/screens/manifest', w.bare);
    expect(empty.body.screens).toEqual([]);
    expect(empty.body.version).not.toBe(expected);
  });

  test('GET /mobile/screens/{id}: a static definition completed from the registration', async () => {
    const res = await get('/mobile/screens/kiosk.detail');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 'kiosk.detail', version: 1, type: 'screen', title: 'Item', layout: 'scroll', pull_to_refresh: true, cache_ttl: 300 });
    expect(res.body.header).toMatchObject({ title: 'Item', show_back: true, actions: [{ id: 'cancel', action: { type: 'api-call', confirm: { title: 'Cancel' } } }] });
    expect(res.body.sections.map((s: { id: string; type: string }) => `${s.id}:${s.type}`)).toEqual(['summary:detail-fields', 'note:banner', 'rogue:card']);
    const items = (await get('/mobile/screens/kiosk.items')).body;
    expect(items.header).toEqual({ title: 'Items', show_back: false, actions: [] });
  });

  test('the web client\'s path form of the id (`kiosk/items`) names the same screen', async () => {
    const res = await get('/mobile/screens/kiosk/items');
    expect(res.status).toBe(200);
    expect(res.body).toEqual((await get('/mobile/screens/kiosk.items')).body);
    expect((await get('/mobile/screens/kiosk/nope/deeper')).body).toMatchObject({ code: 'SCREEN_NOT_FOUND', details: { screen: 'kiosk.nope.deeper' } });
  });

  test('a provider operation supplies a definition with the tenant context; it is cached for 300 s', async () => {
    const first = await get('/mobile/screens/kiosk.home');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: 'kiosk.home', type: 'screen', version: 1, title: 'Home (stable) #1' });
    // Served from the cache: the operation did not run again.
    expect((await get('/mobile/screens/kiosk.home', viewer)).body.title).toBe('Home (stable) #1');
    expect(loadConfig({}).screenDefinitionTtlSeconds).toBe(300);
    expect(loadConfig({ SCREEN_DEFINITION_CACHE_TTL: '30' }).screenDefinitionTtlSeconds).toBe(30);
  });

  test('a definition is rebuilt once its TTL has passed', async () => {
    // Its own cache: the platform's already holds this definition for 300 s.
    const definitions = new ScreenDefinitions({ cache: new MemoryCache(createLogger('silent')), ttlSeconds: 1, call: userCalls(w.tp.platform.kernel.bus) });
    const tenant = { id: w.stable.id, ring: 'stable' };
    const { catalog } = await w.tp.platform.catalogs.tenants.forTenant(tenant);
    const mod = (await w.tp.platform.kernel.modules.modulesFor(w.stable.id)).byAlias.get('kiosk')!;
    const user = (await w.tp.platform.central.models.User.findOne({ where: { email: 'admin@steady.example' } }))!;
    const asAdmin = <T>(fn: () => Promise<T>) =>
      runWithContext({ tenant: { id: w.stable.id, name: 'steady', status: 'active', ring: 'stable' }, user: { id: user.id, email: user.email, name: user.name, isSuperAdmin: false }, permissions: new Set(['*']) }, fn);
    const a = await asAdmin(() => definitions.get(tenant, catalog.screen('kiosk.home')!, mod));
    const b = await asAdmin(() => definitions.get(tenant, catalog.screen('kiosk.home')!, mod));
    expect(a.title).toBe('Home (stable) #2');
    expect(b.title).toBe(a.title);
    await new Promise((r) => setTimeout(r, 1_100));
    const c = await asAdmin(() => definitions.get(tenant, catalog.screen('kiosk.home')!, mod));
    expect(c.title).toBe('Home (stable) #3');
  });

  test('unknown screens are 404; a definition breaking the section rules is 502 naming each problem; an unknown section type passes to clients', async () => {
    const missing = await get('/mobile/screens/kiosk.nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'SCREEN_NOT_FOUND' });
    expect((await get('/mobile/screens/kiosk.items', w.bare)).status).toBe(404);
    const broken = await get('/mobile/screens/kiosk.broken');
    expect(broken.status).toBe(502);
    expect(broken.body.code).toBe('SCREEN_DEFINITION_INVALID');
    // "carousel" (section 0) is no type the core lists, but clients decide: the web console shows a placeholder for it alone.
    expect(broken.body.details.problems).toEqual(['/sections/1/id must be a non-empty string']);
  });

  describe('GET /mobile/screens/{id}/data/{section}', () => {
    test('a list section: page of items from the data_source operation, with paging meta', async () => {
      const res = await get('/mobile/screens/kiosk.items/data/items?search=Lamp');
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(20);
      expect(res.body.data[0]).toEqual({ sku: 'SKU-1', name: 'Lamp 1' });
      expect(res.body.meta).toEqual({ current_page: 1, per_page: 20, total: 120, last_page: 6, has_more: true });
      const page3 = await get('/mobile/screens/kiosk.items/data/items?page=3&per_page=50');
      expect(page3.body.data[0].sku).toBe('SKU-101');
      expect(page3.body.meta).toEqual({ current_page: 3, per_page: 50, total: 120, last_page: 3, has_more: false });
    });

    test('spec 1 Limits: per_page is at most 50, and the core cuts a longer answer', async () => {
      const capped = await get('/mobile/screens/kiosk.items/data/items?per_page=50');
      expect(capped.body.data).toHaveLength(50); // the operation answered 80
      const over = await get('/mobile/screens/kiosk.items/data/items?per_page=51');
      expect(over.status).toBe(422);
      expect(over.body).toEqual({ message: 'The given data was invalid.', errors: { per_page: ['The per page may not be greater than 50.'] } });
      const bad = await get('/mobile/screens/kiosk.items/data/items?page=0&per_page=x');
      expect(bad.status).toBe(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['page', 'per_page']);
      const provider = await get('/mobile/screens/kiosk.home/data/recent?per_page=50&page=2');
      expect(provider.body.data).toHaveLength(50);
      expect(provider.body.data[0]).toEqual({ n: 51 });
      expect(provider.body.meta).toMatchObject({ current_page: 2, per_page: 50, total: null, has_more: true });
    });

    test('an object section answers {data: object}; module-specific query keys reach the operation', async () => {
      const res = await get('/mobile/screens/kiosk.detail/data/summary?sku=SKU-7');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { sku: 'SKU-7', name: 'Item SKU-7', version: '1.0.0' } });
      const stats = await get('/mobile/screens/kiosk.home/data/stats');
      expect(stats.body.data).toEqual([{ label: 'Version', value: '1.0.0' }, { label: 'Tenant', value: w.stable.id }]);
    });

    test('calls run as the user: the operation\'s permission, input schema and the module\'s consumes apply', async () => {
      const noPerm = await memberWith(w.tp, w.stable, 'nobody', []);
      const refused = await get('/mobile/screens/kiosk.detail/data/summary?sku=SKU-7', noPerm);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'FORBIDDEN', details: { permission: 'kiosk.view' } });
      const invalid = await get('/mobile/screens/kiosk.detail/data/summary');
      expect(invalid.status).toBe(422);
      expect(invalid.body.errors).toEqual({ sku: ['The sku field is required.'] });
      const rogue = await get('/mobile/screens/kiosk.detail/data/rogue?sku=A');
      expect(rogue.status).toBe(502);
      expect(rogue.body.details.problems[0]).toContain('"stock.get_item" is neither an operation of kiosk nor in its api.consumes');
    });

    test('unknown sections and sections without data are 404', async () => {
      expect((await get('/mobile/screens/kiosk.items/data/nope')).body.code).toBe('SECTION_NOT_FOUND');
      const note = await get('/mobile/screens/kiosk.detail/data/note');
      expect(note.status).toBe(404);
      expect(note.body.code).toBe('SECTION_HAS_NO_DATA');
    });
  });

  describe('POST /mobile/screens/{id}/action/{action}', () => {
    test('a static action runs its operation as the user with params from the body', async () => {
      const res = await post('/mobile/screens/kiosk.detail/action/cancel', { sku: 'SKU-3' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ cancelled: 'SKU-3', version: '1.0.0', by: expect.any(Number) });
      const refused = await post('/mobile/screens/kiosk.detail/action/cancel', { sku: 'SKU-3' }, viewer);
      expect(refused.status).toBe(403);
    });

    test('a provider action operation receives {action_id, body, context}', async () => {
      const res = await post('/mobile/screens/kiosk.home/action/refresh-all', { force: true });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ action: 'refresh-all', body: { force: true }, version: '1.0.0' });
    });

    test('unknown actions are 404, a body that is not an object 422, no token 401', async () => {
      const missing = await post('/mobile/screens/kiosk.detail/action/explode', {});
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('ACTION_NOT_FOUND');
      const arr = await post('/mobile/screens/kiosk.detail/action/cancel', [1]);
      expect(arr.status).toBe(422);
      expect(arr.body.errors).toEqual({ body: ['The body must be a JSON object.'] });
      expect((await w.tp.api('/mobile/screens', { tenant: w.stable.alias })).status).toBe(401);
    });
  });
});
