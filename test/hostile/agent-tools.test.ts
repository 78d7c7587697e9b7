/**
 * Hostile agents against tools.list / tools.call (spec 2, Tool discovery and permission enforcement):
 * a module acting for a user must never do more than that user may (rule 3): not a tool whose
 * inferred or declared permission the user lacks, not an operation that is no tool and that it does
 * not consume, not without a user, not without declaring tools.call in api.consumes, and never in
 * another tenant; and a grant to act later for a user (tools.grant) that cannot be forged, moved to
 * another module, outlive its expiry or outlast the user's membership. Real platform, real sandboxes
 * (fixtures: ./fixtures/agent-tools).
 */
import path from 'node:path';
import type { UserRef } from '../../core/kernel/context';
import { addFixtureModules, installVia } from '../bus/support';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

const fixture = (name: string) => path.join(__dirname, 'fixtures/agent-tools', name);

describe('spec 2 Tools, Tool discovery rules 2-3 (hostile): an agent module acts only as far as its user may', () => {
  let tp: TestPlatform;
  let acme: Awaited<ReturnType<TestPlatform['install']>>;
  const member: UserRef = { id: 999_001, email: 'm@acme.example', name: 'Member', isSuperAdmin: false };
  /** The module's operation called as a REST route would call it, for a user holding `permissions`. */
  const asUser = (module: string, op: string, input: unknown, permissions: string[], user: UserRef | null = member, tenantId = acme.tenantId) =>
    tp.platform.kernel.bus.call({ kind: 'edge', via: 'http' }, `${module}.raw`, { op, input }, { tenantId, user, permissions: new Set(permissions) });

  beforeAll(async () => {
    tp = await startTestPlatform({});
    acme = await tp.install('acme');
    await addFixtureModules(tp, ['toolbox', 'agentx', 'agenty', 'sneakx'], fixture);
    for (const alias of ['toolbox', 'agentx', 'agenty', 'sneakx']) await installVia(tp, acme.token, 'acme', alias);
  }, 120_000);
  afterAll(() => tp?.close());

  test('tools.list shows only the tools whose inferred and declared permissions the user holds, with input schemas', async () => {
    const list = async (perms: string[]) => ((await asUser('agentx', 'tools.list', {}, perms)) as { tools: Array<{ name: string }> }).tools.map((t) => t.name).filter((n) => n.startsWith('toolbox.'));
    expect(await list([])).toEqual([]);
    expect(await list(['toolbox.view'])).toEqual(['toolbox.getThing']); // deleteThing also needs toolbox.delete (its name)
    expect(await list(['toolbox.view', 'toolbox.delete'])).toEqual(['toolbox.getThing', 'toolbox.deleteThing']);
    const all = (await asUser('agentx', 'tools.list', {}, ['*'])) as { tools: Array<{ name: string; input: unknown }> };
    expect(all.tools.map((t) => t.name)).not.toContain('toolbox.secret_dump'); // ai_tool: false
    expect(all.tools.find((t) => t.name === 'toolbox.getThing')).toMatchObject({ module: 'toolbox', description: 'Reads a thing.', input: { type: 'object' } });
  });

  test('tools.list `only` (a role\'s patterns) narrows the list and never widens it past the user', async () => {
    const names = async (only: unknown, perms: string[]) =>
      ((await asUser('agentx', 'tools.list', { only }, perms)) as { tools: Array<{ name: string }> }).tools.map((t) => t.name).filter((n) => n.startsWith('toolbox.'));
    expect(await names(['toolbox.getThing'], ['*'])).toEqual(['toolbox.getThing']);
    expect(await names(['toolbox.*'], ['*'])).toEqual(['toolbox.getThing', 'toolbox.deleteThing']);
    expect(await names(['*'], ['toolbox.view'])).toEqual(['toolbox.getThing']);
    expect(await names(['toolbox.*', 'toolbox.secret_dump'], ['toolbox.view'])).toEqual(['toolbox.getThing']); // no tool, no permission
    expect(await names(['other.*'], ['*'])).toEqual([]);
    expect(await names([], ['*'])).toEqual([]);
    await expect(asUser('agentx', 'tools.list', { only: 'toolbox.*' }, ['*'])).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  test('tools.call runs as the user (caller edge "ai"), and refuses a tool whose inferred permission the user lacks even when the declared one is held', async () => {
    expect(await asUser('agentx', 'tools.call', { name: 'toolbox.getThing', input: { id: 'x' } }, ['toolbox.view'])).toEqual({
      op: 'toolbox.getThing', input: { id: 'x' }, caller: 'ai', user: member.id,
    });
    await expect(asUser('agentx', 'tools.call', { name: 'toolbox.deleteThing', input: {} }, ['toolbox.view'])).rejects.toMatchObject({
      code: 'FORBIDDEN', status: 403, details: { tool: 'toolbox.deleteThing', permission: 'toolbox.delete' },
    });
    await expect(asUser('agentx', 'tools.call', { name: 'toolbox.getThing', input: {} }, [])).rejects.toMatchObject({ code: 'FORBIDDEN', status: 403 });
  });

  test('an operation that is no tool is refused unless the module consumes it, and then the user\'s permission still applies', async () => {
    await expect(asUser('agentx', 'tools.call', { name: 'toolbox.secret_dump', input: {} }, ['*'])).rejects.toMatchObject({ code: 'FORBIDDEN', details: { tool: 'toolbox.secret_dump' } });
    await expect(asUser('agentx', 'tools.call', { name: 'secrets.get', input: { name: 'x' } }, ['*'])).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(asUser('agentx', 'tools.call', { name: 'toolbox.internal_sync', input: {} }, ['toolbox.view'])).rejects.toMatchObject({
      code: 'FORBIDDEN', details: { permission: 'toolbox.manage' },
    });
    expect(await asUser('agentx', 'tools.call', { name: 'toolbox.internal_sync', input: {} }, ['toolbox.manage'])).toMatchObject({ caller: 'ai', user: member.id });
  });

  test('no user (an event, a schedule, a job): refused; a module that does not consume tools.call: refused', async () => {
    await expect(asUser('agentx', 'tools.call', { name: 'toolbox.getThing', input: {} }, ['*'], null)).rejects.toMatchObject({ code: 'FORBIDDEN', status: 403 });
    await expect(asUser('agentx', 'tools.list', {}, ['*'], null)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(asUser('sneakx', 'tools.call', { name: 'toolbox.getThing', input: {} }, ['*'])).rejects.toMatchObject({ code: 'OPERATION_NOT_CONSUMED' });
    await expect(asUser('sneakx', 'tools.list', {}, ['*'])).rejects.toMatchObject({ code: 'OPERATION_NOT_CONSUMED' });
  });

  test('cross-tenant and loops: the tenant is the call\'s (input cannot name another), and an agent calling itself ends at the depth limit', async () => {
    await expect(asUser('agentx', 'tools.call', { name: 'toolbox.getThing', input: {}, tenant_id: 'other' }, ['*'])).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    // agentx.raw is no tool (ai_tool false) and agentx does not consume itself through tools.call.
    await expect(asUser('agentx', 'tools.call', { name: 'agentx.raw', input: { op: 'tools.call', input: { name: 'agentx.raw' } } }, ['*'])).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  describe('acting grants (tools.grant): acting later for the user who asked', () => {
    const owner = (): UserRef => ({ id: acme.userId, email: 'ada@acme.example', name: 'Ada Owner', isSuperAdmin: true });
    const grantFor = async (user: UserRef, ttl?: number) =>
      ((await asUser('agentx', 'tools.grant', ttl ? { ttl_seconds: ttl } : {}, ['*'], user)) as { grant: string; expires_at: string }).grant;

    test('a grant made in a call of the user lets the module act for them in a call without one, with their permissions now', async () => {
      const grant = await grantFor(owner());
      expect(await asUser('agentx', 'tools.call', { name: 'toolbox.getThing', input: { id: 'later' }, grant }, [], null)).toEqual({
        op: 'toolbox.getThing', input: { id: 'later' }, caller: 'ai', user: acme.userId,
      });
      // No user in the call: no grant either.
      await expect(asUser('agentx', 'tools.grant', {}, ['*'], null)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    });

    test('forged, tampered, another module\'s, expired, and a user who is no longer a member: refused', async () => {
      const grant = await grantFor(owner());
      const [body, sig] = grant.split('.');
      const claims = JSON.parse(Buffer.from(body!, 'base64url').toString());
      const forged = `${Buffer.from(JSON.stringify({ ...claims, u: claims.u + 1 })).toString('base64url')}.${sig}`;
      for (const bad of [forged, `${body}.${'0'.repeat(64)}`, 'x.y', 'a'.repeat(1999)]) {
        await expect(asUser('agentx', 'tools.call', { name: 'toolbox.getThing', input: {}, grant: bad }, [], null)).rejects.toMatchObject({ code: 'GRANT_INVALID', status: 403 });
      }
      await expect(asUser('agenty', 'tools.call', { name: 'toolbox.getThing', input: {}, grant }, [], null)).rejects.toMatchObject({ code: 'GRANT_INVALID' });
      await expect(asUser('sneakx', 'tools.call', { name: 'toolbox.getThing', input: {}, grant }, [], null)).rejects.toMatchObject({ code: 'OPERATION_NOT_CONSUMED' });
      const short = await grantFor(owner(), 60);
      tp.platform.clock.advance(61_000);
      try {
        await expect(asUser('agentx', 'tools.call', { name: 'toolbox.getThing', input: {}, grant: short }, [], null)).rejects.toMatchObject({ code: 'GRANT_INVALID', message: expect.stringContaining('expired') });
      } finally {
        tp.platform.clock.reset();
      }
      const ghost = await grantFor(member); // not a member of acme
      await expect(asUser('agentx', 'tools.call', { name: 'toolbox.getThing', input: {}, grant: ghost }, [], null)).rejects.toMatchObject({ code: 'GRANT_INVALID', message: expect.stringContaining('no longer an active member') });
    });
  });
});
