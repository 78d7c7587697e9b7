/**
 * Spec 2, Node registry: the registry a tenant sees is assembled from the manifests its ring releases
 * and it has installed (kiosk@1.0.0 in stable here), over real HTTP with real sandboxes.
 */
import { catalogWorld, inTenant, memberWith, type CatalogWorld } from './support';

describe('spec 2 Node registry: /workflow-nodes', () => {
  let w: CatalogWorld;
  const get = (path: string) => inTenant(w.tp, w.stable, path);
  const post = (path: string, body: unknown) => inTenant(w.tp, w.stable, path, { body });

  beforeAll(async () => {
    w = await catalogWorld();
  }, 240_000);
  afterAll(() => w?.tp.close());

  test('GET /workflow-nodes lists registry entries with every spec field', async () => {
    const res = await get('/workflow-nodes');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.map((n: { identifier: string }) => n.identifier)).toEqual(['kiosk:item-added', 'kiosk:get-item', 'kiosk:in-stock', 'kiosk:count']);
    expect(res.body.data[1]).toEqual({
      identifier: 'kiosk:get-item',
      name: 'Get item',
      category: 'action',
      description: 'Loads an item.',
      icon: 'box',
      color: '#0ea5e9',
      module: 'kiosk',
      inputs: [{ name: 'input', label: 'Item', type: 'object', required: true }],
      outputs: [{ name: 'output', label: 'Output', type: 'object' }],
      configSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['sku'],
        properties: { sku: { type: 'string', minLength: 2 }, notify: { type: 'string', format: 'email' }, limit: { type: 'integer', minimum: 1 } },
      },
      defaultConfig: { sku: 'SKU-1' },
      operation: 'kiosk.get_item',
      event: null,
      effects: 'external',
    });
  });

  test('ports default by category: a trigger takes no input, a condition branches true/false', async () => {
    const trigger = (await get('/workflow-nodes/kiosk:item-added')).body.data;
    expect(trigger).toMatchObject({ inputs: [], outputs: [{ name: 'output', type: 'any' }], event: 'kiosk.item_added', operation: null, configSchema: { type: 'object', properties: {}, required: [] }, defaultConfig: {} });
    const condition = (await get('/workflow-nodes/kiosk:in-stock')).body.data;
    // No icon or colour in its manifest entry: the condition category's (spec 2: color is hex).
    expect(condition).toMatchObject({ icon: 'git-branch', color: '#f59e0b' });
    expect(condition.inputs).toEqual([{ name: 'input', label: 'Input', type: 'any', required: true }]);
    expect(condition.outputs.map((o: { name: string }) => o.name)).toEqual(['true', 'false']);
  });

  test('GET /workflow-nodes/grouped: every category in order with its nodes', async () => {
    const res = await get('/workflow-nodes/grouped');
    expect(res.status).toBe(200);
    expect(res.body.data.map((g: { category: string; nodes: Array<{ identifier: string }> }) => [g.category, g.nodes.map((n) => n.identifier)])).toEqual([
      ['trigger', ['kiosk:item-added']],
      ['action', ['kiosk:get-item']],
      ['condition', ['kiosk:in-stock']],
      ['transformer', ['kiosk:count']],
    ]);
    expect(res.body.data[0]).toMatchObject({ label: 'Triggers', icon: expect.any(String), color: expect.stringMatching(/^#[0-9a-f]{6}$/), description: expect.any(String) });
  });

  test('GET /workflow-nodes/categories: a map of category to {label, icon, color, description}', async () => {
    const res = await get('/workflow-nodes/categories');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(['trigger', 'action', 'condition', 'transformer']);
    for (const c of Object.values(res.body.data)) expect(Object.keys(c as object).sort()).toEqual(['color', 'description', 'icon', 'label']);
  });

  test('an unknown identifier is 404 in the workflows error shape', async () => {
    const res = await get('/workflow-nodes/kiosk:nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: 'Node not found', code: 'NODE_NOT_FOUND' });
    expect((await post('/workflow-nodes/kiosk:nope/validate', { config: {} })).status).toBe(404);
  });

  describe('POST /workflow-nodes/{identifier}/validate', () => {
    const validate = (config: unknown) => post('/workflow-nodes/kiosk:get-item/validate', { config });

    test('a config that satisfies the schema is valid', async () => {
      const res = await validate({ sku: 'SKU-9', notify: 'ops@example.com', limit: 3 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, valid: true, errors: [] });
    });

    test('a missing required key, a wrong type and an unknown key are each named', async () => {
      const res = await validate({ limit: 'many', colour: 'red' });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.valid).toBe(false);
      expect(res.body.errors).toEqual(expect.arrayContaining(['Missing required config key "sku".', 'Unknown config key "colour".', 'Config key "limit" must be integer.']));
      expect(res.body.errors).toHaveLength(3);
    });

    test('placeholders stand in for values of any type or format until run time', async () => {
      const res = await validate({ sku: '{{order.sku}}', notify: '{{customer.email}}', limit: '{{ settings.limit }}' });
      expect(res.body).toEqual({ success: true, valid: true, errors: [] });
      const text = await validate({ sku: 'SKU-1', notify: 'not an email' });
      expect(text.body.errors).toEqual(['Config key "notify" must match format "email".']);
    });

    test('a body without an object config is 422 "Validation failed"', async () => {
      for (const body of [{}, { config: 'sku=1' }, { config: [] }]) {
        const res = await post('/workflow-nodes/kiosk:get-item/validate', body);
        expect(res.status).toBe(422);
        expect(res.body).toEqual({ success: false, message: 'Validation failed', errors: { config: ['The config field is required and must be an object.'] } });
      }
    });
  });

  describe('POST /workflow-nodes/can-connect', () => {
    const connect = (source: unknown, target: unknown) => post('/workflow-nodes/can-connect', { source, target });

    test('output into a compatible input: true', async () => {
      expect((await connect('kiosk:item-added', 'kiosk:get-item')).body).toEqual({ success: true, can_connect: true });
      expect((await connect('kiosk:get-item', 'kiosk:in-stock')).body).toEqual({ success: true, can_connect: true });
    });

    test('nothing connects into a trigger, and types must fit', async () => {
      const intoTrigger = await connect('kiosk:get-item', 'kiosk:item-added');
      expect(intoTrigger.status).toBe(200);
      expect(intoTrigger.body).toMatchObject({ success: true, can_connect: false });
      expect(intoTrigger.body.reason).toContain('trigger');
      const types = await connect('kiosk:get-item', 'kiosk:count');
      expect(types.body).toMatchObject({ success: true, can_connect: false, reason: 'kiosk:get-item outputs object; kiosk:count takes number.' });
    });

    test('missing or unknown identifiers are 422 naming the field', async () => {
      const res = await connect('kiosk:nope', undefined);
      expect(res.status).toBe(422);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toBe('Validation failed');
      expect(Object.keys(res.body.errors).sort()).toEqual(['source', 'target']);
      expect(res.body.errors.source[0]).toContain('not in this tenant');
    });

    test('spec 2 Errors: malformed JSON is 400 "Invalid request" in the workflows shape, on every node path; a wrong method is 405 in it too', async () => {
      for (const path of ['/workflow-nodes/can-connect', '/workflow-nodes/kiosk:get-item/validate']) {
        const res = await w.tp.api(path, { token: w.stable.token, tenant: w.stable.alias, rawBody: '{"source":' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ success: false, message: 'Invalid request', code: 'MALFORMED_JSON', errors: { request: ['The request body is not valid JSON.'] } });
      }
      const wrong = await w.tp.api('/workflow-nodes/kiosk:get-item', { method: 'DELETE', token: w.stable.token, tenant: w.stable.alias });
      expect(wrong.status).toBe(405);
      expect(wrong.body).toMatchObject({ success: false, code: 'METHOD_NOT_ALLOWED' });
    });
  });

  test('a tenant that has not installed the module sees an empty registry, though its ring releases it', async () => {
    const res = await inTenant(w.tp, w.bare, '/workflow-nodes');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect((await inTenant(w.tp, w.bare, '/workflow-nodes/grouped')).body.data.every((g: { nodes: unknown[] }) => g.nodes.length === 0)).toBe(true);
  });

  test('authentication is required (401 in the workflows shape)', async () => {
    const res = await w.tp.api('/workflow-nodes', { tenant: w.stable.alias });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, message: 'Unauthenticated', code: 'UNAUTHENTICATED' });
    const badToken = await w.tp.api('/workflow-nodes', { tenant: w.stable.alias, token: 'not-a-token' });
    expect(badToken.status).toBe(401);
    expect(badToken.body).toMatchObject({ success: false, message: 'Unauthenticated', errors: { request: [expect.any(String)] } });
  });

  test('spec 2 Limits: 60 requests per minute per user, with the X-RateLimit headers', async () => {
    const member = await memberWith(w.tp, w.stable, 'builder', []);
    let last = await inTenant(w.tp, member, '/workflow-nodes/categories');
    expect(last.headers.get('x-ratelimit-limit')).toBe('60');
    expect(last.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(Number(last.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    for (let i = 0; i < 59; i++) last = await inTenant(w.tp, member, '/workflow-nodes/categories');
    expect(last.status).toBe(200);
    const refused = await inTenant(w.tp, member, '/workflow-nodes');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    // Another user of the tenant keeps their own allowance.
    expect((await get('/workflow-nodes/categories')).status).toBe(200);
  });
});
