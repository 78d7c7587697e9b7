import path from 'node:path';
import { addModule, auditRows, startNetwork, type Network } from '../tenancy/support';

/**
 * Hostile modules against the related-tenant call (spec 3, reseller network; DESIGN "Host
 * capabilities for modules": checked on every call, audited on both sides): a module reaching a
 * tenant it is not related to, another module's operation, an operation not opened to related
 * tenants, loops and fan-out between two tenants, a suspended sub-reseller, and callers that are
 * not module code. Network: acme ← north ← northa, acme ← south (tenancy/support.ts).
 */
describe('hostile: cross-tenant reach through related-tenant calls', () => {
  let n: Network;
  const call = (from: string, tenant: string, operation: string, input: unknown = {}) => n.run(from, 'relay.call', { tenant, operation, input });

  beforeAll(async () => {
    n = await startNetwork();
    await addModule(n.tp, path.join(__dirname, 'fixtures', 'modules', 'bystander'), false);
    for (const id of Object.values(n.ids)) await n.tp.platform.kernel.modules.install(id, 'bystander');
  }, 180_000);
  afterAll(() => n.tp.close());

  test('a tenant it is not related to (sibling, cousin, grandparent) is refused, and nothing runs there', async () => {
    const { ids, run } = n;
    await expect(call(ids.south, ids.northa, 'relay.receive', { note: 'hi' })).rejects.toMatchObject({ code: 'UNAUTHORIZED_CONTEXT', status: 403, details: { target_tenant: ids.northa } });
    await expect(call(ids.northa, 'south', 'relay.receive', { note: 'hi' })).rejects.toMatchObject({ code: 'UNAUTHORIZED_CONTEXT' });
    await expect(call(ids.northa, 'acme', 'relay.receive', { note: 'hi' })).rejects.toMatchObject({ code: 'UNAUTHORIZED_CONTEXT' });
    expect(await run(ids.northa, 'relay.inbox')).toEqual([]);
    expect(await run(ids.south, 'relay.inbox')).toEqual([]);
    expect(await run(ids.acme, 'relay.inbox')).toEqual([]);
  });

  test("another module's operation is never reachable through the related call, even one that module opened to related tenants", async () => {
    const { ids, run } = n;
    await expect(call(ids.north, 'acme', 'bystander.take')).rejects.toMatchObject({ code: 'OPERATION_NOT_RELATED', status: 403, details: { operation: 'bystander.take', module: 'relay' } });
    await expect(call(ids.north, 'acme', 'platform.get_tenant')).rejects.toMatchObject({ code: 'OPERATION_NOT_RELATED' });
    await expect(call(ids.north, 'acme', 'tenants.call_related', { tenant: 'south', operation: 'relay.receive', input: { note: 'laundered' } })).rejects.toMatchObject({
      code: 'OPERATION_NOT_RELATED',
    });
    expect(await run(ids.acme, 'bystander.taken')).toBe(0);
    expect(await run(ids.south, 'relay.inbox')).toEqual([]);
  });

  test('an own operation not listed in api.related stays private to its tenant', async () => {
    await expect(call(n.ids.north, 'acme', 'relay.secret')).rejects.toMatchObject({ code: 'OPERATION_NOT_RELATED', details: { operation: 'relay.secret' } });
  });

  test('a loop A→B→A… ends at the bus depth limit, and a doubling fan-out stays bounded', async () => {
    const { ids, run, tp } = n;
    await expect(run(ids.north, 'relay.bounce', { peer: 'acme' })).rejects.toMatchObject({ code: 'CALL_DEPTH_EXCEEDED', status: 508 });
    const started = Date.now();
    await expect(run(ids.north, 'relay.fan_out', { peer: 'acme' })).resolves.toBe('done');
    expect(Date.now() - started).toBeLessThan(10_000);
    const rows = [...(await auditRows(tp, ids.north, 'relay.fan_out')), ...(await auditRows(tp, ids.acme, 'relay.fan_out'))];
    const ran = rows.filter((r) => r.status === 'ok').length;
    // The path may not enter north again: north's run, then acme's two, each refused on the way back.
    expect(ran).toBeGreaterThan(1);
    expect(ran).toBeLessThanOrEqual(15);
  });

  test('a call path enters each tenant once: a walk up the chain nests past the bus depth of one tenant; a call back into a tenant on the path is a loop', async () => {
    const { ids, run } = n;
    const walk = (last: Record<string, unknown>) => run(ids.northa, 'relay.call', { tenant: 'north', operation: 'relay.call', input: { tenant: 'acme', operation: 'relay.call', input: last } });
    // northa → north → acme, each hop nesting two bus calls: allowed, and acme sees who called.
    await expect(run(ids.northa, 'relay.call', { tenant: 'north', operation: 'relay.call', input: { tenant: 'acme', operation: 'relay.nested_from' } })).resolves.toEqual({ here: ids.north, nested: null });
    // … then acme back down into north, already on the path: refused before it runs there.
    await expect(walk({ tenant: 'north', operation: 'relay.receive', input: { note: 'looped' } })).rejects.toMatchObject({ code: 'CALL_DEPTH_EXCEEDED', status: 508, details: { target_tenant: ids.north } });
    expect((await run(ids.north, 'relay.inbox')) as Array<{ note: string }>).not.toContainEqual(expect.objectContaining({ note: 'looped' }));
  });

  test('a suspended sub-reseller cannot call up the chain nor be called, whatever it tries', async () => {
    const { ids, run, tp, tokens } = n;
    expect((await tp.api('/reseller/sub-resellers/northa/suspend', { token: tokens.north, tenant: 'north', body: {} })).status).toBe(200);
    try {
      await expect(call(ids.northa, 'north', 'relay.receive', { note: 'still here' })).rejects.toMatchObject({ code: 'UNAUTHORIZED_CONTEXT' });
      await expect(call(ids.northa, ids.north, 'relay.receive', { note: 'by id' })).rejects.toMatchObject({ code: 'UNAUTHORIZED_CONTEXT' });
      await expect(call(ids.north, 'northa', 'relay.receive', { note: 'down' })).rejects.toMatchObject({ code: 'UNAUTHORIZED_CONTEXT' });
      await expect(call(ids.acme, 'northa', 'relay.receive', { note: 'around' })).rejects.toMatchObject({ code: 'UNAUTHORIZED_CONTEXT' });
      // Nor may it lift its own suspension: it is not its own parent.
      const self = await tp.api(`/reseller/sub-resellers/${ids.northa}/reactivate`, { token: tokens.northa, tenant: 'northa', body: {} });
      expect(self.status).toBe(404);
      expect(await run(ids.north, 'relay.inbox')).toEqual([]);
    } finally {
      await tp.api('/reseller/sub-resellers/northa/reactivate', { token: tokens.north, tenant: 'north', body: {} });
    }
  });

  test('only module code makes related calls: an edge or core caller is refused', async () => {
    const { tp, ids } = n;
    const input = { tenant: 'north', operation: 'relay.receive', input: { note: 'edge' } };
    await expect(tp.platform.kernel.bus.call({ kind: 'edge', via: 'graphql' }, 'tenants.call_related', input, { tenantId: ids.acme, user: null })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(tp.platform.kernel.bus.call({ kind: 'core' }, 'tenants.call_related', input, { tenantId: ids.acme, user: null })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
