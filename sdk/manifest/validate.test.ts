import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ManifestError, type ManifestIssue } from './issues';
import type { Manifest } from './manifest.types';
import { loadManifest, validateManifest } from './validate';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- manifests of any shape, valid or not
const base = (): Record<string, any> => ({
  name: 'orders',
  version: '1.2.0',
  compatibility: { platform: '^2.0.0' },
  api: {
    provides: [
      { name: 'orders.get', description: 'One order', permission: 'orders.view', input: { type: 'object', properties: { id: { type: 'integer' } } } },
      { name: 'orders.create', description: 'New order', permission: 'orders.create' },
    ],
    consumes: ['customers.get', 'payments.*'],
  },
  permissions: [
    { name: 'orders.view', description: 'See orders' },
    { name: 'orders.create', description: 'Create orders' },
  ],
  http: { routes: [{ method: 'GET', path: '/orders/:id', operation: 'orders.get' }] },
});

function errorsOf(value: unknown): ManifestIssue[] {
  const result = validateManifest(value);
  if (result.ok) throw new Error('expected the manifest to be refused');
  return result.errors;
}

const pointers = (value: unknown) => errorsOf(value).map((e) => e.pointer);

describe('DESIGN Manifest: a valid manifest', () => {
  it('is accepted, with schema defaults filled into a copy', () => {
    const input = base();
    const result = validateManifest(input);
    expect(result.ok).toBe(true);
    const manifest = (result as { manifest: Manifest }).manifest;
    expect(manifest.main).toBe('dist/index.js');
    // memory_mb has no default: undeclared, it is the sandbox default bounded by the platform's cap.
    expect(manifest.limits).toEqual({ timeout_ms: 5000 });
    expect(manifest.api?.provides?.[0]).toMatchObject({ graphql_expose: true, public: false });
    expect(manifest.http?.routes?.[0].error_shape).toBe('platform');
    expect(input.main).toBeUndefined();
  });

  it('accepts every section of the manifest together', () => {
    const m = base();
    Object.assign(m, {
      $schema: '../sdk/manifest/manifest.schema.json',
      description: 'Orders',
      dependencies: { customers: '^1.0.0' },
      events: { publishes: ['orders.created'], subscribes: ['payments.captured'] },
      graphql: { schema: 'graphql/schema.graphql', resolvers: 'graphql/resolvers.json', auto_resolve: false },
      mobile: {
        screens: [{ id: 'orders.list', title: 'Orders', icon: 'box', layout: 'scroll', route: '/orders/list', version: 3 }],
        screenProviders: { 'orders.list': { file: 'screens/list.json', data: 'orders.get' } },
      },
      workflow: {
        nodes: [
          { type: 'orders:created', name: 'Order created', category: 'trigger', description: 'Fires', event: 'orders.created' },
          {
            type: 'orders:create',
            name: 'Create order',
            category: 'action',
            description: 'Creates',
            operation: 'orders.create',
            color: '#22c55e',
            configSchema: { type: 'object', properties: { total: { type: 'string' } }, required: ['total'] },
            defaultConfig: { total: '0.00' },
            inputs: [{ name: 'input', label: 'Input', type: 'any', required: true }],
            outputs: [{ name: 'output', type: 'object' }],
          },
          { type: 'orders:customer', name: 'Customer', category: 'action', description: 'Fetch', operation: 'customers.get' },
        ],
      },
      data: {
        models: {
          Order: {
            table: 'orders',
            columns: {
              id: { type: 'bigint', primaryKey: true, autoIncrement: true },
              number: { type: 'string', length: 32, unique: true },
              total: { type: 'decimal', precision: 12, scale: 2, default: '0.00' },
              placed_at: { type: 'datetime', default: { $fn: 'now' } },
              meta: { type: 'json', nullable: true, default: { a: 1 } },
            },
            indexes: [{ name: 'orders_placed_at', fields: ['placed_at'] }, { fields: ['number'], unique: true }],
          },
        },
        migrations: [{ id: '001_init', up: 'migrations/001_init.up.sql', down: 'migrations/001_init.down.sql' }],
      },
      limits: { memory_mb: 64, timeout_ms: 1000 },
    });
    expect(validateManifest(m)).toMatchObject({ ok: true });
  });
});

