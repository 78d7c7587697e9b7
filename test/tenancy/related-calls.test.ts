import { auditRows, startNetwork, type Network } from './support';

/**
 * Spec 3 (reseller network) and DESIGN "Host capabilities for modules": a module calls its copy in
 * its reseller parent or a descendant, in the real sandbox of a real platform; the data lands in
 * the target tenant's database, both tenants audit the call, and nothing else is reachable.
 */
describe('spec 3 reseller network: related-tenant calls', () => {
  let n: Network;
  const inbox = (tenantId: string) => n.run(tenantId, 'relay.inbox') as Promise<Array<{ from_tenant: string; note: string }>>;

  beforeAll(async () => {
    n = await startNetwork();
  }, 180_000);
  afterAll(() => n.tp.close());

  test('parent → child: the child runs the operation in its own database and sees who called', async () => {
    const { ids, run } = n;
    await expect(run(ids.acme, 'relay.send', { tenant: 'north', note: 'from the top' })).resolves.toEqual({ stored_in: ids.north, from: ids.acme });
    expect(await inbox(ids.north)).toEqual([expect.objectContaining({ from_tenant: ids.acme, note: 'from the top' })]);
    expect(await inbox(ids.acme)).toEqual([]);
  });

  test('child → parent, and parent → any active descendant (by id or alias)', async () => {
    const { ids, run } = n;
    await expect(run(ids.northa, 'relay.send', { tenant: ids.north, note: 'up one' })).resolves.toEqual({ stored_in: ids.north, from: ids.northa });
    await expect(run(ids.north, 'relay.send', { tenant: 'ACME', note: 'up again' })).resolves.toEqual({ stored_in: ids.acme, from: ids.north });
    await expect(run(ids.acme, 'relay.send', { tenant: 'northa', note: 'two down' })).resolves.toEqual({ stored_in: ids.northa, from: ids.acme });
    expect((await inbox(ids.acme)).map((r) => r.note)).toEqual(['up again']);
  });

  test('siblings, cousins, a grandparent and the tenant itself are UNAUTHORIZED_CONTEXT 403 with details.target_tenant', async () => {
    const { ids, run } = n;
    for (const [from, to] of [
      [ids.north, 'south'],
      [ids.south, ids.north],
      [ids.south, 'northa'],
      [ids.northa, 'acme'],
      [ids.north, 'north'],
      [ids.north, 'no-such-tenant'],
    ]) {
      await expect(run(from, 'relay.send', { tenant: to, note: 'x' })).rejects.toMatchObject({
        code: 'UNAUTHORIZED_CONTEXT',
        status: 403,
        details: { target_tenant: to.toLowerCase() },
      });
    }
    expect((await inbox(ids.south)).length).toBe(0);
  });

  test('a tenant outside the network (made by no onboarding path) can neither be called nor call in', async () => {
    const { ids, run, tp } = n;
    const outsider = await tp.platform.tenants.create({ name: 'Outsider', alias: 'outsider' });
    await tp.platform.kernel.modules.install(outsider.id, 'relay');
    for (const [from, to] of [
      [ids.acme, 'outsider'],
      [ids.north, outsider.id],
      [outsider.id, 'acme'],
      [outsider.id, ids.north],
    ]) {
      await expect(run(from, 'relay.send', { tenant: to, note: 'x' })).rejects.toMatchObject({ code: 'UNAUTHORIZED_CONTEXT', status: 403, details: { target_tenant: to } });
    }
    expect(await inbox(outsider.id)).toEqual([]);
    expect((await inbox(ids.acme)).some((r) => r.from_tenant === outsider.id)).toBe(false);
  });

  test('both tenants audit the call: related.call_out in the caller, related.call_in and the operation (related_from) in the target', async () => {
    const { ids, run, tp } = n;
    await run(ids.south, 'relay.send', { tenant: 'acme', note: 'audited' });
    await run(ids.south, 'relay.send', { tenant: 'north', note: 'refused' }).catch(() => undefined);
    const out = (await auditRows(tp, ids.south, 'related.call_out')).slice(-2);
    expect(out).toEqual([
      expect.objectContaining({ actor_type: 'module', actor_id: 'relay', target: 'relay.receive', status: 'ok', details: expect.objectContaining({ target_tenant: ids.acme, relation: 'parent' }) }),
      expect.objectContaining({ status: 'error', details: expect.objectContaining({ target_tenant: 'north', error: 'UNAUTHORIZED_CONTEXT' }) }),
    ]);
    const incoming = await auditRows(tp, ids.acme, 'related.call_in');
    expect(incoming).toContainEqual(expect.objectContaining({ actor_id: 'relay', target: 'relay.receive', status: 'ok', details: expect.objectContaining({ from_tenant: ids.south }) }));
    const ran = await auditRows(tp, ids.acme, 'relay.receive');
    expect(ran).toContainEqual(expect.objectContaining({ actor_type: 'module', details: expect.objectContaining({ related_from: ids.south }) }));
    // The refused call left no trace in north, which it never reached.
    expect((await auditRows(tp, ids.north, 'related.call_in')).filter((r) => r.details.from_tenant === ids.south)).toEqual([]);
  });

  test('ctx.relatedFrom is the caller tenant in the called handler only, not in what that handler calls in turn', async () => {
    const { ids, run } = n;
    await expect(run(ids.north, 'relay.call', { tenant: 'acme', operation: 'relay.nested_from' })).resolves.toEqual({ here: ids.north, nested: null });
    await expect(run(ids.north, 'relay.whoami')).resolves.toBeNull();
  });

  test('the target must have the module installed', async () => {
    const { ids, run, tp } = n;
    await tp.platform.kernel.modules.uninstall(ids.south, 'relay');
    try {
      await expect(run(ids.acme, 'relay.send', { tenant: 'south', note: 'x' })).rejects.toMatchObject({ code: 'MODULE_NOT_INSTALLED', details: { module: 'relay', target_tenant: 'south' } });
    } finally {
      await tp.platform.kernel.modules.install(ids.south, 'relay');
    }
  });

  test('related(ctx.host).parent() and children() show what the module may call', async () => {
    const { ids, run } = n;
    await expect(run(ids.north, 'relay.chain')).resolves.toEqual({
      parent: { id: ids.acme, name: 'Acme Stores', alias: 'acme', level: 0 },
      children: [{ id: ids.northa, name: 'northa Traders', alias: 'northa', level: 2 }],
    });
    const top = (await run(ids.acme, 'relay.chain')) as { parent: unknown; children: Array<{ id: string }> };
    expect(top.parent).toBeNull();
    expect(top.children.map((c) => c.id).sort()).toEqual([ids.north, ids.south].sort());
  });

  test('a suspended sub-reseller cannot be called (nor anything below it) and its own calls up the chain are refused; reactivating restores both', async () => {
    const { ids, run, tp, tokens } = n;
    const suspended = await tp.api(`/reseller/sub-resellers/${ids.northa}/suspend`, { token: tokens.north, tenant: 'north', body: {} });
    expect(suspended.body).toMatchObject({ message: 'Sub-reseller suspended.' });
    expect(suspended.body.sub_reseller).toMatchObject({ id: ids.northa, status: 'suspended', level: 2, parent_tenant_id: ids.north });
    await expect(run(ids.north, 'relay.send', { tenant: 'northa', note: 'x' })).rejects.toMatchObject({ code: 'UNAUTHORIZED_CONTEXT' });
    await expect(run(ids.acme, 'relay.send', { tenant: 'northa', note: 'x' })).rejects.toMatchObject({ code: 'UNAUTHORIZED_CONTEXT' });
    await expect(run(ids.northa, 'relay.send', { tenant: 'north', note: 'x' })).rejects.toMatchObject({ code: 'UNAUTHORIZED_CONTEXT' });
    await expect(run(ids.northa, 'relay.chain')).resolves.toEqual({ parent: null, children: [] });
    expect(((await run(ids.north, 'relay.chain')) as { children: unknown[] }).children).toEqual([]);

    const back = await tp.api(`/reseller/sub-resellers/northa/reactivate`, { token: tokens.north, tenant: 'north', body: {} });
    expect(back.status).toBe(200);
    expect(back.body.sub_reseller.status).toBe('active');
    await expect(run(ids.northa, 'relay.send', { tenant: 'north', note: 'back' })).resolves.toMatchObject({ stored_in: ids.north });
  });
});
