import { checkDependencies, checkPlatform, matchesConsumes, PLATFORM_VERSION } from './compatibility';
import type { HttpRoute } from './manifest.types';

const mod = (name: string, version: string, dependencies?: Record<string, string>) => ({ name, version, dependencies });

describe('spec 1 Versioning 2: platform compatibility', () => {
  it('the core is platform 2.0.0', () => {
    expect(PLATFORM_VERSION).toBe('2.0.0');
  });

  it('loads a module whose range includes the core', () => {
    expect(checkPlatform({ name: 'graphql', version: '1.0.0', compatibility: { platform: '^2.0.0' } })).toBeNull();
    expect(checkPlatform({ name: 'graphql', version: '1.0.0', compatibility: { platform: '>=1.5.0 <3' } })).toBeNull();
  });

  it('refuses a module built for another platform, saying what to install', () => {
    expect(checkPlatform({ name: 'graphql', version: '1.0.0', compatibility: { platform: '^3.0.0' } })).toEqual({
      kind: 'platform',
      module: 'graphql',
      message:
        'module graphql@1.0.0 requires platform ^3.0.0 but this core is 2.0.0; install a release of the module built for platform 2.x',
    });
  });

  it('checks against the platform version it is given', () => {
    const graphql = { name: 'graphql', version: '1.0.0', compatibility: { platform: '^2.0.0' } };
    expect(checkPlatform(graphql, '3.1.0')?.message).toBe(
      'module graphql@1.0.0 requires platform ^2.0.0 but this core is 3.1.0; install a release of the module built for platform 3.x',
    );
    expect(checkPlatform(graphql, '2.4.0-beta.1')).toBeNull();
  });

  it('refuses a missing or malformed range', () => {
    expect(checkPlatform({ name: 'x', version: '1.0.0', compatibility: { platform: 'soon' } })?.message).toMatch(
      /declares no valid compatibility.platform range \(found "soon"\)/,
    );
  });
});

describe('DESIGN Rings and the registry: dependency ranges are checked against what is installed', () => {
  it('accepts a set whose dependencies are installed within range', () => {
    expect(checkDependencies([mod('orders', '1.4.0'), mod('loyalty', '1.0.0', { orders: '^1.2.0' })])).toEqual([]);
  });

  it('names a missing dependency and the range to install', () => {
    expect(checkDependencies([mod('loyalty', '1.0.0', { orders: '^1.2.0' })])).toEqual([
      {
        kind: 'missing-dependency',
        module: 'loyalty',
        message: 'module loyalty@1.0.0 depends on orders ^1.2.0, but orders is not installed; install orders at a version matching ^1.2.0',
      },
    ]);
  });

  it('names the installed version when it is outside the range', () => {
    expect(checkDependencies([mod('orders', '1.4.0'), mod('loyalty', '2.0.0', { orders: '^2.0.0' })])).toEqual([
      {
        kind: 'dependency-version',
        module: 'loyalty',
        message:
          'module loyalty@2.0.0 depends on orders ^2.0.0, but orders@1.4.0 is installed; install orders at a version matching ^2.0.0, or a release of loyalty built for orders@1.4.0',
      },
    ]);
  });

  it('refuses two versions of one module in a set', () => {
    const problems = checkDependencies([mod('orders', '1.0.0'), mod('orders', '1.1.0')]);
    expect(problems).toEqual([expect.objectContaining({ kind: 'duplicate', module: 'orders' })]);
  });

  it('refuses an events.namespace another installed module already publishes under', () => {
    const withNs = (name: string, namespace: string) => ({ ...mod(name, '1.0.0'), events: { namespace } });
    expect(checkDependencies([withNs('orders', 'order'), mod('loyalty', '1.0.0')])).toEqual([]);
    expect(checkDependencies([withNs('orders', 'order'), withNs('forger', 'order')])).toEqual([
      {
        kind: 'event-namespace',
        module: 'forger',
        message: 'module forger@1.0.0 publishes events as "order.*", but that prefix belongs to module orders; only one installed module may publish under a name',
      },
    ]);
    expect(checkDependencies([mod('orders', '1.0.0'), withNs('forger', 'orders')])).toEqual([
      expect.objectContaining({ kind: 'event-namespace', module: 'forger' }),
    ]);
  });

  it('checks each of several namespaces: a second prefix another module holds is refused', () => {
    const finance = { ...mod('reseller_finance', '1.0.0'), events: { namespace: ['remittance', 'wallet'] as [string, ...string[]] } };
    expect(checkDependencies([finance, mod('loyalty', '1.0.0')])).toEqual([]);
    const forger = { ...mod('forger', '1.0.0'), events: { namespace: ['forged', 'wallet'] as [string, ...string[]] } };
    expect(checkDependencies([finance, forger])).toEqual([
      expect.objectContaining({ kind: 'event-namespace', module: 'forger', message: expect.stringContaining('"wallet.*", but that prefix belongs to module reseller_finance') }),
    ]);
  });
});