describe('DESIGN Manifest: every error is listed by JSON pointer', () => {
  it('reports all structural problems of one document at once', () => {
    const m = base();
    m.name = 'Orders!';
    m.version = '1.2';
    m.compatibility = { platform: 'banana' };
    m.mian = 'dist/x.js';
    m.dependencies = { Bad: '^1.0.0', customers: 'soon' };
    m.api.provides.push({ name: 'orders.list', permission: 'orders.view' });
    m.http.routes.push({ method: 'get', path: '/orders/:id/', operation: 'orders.get' });
    m.limits = { memory_mb: 4 };
    const errors = errorsOf(m);
    const at = (pointer: string) => errors.filter((e) => e.pointer === pointer).map((e) => e.message);
    expect(at('/name')[0]).toMatch(/lowercase alias/);
    expect(at('/version')).toEqual(['must be a SemVer version such as "1.0.0"']);
    expect(at('/compatibility/platform')).toEqual(['must be a SemVer range such as "^2.0.0"']);
    expect(at('/mian')).toEqual(['is not a known property (did you mean "main"?)']);
    expect(at('/dependencies/Bad')).toEqual(['key must be a module alias']);
    expect(at('/dependencies/customers')).toEqual(['must be a SemVer range such as "^2.0.0"']);
    expect(at('/api/provides/2/description')).toEqual(['is required']);
    expect(at('/http/routes/1/method')[0]).toMatch(/^must be one of "GET", "POST"/);
    expect(at('/http/routes/1/path')[0]).toMatch(/express-style path/);
    expect(at('/limits/memory_mb')).toEqual(['must be >= 8']);
    expect(errors).toHaveLength(10);
  });

  it('points at missing required fields themselves', () => {
    expect(pointers({ name: 'orders' })).toEqual(['/compatibility', '/version']);
    expect(pointers({ ...base(), compatibility: {} })).toEqual(['/compatibility/platform']);
  });

  it('refuses what is not an object or not JSON data', () => {
    expect(errorsOf('module')).toEqual([{ pointer: '', message: 'must be object' }]);
    expect(errorsOf({ ...base(), fn: () => 1 })).toEqual([{ pointer: '', message: 'must be plain JSON data' }]);
  });

  it('escapes "/" and "~" in keys of the pointer (RFC 6901)', () => {
    const m = base();
    m.data = { models: { 'a/b~c': { columns: { id: { type: 'integer' } } } } };
    expect(pointers(m)).toEqual(['/data/models/a~1b~0c']);
  });

  it('requires graphql resolvers with a schema file, under graphql/ (spec 1 GraphQL rule 5a)', () => {
    expect(errorsOf({ ...base(), graphql: { schema: 'schema.graphql' } })).toEqual([
      { pointer: '/graphql/resolvers', message: 'is required when "schema" is set' },
      { pointer: '/graphql/schema', message: 'must be a file under graphql/' },
    ]);
  });

  it('refuses paths that leave the module folder', () => {
    for (const main of ['/etc/passwd.js', '../x.js', 'dist/../../x.js', './dist/x.js']) {
      expect(pointers({ ...base(), main })).toEqual(['/main']);
    }
  });

  it('requires an operation on every workflow node but triggers (spec 2 Node registry)', () => {
    const m = base();
    m.workflow = { nodes: [{ type: 'orders:x', name: 'X', category: 'action', description: 'd' }] };
    expect(errorsOf(m)).toEqual([{ pointer: '/workflow/nodes/0/operation', message: 'is required' }]);
  });

  it('checks embedded JSON schemas and node default configs', () => {
    const m = base();
    m.api.provides[0].input = { type: 'objekt' };
    m.workflow = {
      nodes: [
        {
          type: 'orders:x',
          name: 'X',
          category: 'transformer',
          description: 'd',
          operation: 'orders.get',
          configSchema: { type: 'object', properties: { n: { type: 'number' } } },
          defaultConfig: { n: 'one' },
        },
      ],
    };
    const errors = errorsOf(m);
    expect(errors.map((e) => e.pointer)).toEqual(['/api/provides/0/input/type', '/workflow/nodes/0/defaultConfig/n']);
    expect(errors[0].message).toMatch(/^is not a valid JSON schema: must be one of "array", "boolean"/);
    expect(errors[1].message).toBe('does not satisfy configSchema: must be number');
  });
});

