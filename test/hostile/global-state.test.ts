import { HostileHarness } from './support';

describe("spec/DESIGN: sandbox never lets a tenant see another tenant's globals", () => {
  let h: HostileHarness;
  beforeEach(() => {
    h = new HostileHarness('state@1.0.0', 'global-state', {});
  });
  afterEach(() => h.dispose());

  it('state kept in globals, module scope and shared prototypes stays in its tenant', async () => {
    await expect(h.invoke('remember', { secret: 'tenant one secret' }, { tenantId: 'one' })).resolves.toBe('stored');
    await expect(h.invoke('recall', {}, { tenantId: 'two' })).resolves.toEqual({
      global: null,
      moduleScoped: null,
      viaObjectPrototype: null,
      viaArrayPrototype: null,
    });
    await expect(h.invoke('recall', {}, { tenantId: 'one' })).resolves.toEqual({
      global: 'tenant one secret',
      moduleScoped: 'tenant one secret',
      viaObjectPrototype: 'tenant one secret',
      viaArrayPrototype: 'tenant one secret',
    });
    // Nor does it reach the host.
    expect(({} as Record<string, unknown>).leaked).toBeUndefined();
    expect(([] as unknown as Record<string, unknown>).leakedToo).toBeUndefined();
  });

  it('holds across many tenants at once', async () => {
    const tenants = Array.from({ length: 30 }, (_, i) => `tenant-${i}`);
    await Promise.all(tenants.map((t) => h.invoke('remember', { secret: `secret of ${t}` }, { tenantId: t })));
    const recalled = await Promise.all(tenants.map((t) => h.invoke('recall', {}, { tenantId: t })));
    recalled.forEach((r, i) => expect(r).toMatchObject({ global: `secret of ${tenants[i]}`, moduleScoped: `secret of ${tenants[i]}` }));
  });
});