describe('spec 2 Events: one installed module owns a realtime channel', () => {
  const owning = (name: string, ...patterns: string[]) => ({ ...mod(name, '1.0.0'), realtime: { channels: patterns.map((pattern) => ({ pattern, join: { visitor: true } })) } });

  it('refuses patterns of two modules that one channel could match, on the later module', () => {
    expect(checkDependencies([owning('live_chat', 'chat.conversation.{id}'), owning('board', 'board.{id}', 'chat.widget.{id}.x')])).toEqual([]);
    expect(checkDependencies([owning('live_chat', 'chat.conversation.{id}'), owning('forger', 'chat.{kind}.{n}')])).toEqual([
      {
        kind: 'realtime-channel',
        module: 'forger',
        message:
          'module forger@1.0.0 declares the realtime channels "chat.{kind}.{n}", which overlap "chat.conversation.{id}" of module live_chat@1.0.0: one channel could belong to either; only one installed module may own a channel',
      },
    ]);
    expect(checkDependencies([owning('live_chat', 'chat.conversation.{id}'), owning('forger', 'chat.conversation.9')])).toHaveLength(1);
    expect(checkDependencies([owning('live_chat', 'chat.conversation.{id}'), owning('other', 'chat.conversation.{id}.typing')])).toEqual([]);
  });
});

describe('issue 3 item 2: dependency cycles are refused with their path', () => {
  it('reports a two-module cycle as a -> b -> a', () => {
    const problems = checkDependencies([mod('b', '1.0.0', { a: '*' }), mod('a', '1.0.0', { b: '*' })]);
    expect(problems).toEqual([
      {
        kind: 'cycle',
        module: 'a',
        cycle: ['a', 'b', 'a'],
        message: 'dependency cycle a -> b -> a: modules cannot depend on each other in a circle; remove one of these dependencies',
      },
    ]);
  });

  it('reports a longer cycle once, from its smallest alias, and leaves acyclic parts alone', () => {
    const problems = checkDependencies([
      mod('shipping', '1.0.0', { orders: '^1' }),
      mod('orders', '1.0.0', { payments: '^1' }),
      mod('payments', '1.0.0', { shipping: '^1' }),
      mod('loyalty', '1.0.0', { orders: '^1' }),
    ]);
    expect(problems.map((p) => p.cycle)).toEqual([['orders', 'payments', 'shipping', 'orders']]);
    expect(problems[0].message).toMatch(/^dependency cycle orders -> payments -> shipping -> orders:/);
  });

  it('reports a module depending on itself', () => {
    expect(checkDependencies([mod('a', '1.0.0', { a: '^1' })]).map((p) => p.cycle)).toEqual([['a', 'a']]);
  });

  it('reports separate cycles separately', () => {
    const problems = checkDependencies([
      mod('a', '1.0.0', { b: '^1' }),
      mod('b', '1.0.0', { a: '^1' }),
      mod('c', '1.0.0', { d: '^1' }),
      mod('d', '1.0.0', { c: '^1' }),
    ]);
    expect(problems.map((p) => p.cycle?.join(' -> '))).toEqual(['a -> b -> a', 'c -> d -> c']);
  });
});