describe('issue 3 item 1: operation names are <own alias>.<method>', () => {
  it('refuses an operation named after another module', () => {
    const m = base();
    m.api.provides.push({ name: 'customers.get', description: 'x', graphql_expose: false });
    expect(errorsOf(m)).toEqual([
      { pointer: '/api/provides/2/name', message: 'must be named "orders.<method>": operations carry the module\'s own alias' },
    ]);
  });

  it('refuses names that are not <module>.<method>', () => {
    const m = base();
    m.api.provides.push({ name: 'get', description: 'x', graphql_expose: false }, { name: 'orders.get.one', description: 'x', graphql_expose: false });
    expect(pointers(m)).toEqual(['/api/provides/2/name', '/api/provides/3/name']);
  });

  it('refuses duplicate operation names', () => {
    const m = base();
    m.api.provides.push({ name: 'orders.get', description: 'again', permission: 'orders.view' });
    expect(errorsOf(m)).toEqual([
      { pointer: '/api/provides/2/name', message: 'duplicates /api/provides/0/name ("orders.get"); each operation is provided once' },
    ]);
  });

  it('refuses method names that every object already has', () => {
    const m = base();
    m.api.provides.push({ name: 'orders.constructor', description: 'x' });
    expect(errorsOf(m)[0].message).toMatch(/"constructor" is reserved/);
  });

  it('refuses an alias the platform\'s own operations use (secrets.get, jobs.enqueue, ...)', () => {
    for (const alias of ['secrets', 'jobs', 'tenants', 'platform']) {
      const m = JSON.parse(JSON.stringify(base()).replaceAll('"orders', `"${alias}`));
      expect(errorsOf(m)).toContainEqual({ pointer: '/name', message: expect.stringMatching(new RegExp(`^"${alias}" is reserved: the platform's own operations are named`)) });
    }
  });

  it('refuses an alias a handler sees as ctx.caller for calls from no module (http, graphql, workflow, core)', () => {
    for (const alias of ['http', 'graphql', 'workflow', 'core']) {
      const m = JSON.parse(JSON.stringify(base()).replaceAll('"orders', `"${alias}`));
      expect(errorsOf(m)).toContainEqual({ pointer: '/name', message: `"${alias}" is reserved: handlers see it as ctx.caller for calls that come from no module; choose another alias` });
    }
  });

  it('requires route operations to be provided, and routes to be distinct', () => {
    const m = base();
    m.http.routes.push(
      { method: 'POST', path: '/orders', operation: 'orders.cancel' },
      { method: 'GET', path: '/orders/:orderId', operation: 'orders.get' },
      { method: 'GET', path: '/orders/:id/lines/:id', operation: 'orders.get' },
    );
    expect(errorsOf(m)).toEqual([
      { pointer: '/http/routes/1/operation', message: '"orders.cancel" is not in api.provides; a route dispatches to one of the module\'s own operations' },
      { pointer: '/http/routes/2/path', message: 'GET /orders/:orderId matches the same requests as /http/routes/0' },
      { pointer: '/http/routes/3/path', message: 'uses the parameter :id twice' },
    ]);
  });

  it('refuses routes under the platform\'s own paths, or starting with a parameter that would match them (DESIGN Modules: routes under /api/v1)', () => {
    const m = base();
    m.http.routes.push(
      { method: 'DELETE', path: '/auth/sessions', operation: 'orders.get' },
      { method: 'GET', path: '/Members/export', operation: 'orders.get' },
      { method: 'POST', path: '/:area/login', operation: 'orders.get' },
      { method: 'GET', path: '/orders-export/members', operation: 'orders.get' },
    );
    expect(errorsOf(m)).toEqual([
      { pointer: '/http/routes/1/path', message: "/auth belongs to the platform's own routes; choose a path of the module's own" },
      { pointer: '/http/routes/2/path', message: "/Members belongs to the platform's own routes; choose a path of the module's own" },
      { pointer: '/http/routes/3/path', message: "must start with a fixed word, not the parameter :area: it would also match the platform's routes and every other module's" },
    ]);
  });

  it('shares /ai with the module named ai only: spec 2\'s /ai endpoints are a module\'s, GET /ai/agent/tools stays the platform\'s', () => {
    const m = base();
    m.http.routes.push({ method: 'POST', path: '/ai/translate', operation: 'orders.get' });
    expect(errorsOf(m)).toEqual([{ pointer: '/http/routes/1/path', message: "/ai belongs to the platform's own routes; choose a path of the module's own" }]);
    const ai = {
      name: 'ai',
      version: '1.0.0',
      compatibility: { platform: '^2.0.0' },
      api: { provides: [{ name: 'ai.translate', description: 'd', permission: 'ai.view', input: { type: 'object' }, output: { type: 'object' } }] },
      permissions: [{ name: 'ai.view', description: 'd' }],
      http: { routes: [{ method: 'POST', path: '/ai/translate', operation: 'ai.translate' }, { method: 'GET', path: '/auth/x', operation: 'ai.translate' }] },
    };
    expect(errorsOf(ai)).toEqual([{ pointer: '/http/routes/1/path', message: "/auth belongs to the platform's own routes; choose a path of the module's own" }]);
  });

  it('checks bulk file routes (issue 9): uploads take a body and a user, a route takes or gives a file, pages come from own operations', () => {
    const m = base();
    const upload = { field: 'file', max_bytes: 1000, accept: ['text/csv'] };
    m.http.routes.push(
      { method: 'POST', path: '/orders/import', operation: 'orders.create', upload, success_status: 202 },
      { method: 'POST', path: '/orders/export', operation: 'orders.get', stream: { format: 'csv', timeout_s: 300, concurrency: 2 } },
    );
    expect(validateManifest(m).ok).toBe(true);
    m.http.routes.push(
      { method: 'GET', path: '/orders/a', operation: 'orders.get', upload },
      { method: 'POST', path: '/orders/b', operation: 'orders.get', public: true, upload },
      { method: 'POST', path: '/orders/c', operation: 'orders.get', upload, stream: { format: 'csv' } },
      { method: 'POST', path: '/orders/d', operation: 'orders.get', stream: { format: 'csv', page_operation: 'orders.page' } },
      { method: 'POST', path: '/orders/e', operation: 'orders.get', stream: { format: 'xlsx' } },
    );
    expect(pointers(m)).toEqual(['/http/routes/3/upload', '/http/routes/4/upload', '/http/routes/5/stream', '/http/routes/6/stream/page_operation', '/http/routes/7/stream/format']);
  });

  it('applies the own-alias rule to events, screens and workflow nodes', () => {
    const m = base();
    m.events = { publishes: ['payments.captured'] };
    m.mobile = { screens: [{ id: 'products.list', title: 'P', route: '/p', version: 1 }] };
    m.workflow = { nodes: [{ type: 'workflows:x', name: 'X', category: 'trigger', description: 'd' }] };
    expect(pointers(m)).toEqual(['/events/publishes/0', '/mobile/screens/0/id', '/workflow/nodes/0/type']);
  });

  it('lets events.namespace name the prefix of published events (spec 3 Events: order.created)', () => {
    const m = base();
    m.events = { namespace: 'order', publishes: ['order.created', 'orders.internal', 'payment.captured'] };
    const errors = errorsOf(m);
    expect(errors.map((e) => e.pointer)).toEqual(['/events/publishes/2']);
    expect(errors[0].message).toContain('"orders.<event>" or "order.<event>"');
    m.events = { namespace: 'order', publishes: ['order.created', 'orders.internal'] };
    expect(validateManifest(m).ok).toBe(true);
    m.events = { namespace: 'Order!', publishes: [] };
    expect(pointers(m)).toEqual(['/events/namespace']);
  });

  it('lets events.namespace name several prefixes (spec 3 Events: remittance.due and wallet.low_balance)', () => {
    const m = base();
    m.events = { namespace: ['remittance', 'wallet'], publishes: ['remittance.due', 'wallet.low_balance', 'orders.internal', 'payout.sent'] };
    const errors = errorsOf(m);
    expect(errors.map((e) => e.pointer)).toEqual(['/events/publishes/3']);
    expect(errors[0].message).toContain('"orders.<event>" or "remittance.<event>" or "wallet.<event>"');
    m.events = { namespace: [], publishes: [] } as unknown as typeof m.events;
    expect(pointers(m)).toEqual(['/events/namespace']);
  });

  it('spec 2 Events: realtime channel patterns are the module\'s own, opened to someone, declared once', () => {
    const m = base();
    const channels = (...list: unknown[]) => {
      m.realtime = { channels: list };
      const result = validateManifest(m);
      return result.ok ? [] : result.errors;
    };
    expect(channels({ pattern: 'orders.track.{id}', join: { permission: 'orders.view', visitor: true } }, { pattern: 'orders.board', join: { visitor: true } })).toEqual([]);
    expect(channels({ pattern: 'orders.track.{id}', join: { permission: 'orders.undeclared' } }).map((e) => e.pointer)).toEqual(['/realtime/channels/0/join/permission']);
    expect(channels({ pattern: 'orders.track.{id}', join: { visitor: false } })).toEqual([
      { pointer: '/realtime/channels/0/join', message: 'lets nobody join: name a permission members need, or set visitor: true for granted visitors' },
    ]);
    expect(channels({ pattern: 'orders.track.{id}', join: {} }).map((e) => e.pointer)).toEqual(['/realtime/channels/0/join']);
    expect(channels({ pattern: 'orders.track.{id}', join: { visitor: true } }, { pattern: 'orders.{what}.9', join: { visitor: true } })).toEqual([
      {
        pointer: '/realtime/channels/1/pattern',
        message: '"orders.{what}.9" overlaps "orders.track.{id}" (/realtime/channels/0): one channel would have two join rules; declare each channel once',
      },
    ]);
    for (const bad of ['{id}.track', 'orders', 'orders..x', 'orders.{Id}', 'Orders.x', 'orders.x y']) {
      expect(channels({ pattern: bad, join: { visitor: true } })).toContainEqual({
        pointer: '/realtime/channels/0/pattern',
        message: 'must be dot-separated words and {parameters}, starting with a lowercase word, e.g. "chat.conversation.{id}"',
      });
    }
    expect(channels({ pattern: 'private-orders.{id}', join: { visitor: true } })[0].message).toContain('belong to the platform');
    expect(channels({ pattern: 'private-user.{id}', join: { visitor: true } }).map((e) => e.pointer)).toEqual(['/realtime/channels/0/pattern']);
  });

  it('requires workflow node operations to be provided or consumed', () => {
    const m = base();
    m.workflow = {
      nodes: [
        { type: 'orders:a', name: 'A', category: 'action', description: 'd', operation: 'orders.ship' },
        { type: 'orders:b', name: 'B', category: 'action', description: 'd', operation: 'inventory.reserve' },
        { type: 'orders:c', name: 'C', category: 'action', description: 'd', operation: 'payments.refund' },
      ],
    };
    expect(errorsOf(m)).toEqual([
      { pointer: '/workflow/nodes/0/operation', message: '"orders.ship" is not in api.provides' },
      { pointer: '/workflow/nodes/1/operation', message: '"inventory.reserve" belongs to another module and is not in api.consumes; add it there' },
    ]);
  });

  it('requires screen providers to name declared screens and provided operations', () => {
    const m = base();
    m.mobile = {
      screens: [{ id: 'orders.list', title: 'Orders', route: '/orders', version: 1 }],
      screenProviders: { 'orders.list': { data: 'orders.nope' }, 'orders.detail': { definition: 'orders.get' } },
    };
    expect(errorsOf(m)).toEqual([
      { pointer: '/mobile/screenProviders/orders.detail', message: '"orders.detail" is not in mobile.screens; declare the screen there' },
      { pointer: '/mobile/screenProviders/orders.list', message: 'needs "file" (a static definition under screens/) or "definition" (an operation)' },
      { pointer: '/mobile/screenProviders/orders.list/data', message: '"orders.nope" is not in api.provides' },
    ]);
  });

  it('requires permissions of the module that operations and routes use to be declared', () => {
    const m = base();
    m.permissions = [];
    m.http.routes[0].permission = 'orders.view';
    m.api.provides[0].permission = 'customers.view';
    expect(pointers(m)).toEqual(['/api/provides/1/permission', '/http/routes/0/permission']);
  });
});

