/**
 * A permission is checked once per request (core/kernel/bus/edge-permission.ts): the module route
 * that checked its operation's permission tells the bus so, and the bus skips that same check for
 * that call. What must not follow from it: a route naming a weaker permission than its operation's
 * lets a member through to the operation; the route's check opens another module's operation to the
 * handler (a module's own calls are governed by its api.consumes, DESIGN.md, Bus); a member without
 * the permission passes a nested check; or the fact survives into another request of the member.
 */
import { createTestHost, defineFixtureModule, type TestHost } from '../../sdk/testing';

const EDGE = `import { defineModule, operation, Type } from '@mandi/sdk';
const Out = Type.Object({ ok: Type.Boolean(), inner: Type.Optional(Type.Unknown()) });
export default defineModule({
  name: 'edgy',
  version: '1.0.0',
  compatibility: { platform: '^2.0.0' },
  permissions: [
    { name: 'edgy.view', description: 'read' },
    { name: 'edgy.manage', description: 'change' },
  ],
  operations: {
    // The route asks for less than the operation does.
    secret: operation({
      description: 'needs edgy.manage', permission: 'edgy.manage', graphql_expose: false, ai_tool: false,
      input: Type.Object({}), output: Out,
      http: { method: 'GET', path: '/edgy/secret', permission: 'edgy.view' },
      handler: async () => ({ ok: true }),
    }),
    // Checked at the route, then reaches for another module's operation it does not consume.
    relay: operation({
      description: 'needs edgy.view, calls vault.read', permission: 'edgy.view', graphql_expose: false, ai_tool: false,
      input: Type.Object({}), output: Out,
      http: { method: 'GET', path: '/edgy/relay' },
      handler: async (_input, ctx) => ({ ok: true, inner: await ctx.host.call('vault.read', {}) }),
    }),
    // Calls an operation needing the very permission the route checked: allowed for the holder.
    twice: operation({
      description: 'needs edgy.view, calls peek', permission: 'edgy.view', graphql_expose: false, ai_tool: false,
      input: Type.Object({}), output: Out,
      http: { method: 'GET', path: '/edgy/twice' },
      handler: async (_input, ctx) => ({ ok: true, inner: await ctx.host.call('edgy.peek', {}) }),
    }),
    peek: operation({
      description: 'needs edgy.view', permission: 'edgy.view', graphql_expose: false, ai_tool: false,
      input: Type.Object({}), output: Out,
      http: { method: 'GET', path: '/edgy/peek' },
      handler: async () => ({ ok: true }),
    }),
  },
});`;

const VAULT = `import { defineModule, operation, Type } from '@mandi/sdk';
export default defineModule({
  name: 'vault',
  version: '1.0.0',
  compatibility: { platform: '^2.0.0' },
  permissions: [{ name: 'edgy.view', description: 'the same name as edgy\\'s: a permission is a string in the tenant' }],
  operations: {
    read: operation({
      description: 'needs edgy.view', permission: 'edgy.view', graphql_expose: false, ai_tool: false,
      input: Type.Object({}), output: Type.Object({ ok: Type.Boolean() }),
      handler: async () => ({ ok: true }),
    }),
  },
});`;

describe('hostile: a permission checked once at the edge', () => {
  let host: TestHost;
  let viewer: string;
  let manager: string;
  let nobody: string;

  beforeAll(async () => {
    const { dir } = await defineFixtureModule(EDGE);
    const vault = await defineFixtureModule(VAULT);
    host = await createTestHost({ modulePath: dir, build: false, withModules: [vault.dir] });
    viewer = await host.memberWith('edgy-viewer', ['edgy.view']);
    manager = await host.memberWith('edgy-manager', ['edgy.view', 'edgy.manage']);
    nobody = await host.memberWith('edgy-nobody', []);
  }, 120_000);
  afterAll(() => host?.close());

  it("a route naming a weaker permission does not open its operation: the bus still checks the operation's", async () => {
    const res = await host.requestAs(viewer, 'GET', '/edgy/secret');
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).toMatch(/edgy\.manage/);
    expect(host.handlerCalls('edgy.secret')).toBe(0);
    // The holder of both goes through.
    expect((await host.requestAs(manager, 'GET', '/edgy/secret')).status).toBe(200);
  });

  it("the route's check does not open another module's operation to the handler: api.consumes still governs it", async () => {
    const res = await host.requestAs(manager, 'GET', '/edgy/relay');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'OPERATION_NOT_CONSUMED' });
    expect(host.handlerCalls('vault.read')).toBe(0);
    // vault's operation itself is there, for a member holding its permission.
    await expect(host.call('vault.read', {})).resolves.toEqual({ ok: true });
  });

  it('a nested call needing the same permission is checked again and passes for its holder only', async () => {
    expect(await host.requestAs(viewer, 'GET', '/edgy/twice')).toMatchObject({ status: 200, body: { ok: true, inner: { ok: true } } });
    expect((await host.requestAs(nobody, 'GET', '/edgy/twice')).status).toBe(403);
    expect((await host.requestAs(nobody, 'GET', '/edgy/peek')).status).toBe(403);
  });

  it("a member's earlier allowed request gives nothing to their next one", async () => {
    expect((await host.requestAs(viewer, 'GET', '/edgy/peek')).status).toBe(200);
    expect((await host.requestAs(viewer, 'GET', '/edgy/secret')).status).toBe(403);
  });
});