describe('DESIGN Bus: consumes matching (exact names or a.* patterns)', () => {
  it('matches exact names', () => {
    expect(matchesConsumes(['orders.get'], 'orders.get')).toBe(true);
    expect(matchesConsumes(['orders.get'], 'orders.getStats')).toBe(false);
  });

  it('matches every operation of a module with <module>.*', () => {
    expect(matchesConsumes(['orders.*'], 'orders.getStats')).toBe(true);
    expect(matchesConsumes(['orders.*'], 'orders_archive.get')).toBe(false);
    expect(matchesConsumes(['orders.*'], 'ordersx.get')).toBe(false);
    expect(matchesConsumes(['orders.*'], 'orders.')).toBe(false);
  });

  it('treats nothing else as a pattern', () => {
    expect(matchesConsumes(['*'], 'orders.get')).toBe(false);
    expect(matchesConsumes(['orders*'], 'orders.get')).toBe(false);
    expect(matchesConsumes([], 'orders.get')).toBe(false);
  });
});

describe('DESIGN Rings and the registry: no two modules of a set serve one request', () => {
  const withRoutes = (name: string, ...routes: string[]) => ({
    ...mod(name, '1.0.0'),
    http: { routes: routes.map((r) => ({ method: r.split(' ')[0] as 'GET', path: r.split(' ')[1], operation: `${name}.op` })) },
  });

  it('refuses the same method and path in two modules, naming both modules and both routes', () => {
    expect(checkDependencies([withRoutes('orders', 'POST /orders'), withRoutes('aaa_tools', 'POST /orders')])).toEqual([
      {
        kind: 'route',
        module: 'aaa_tools',
        message:
          'module aaa_tools@1.0.0 declares POST /orders, which overlaps POST /orders of module orders@1.0.0: one request could reach either; only one installed module may serve a route',
      },
    ]);
  });

  it('refuses patterns that can match one concrete path: a parameter against a word, case-insensitively', () => {
    const clash = (a: string, b: string) => checkDependencies([withRoutes('orders', a), withRoutes('tools', b)]).map((p) => p.kind);
    expect(clash('GET /orders/:id', 'GET /orders/export')).toEqual(['route']);
    expect(clash('GET /orders/export', 'GET /orders/:id')).toEqual(['route']);
    expect(clash('GET /orders/:id/ship', 'GET /orders/:order/:action')).toEqual(['route']);
    expect(clash('GET /orders', 'GET /Orders')).toEqual(['route']);
  });

  it('allows routes no request could match both of', () => {
    const clash = (a: string, b: string) => checkDependencies([withRoutes('orders', a), withRoutes('tools', b)]);
    expect(clash('GET /orders/:id', 'GET /orders/:id/ship')).toEqual([]);
    expect(clash('GET /orders/:id', 'POST /orders/:id')).toEqual([]);
    expect(clash('GET /orders/export', 'GET /orders/import')).toEqual([]);
    expect(clash('GET /orders', 'GET /order-settings')).toEqual([]);
  });

  it('leaves overlaps inside one module to that module (it declared both)', () => {
    expect(checkDependencies([withRoutes('orders', 'GET /orders/:id', 'GET /orders/stats')])).toEqual([]);
  });
});

describe('spec 2: one installed module owns a public prefix (http.public)', () => {
  const withPrefix = (name: string, prefix: string) => ({
    ...mod(name, '1.0.0'),
    http: { public: { prefix, routes: [{ method: 'POST', path: '/:token', token: 'token', operation: `${name}.op` }] as [HttpRoute] } },
  });
  const clash = (a: string, b: string) => checkDependencies([withPrefix('chat', a), withPrefix('tools', b)]).map((p) => p.kind);

  it('refuses a prefix equal to, inside or around another module\'s, as a route clash', () => {
    expect(clash('widget', 'widget')).toEqual(['route']);
    expect(clash('widget', 'widget/v2')).toEqual(['route']);
    expect(clash('webhooks/workflows', 'webhooks')).toEqual(['route']);
  });

  it('allows prefixes that share only leading characters or no segment', () => {
    expect(clash('widget', 'widgets')).toEqual([]);
    expect(clash('webhooks/workflows', 'webhooks/orders')).toEqual([]);
  });
});