describe('spec 3 reseller network: api.related lists operations the module itself provides', () => {
  it('accepts its own provided operations', () => {
    const m = base();
    m.api.related = ['orders.get'];
    expect(validateManifest(m).ok).toBe(true);
  });

  it("refuses another module's operation, one it does not provide, and a pattern", () => {
    const m = base();
    m.api.related = ['customers.get', 'orders.cancel', 'orders.*'];
    expect(errorsOf(m)).toEqual([
      { pointer: '/api/related/0', message: '"customers.get" is not in api.provides; a related tenant may call only this module\'s own operations' },
      { pointer: '/api/related/1', message: '"orders.cancel" is not in api.provides; a related tenant may call only this module\'s own operations' },
      { pointer: '/api/related/2', message: 'must be an operation name "<module>.<method>" of this module' },
    ]);
  });
});

describe('DESIGN Bus: api.consumes holds exact names or <module>.* patterns', () => {
  it.each([['orders'], ['*'], ['orders.*.get'], ['Orders.get'], ['orders.']])('refuses %p', (pattern) => {
    const m = base();
    m.api.consumes = [pattern];
    expect(errorsOf(m)).toEqual([
      { pointer: '/api/consumes/0', message: 'must be an operation name "<module>.<method>" or a pattern "<module>.*"' },
    ]);
  });

  it('refuses a pattern listed twice', () => {
    const m = base();
    m.api.consumes = ['payments.*', 'customers.get', 'payments.*'];
    expect(errorsOf(m)).toEqual([{ pointer: '/api/consumes/2', message: 'duplicates /api/consumes/0' }]);
  });
});

describe('DESIGN Data: models and migrations', () => {
  it('refuses incoherent columns, unknown index fields and reused tables', () => {
    const m = base();
    m.data = {
      models: {
        Point: {
          table: 'points',
          columns: {
            id: { type: 'uuid', primaryKey: true, nullable: true, autoIncrement: true },
            amount: { type: 'decimal', precision: 4, scale: 6, default: 1.5 },
            label: { type: 'text', length: 10, default: null, nullable: false },
            at: { type: 'date', default: { $fn: 'uuid' } },
          },
          indexes: [{ fields: ['missing'] }],
        },
        Other: { table: 'points', columns: { id: { type: 'integer' } } },
      },
    };
    expect(errorsOf(m)).toEqual([
      { pointer: '/data/models/Other', message: 'uses table "points" already used by /data/models/Point' },
      { pointer: '/data/models/Point/columns/amount/default', message: 'must be a decimal string such as "0.00" for a decimal column' },
      { pointer: '/data/models/Point/columns/amount/scale', message: 'must not exceed precision (4)' },
      { pointer: '/data/models/Point/columns/at/default/$fn', message: '"uuid" applies to uuid columns only' },
      { pointer: '/data/models/Point/columns/id/autoIncrement', message: 'applies to integer and bigint columns only' },
      { pointer: '/data/models/Point/columns/id/nullable', message: 'a primary key column cannot be nullable' },
      { pointer: '/data/models/Point/columns/label/default', message: 'cannot be null on a column that is not nullable' },
      { pointer: '/data/models/Point/columns/label/length', message: 'applies to string columns only' },
      { pointer: '/data/models/Point/indexes/0/fields/0', message: '"missing" is not a column of Point' },
    ]);
  });

  it('refuses duplicate migration ids and SQL files outside migrations/', () => {
    const m = base();
    m.data = {
      migrations: [
        { id: '001', up: 'migrations/001.up.sql', down: 'migrations/001.down.sql' },
        { id: '001', up: 'sql/002.sql', down: 'sql/002.sql' },
      ],
    };
    expect(errorsOf(m)).toEqual([
      { pointer: '/data/migrations/1/down', message: 'must be a file under migrations/' },
      { pointer: '/data/migrations/1/down', message: 'must be a different file from up' },
      { pointer: '/data/migrations/1/id', message: 'duplicates /data/migrations/0/id ("001")' },
      { pointer: '/data/migrations/1/up', message: 'must be a file under migrations/' },
    ]);
  });
});

describe('DESIGN Manifest: loadManifest', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'mandi-manifest-'));
  });

  it('loads module.json from a module folder or the file itself', async () => {
    await writeFile(path.join(dir, 'module.json'), JSON.stringify(base()));
    expect((await loadManifest(dir)).name).toBe('orders');
    expect((await loadManifest(path.join(dir, 'module.json'))).version).toBe('1.2.0');
  });

  it('throws ManifestError listing every problem as "<pointer>: <message>" lines', async () => {
    await writeFile(path.join(dir, 'module.json'), JSON.stringify({ ...base(), version: 'one', mian: 'x' }));
    const err = await loadManifest(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ManifestError);
    expect((err as ManifestError).errors).toHaveLength(2);
    expect((err as Error).message).toBe(
      `Invalid module manifest ${path.join(dir, 'module.json')}:\n` +
        '  /mian: is not a known property (did you mean "main"?)\n' +
        '  /version: must be a SemVer version such as "1.0.0"',
    );
  });

  it('reports unreadable and malformed files at the root pointer', async () => {
    await expect(loadManifest(dir)).rejects.toThrow(/\(root\): cannot be read/);
    await writeFile(path.join(dir, 'module.json'), '{ "name": ');
    await expect(loadManifest(dir)).rejects.toThrow(/\(root\): is not valid JSON/);
  });

  it('checks that the files the manifest names exist', async () => {
    const m = base();
    m.graphql = { schema: 'graphql/schema.graphql', resolvers: 'graphql/resolvers.json' };
    m.data = { migrations: [{ id: '001', up: 'migrations/001.up.sql', down: 'migrations/001.down.sql' }] };
    await writeFile(path.join(dir, 'module.json'), JSON.stringify(m));
    await mkdir(path.join(dir, 'graphql'));
    await writeFile(path.join(dir, 'graphql/schema.graphql'), 'type Query { a: Int }');
    await mkdir(path.join(dir, 'migrations'));
    await writeFile(path.join(dir, 'migrations/001.up.sql'), 'select 1');
    const err = (await loadManifest(dir).catch((e: unknown) => e)) as ManifestError;
    expect(err.errors).toEqual([
      { pointer: '/graphql/resolvers', message: 'file graphql/resolvers.json does not exist' },
      { pointer: '/data/migrations/0/down', message: 'file migrations/001.down.sql does not exist' },
    ]);
  });
});

describe('DESIGN wave 3: an operation reachable from an edge always has a permission', () => {
  const unguarded = (name: string, edges: string) =>
    `"${name}" is reachable from ${edges} but names no permission, so any member could call it: name one, take internal work off those edges (graphql_expose: false, no route or node), or say in open_to_members why every member may`;

  it('refuses a derived GraphQL field, a route without a permission of its own and a workflow node with no permission', () => {
    const m = base();
    m.api.provides.push({ name: 'orders.notify_all', description: 'x' }, { name: 'orders.ping', description: 'x', graphql_expose: false }, { name: 'orders.mail', description: 'x', graphql_expose: false });
    m.http.routes.push({ method: 'POST', path: '/orders/ping', operation: 'orders.ping' });
    m.workflow = { nodes: [{ type: 'orders:mail', name: 'Mail', category: 'action', description: 'Mails', operation: 'orders.mail' }] };
    expect(errorsOf(m)).toEqual([
      { pointer: '/api/provides/2/permission', message: unguarded('orders.notify_all', 'a GraphQL field') },
      { pointer: '/api/provides/3/permission', message: unguarded('orders.ping', 'an authenticated http route') },
      { pointer: '/api/provides/4/permission', message: unguarded('orders.mail', 'a workflow node') },
    ]);
  });

  it('accepts the route\'s own permission, internal work on no edge, a module opted out of derivation, and open_to_members with its reason', () => {
    const m = base();
    m.api.provides.push(
      { name: 'orders.ping', description: 'x', graphql_expose: false },
      { name: 'orders.sweep', description: 'x', graphql_expose: false, ai_tool: false },
      { name: 'orders.whoami', description: 'x', open_to_members: "reads the caller's own member profile" },
    );
    m.http.routes.push({ method: 'POST', path: '/orders/ping', operation: 'orders.ping', permission: 'orders.create' });
    expect(validateManifest(m).ok).toBe(true);
    const optedOut = base();
    optedOut.api.provides.push({ name: 'orders.internal', description: 'x' });
    optedOut.graphql = { auto_resolve: false };
    expect(validateManifest(optedOut).ok).toBe(true);
  });

  it('refuses open_to_members beside a permission, and a reason too short to say anything', () => {
    const m = base();
    m.api.provides[1].open_to_members = 'every member may create one';
    m.api.provides.push({ name: 'orders.whoami', description: 'x', open_to_members: 'ok' });
    expect(pointers(m)).toEqual(['/api/provides/1/open_to_members', '/api/provides/2/open_to_members']);
  });

  it("keeps a schedule's operation that names no permission off every edge, open_to_members or not", () => {
    const m = base();
    m.api.provides.push({ name: 'orders.fire', description: 'x', open_to_members: 'any member may fire it' });
    m.schedules = [{ name: 'tick', operation: 'orders.fire', every_ms: 60_000 }];
    expect(errorsOf(m)).toEqual([
      {
        pointer: '/api/provides/2',
        message: '"orders.fire" runs from schedules, with no user and no permission, and must not also be reachable from a GraphQL field or an AI tool: set graphql_expose and ai_tool to false and give it no route or node, or name the permission a member needs to run it too',
      },
    ]);
    m.api.provides[2] = { name: 'orders.fire', description: 'x', graphql_expose: false, ai_tool: false };
    expect(validateManifest(m).ok).toBe(true);
    // With a permission, members holding it may run it by hand too (e.g. "sync now").
    m.api.provides[2] = { name: 'orders.fire', description: 'x', permission: 'orders.create' };
    expect(validateManifest(m).ok).toBe(true);
  });
});

describe('docs/decisions/console-pages.md: console.pages', () => {
  const withPages = (pages: unknown[]) => ({ ...base(), console: { pages } });
  const page = { path: 'board', label: 'Order board', permission: 'orders.view', entry: 'console/board.tsx' };

  test('a page with a path, label, permission and an entry under console/ is valid', () => {
    expect(validateManifest(withPages([page, { ...page, path: 'stock', entry: 'console/stock/page.ts', icon: 'package' }])).ok).toBe(true);
  });

  test('the permission is required and declared; the entry stays under console/; paths and bundle names are unique', () => {
    const { permission: _permission, ...noPermission } = page;
    expect(pointers(withPages([noPermission]))).toEqual(['/console/pages/0/permission']);
    expect(pointers(withPages([{ ...page, permission: 'orders.board' }]))).toEqual(['/console/pages/0/permission']);
    for (const entry of ['src/board.ts', 'console/../src/index.ts', '/console/board.ts', 'console/board.css', 'dist/console/board.js']) {
      expect(pointers(withPages([{ ...page, entry }]))).toEqual(['/console/pages/0/entry']);
    }
    expect(pointers(withPages([{ ...page, path: 'a/b' }]))).toEqual(['/console/pages/0/path']);
    expect(pointers(withPages([page, { ...page, entry: 'console/other.ts' }]))).toEqual(['/console/pages/1/path']);
    const sameBundle = errorsOf(withPages([page, { ...page, path: 'other', entry: 'console/x/board.ts' }]));
    expect(sameBundle).toEqual([{ pointer: '/console/pages/1/entry', message: expect.stringContaining('dist/console/board.js') }]);
  });
});

describe('module settings: the manifest’s settings schema, checked at build and install', () => {
  const withSettings = (settings: unknown) => ({ ...base(), settings });
  const good = {
    type: 'object',
    required: ['sender'],
    properties: {
      sender: { type: 'string', maxLength: 11, description: 'The sender id.' },
      retries: { type: 'integer', minimum: 0, default: 2, description: 'Retries.' },
      api_key: { type: 'string', writeOnly: true, description: 'The API key.' },
    },
  };

  it('accepts an object schema of typed, described properties, a secret among them', () => {
    expect(validateManifest(withSettings(good)).ok).toBe(true);
  });

  it('refuses a schema that is not of an object, unknown keywords, undescribed or oddly named settings', () => {
    expect(pointers(withSettings({ type: 'array', items: {} }))).toEqual(['/settings/items', '/settings/properties', '/settings/type']);
    expect(pointers(withSettings('object'))).toEqual(['/settings']);
    expect(errorsOf(withSettings({ ...good, $ref: 'http://evil.example/schema' }))).toEqual([{ pointer: '/settings/$ref', message: 'is not a known property' }]);
    expect(pointers(withSettings({ type: 'object', properties: { sender: { type: 'string', description: 'd', $ref: '#/x' } } }))).toEqual(['/settings/properties/sender/$ref']);
    expect(pointers(withSettings({ type: 'object', properties: { sender: { type: 'string' } } }))).toEqual(['/settings/properties/sender/description']);
    expect(pointers(withSettings({ type: 'object', properties: { 'Sender-ID': { type: 'string', description: 'd' } } }))).toEqual(['/settings/properties/Sender-ID']);
  });

  it('refuses a default its own schema refuses, a secret that is not a string or carries a default, and required names not declared', () => {
    const errors = errorsOf(
      withSettings({
        type: 'object',
        required: ['nosuch'],
        properties: {
          retries: { type: 'integer', maximum: 5, default: 9, description: 'd' },
          pin: { type: 'integer', writeOnly: true, description: 'd' },
          token: { type: 'string', writeOnly: true, default: 'in-module-json', description: 'd' },
        },
      }),
    );
    expect(errors.map((e) => e.pointer).sort()).toEqual(['/settings/properties/pin/writeOnly', '/settings/properties/retries/default', '/settings/properties/token/default', '/settings/required/0']);
  });
});
