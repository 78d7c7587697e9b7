/**
 * Spec 3, reseller network: the chain as each tenant sees it, on a chain built through the
 * platform's own API: owner (level 0) → B → C → D, S a sibling of C under B, E a sibling of B.
 * Each tenant sees its ancestors and its own subtree, never a sibling's or a cousin's.
 */
import path from 'node:path';
import { createTestHost, type TestHost } from '../../../sdk/testing';

interface Member {
  tenant: string;
  token: string;
}

let host: TestHost;
let owner: Member;
let b: Member;
let c: Member;
let d: Member;
let s: Member;
let e: Member;

async function api(who: Member, method: string, p: string, extra: Record<string, string> = {}) {
  const res = await fetch(`${host.url}/api/v1${p}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${who.token}`, 'x-tenant': who.tenant, ...extra } });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function subReseller(name: string, alias: string, parent: string): Promise<Member> {
  const made = await host.request('POST', '/admin/tenants', { name, alias, parent_tenant: parent });
  if (made.status !== 201) throw new Error(`POST /admin/tenants: ${made.status} ${JSON.stringify(made.body)}`);
  const tenant = made.body.tenant.id as string;
  await host.installModule('reseller_network', { tenant });
  return { tenant, token: (await host.addMember({ email: `admin@${alias}.example`, role: 'admin' }, tenant)).token };
}

beforeAll(async () => {
  host = await createTestHost({ modulePath: path.resolve(__dirname, '..') });
  owner = { tenant: host.tenantId, token: host.token };
  b = await subReseller('Bharat Traders', 'bharat', host.tenantId);
  c = await subReseller('Chennai Mart', 'chennai', b.tenant);
  d = await subReseller('Delhi Direct', 'delhi', c.tenant);
  s = await subReseller('Surat Sales', 'surat', b.tenant);
  e = await subReseller('Erode Exports', 'erode', host.tenantId);
}, 240_000);

afterAll(async () => {
  await host?.close();
});

const ids = (list: Array<{ id: string }>) => list.map((t) => t.id);

describe('spec 3, reseller network: each tenant sees its place in the chain', () => {
  it("D's position: level 3, its parent C, and the levels above it from 0", async () => {
    const res = await api(d, 'GET', '/reseller-network/me');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      tenant: { id: d.tenant, name: 'Delhi Direct', level: 3 },
      parent: { id: c.tenant, name: 'Chennai Mart', alias: 'chennai', level: 2 },
      ancestors: [
        { id: owner.tenant, name: expect.any(String), level: 0 },
        { id: b.tenant, name: 'Bharat Traders', level: 1 },
        { id: c.tenant, name: 'Chennai Mart', level: 2 },
      ],
      sub_resellers_count: 0,
    });
    const top = await api(owner, 'GET', '/reseller-network/me');
    expect(top.body).toMatchObject({ tenant: { id: owner.tenant, level: 0 }, parent: null, ancestors: [], sub_resellers_count: 2 });
  });

  it('B lists its direct sub-resellers, or its whole subtree by level; never a sibling', async () => {
    const direct = await api(b, 'GET', '/reseller-network/sub-resellers');
    expect(direct.status).toBe(200);
    expect(ids(direct.body.sub_resellers).sort()).toEqual([c.tenant, s.tenant].sort());
    expect(direct.body.sub_resellers.find((t: { id: string }) => t.id === c.tenant)).toEqual({
      id: c.tenant, name: 'Chennai Mart', alias: 'chennai', level: 2, parent_tenant_id: b.tenant, status: 'active', sub_resellers_count: 1,
    });
    const subtree = await api(b, 'GET', '/reseller-network/sub-resellers?scope=subtree');
    expect(subtree.body.total).toBe(3);
    expect(subtree.body.sub_resellers.map((t: { level: number }) => t.level)).toEqual([2, 2, 3]);
    expect(ids(subtree.body.sub_resellers)).not.toContain(e.tenant);
    const all = await api(owner, 'GET', '/reseller-network/sub-resellers?scope=subtree');
    expect(ids(all.body.sub_resellers).sort()).toEqual([b.tenant, c.tenant, d.tenant, s.tenant, e.tenant].sort());
  });

  it('one sub-reseller anywhere below, by id or alias; anything else is 404 in the reseller shape', async () => {
    expect((await api(b, 'GET', `/reseller-network/sub-resellers/${d.tenant}`)).body.sub_reseller).toMatchObject({ id: d.tenant, level: 3, parent_tenant_id: c.tenant });
    expect((await api(b, 'GET', '/reseller-network/sub-resellers/delhi')).body.sub_reseller.id).toBe(d.tenant);
    for (const [who, target] of [[c, 'surat'], [s, d.tenant], [d, c.tenant], [b, 'erode'], [e, b.tenant], [c, c.tenant]] as const) {
      const res = await api(who, 'GET', `/reseller-network/sub-resellers/${target}`);
      expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { error: expect.any(String), code: 'NOT_FOUND', details: expect.any(Object) } });
    }
  });

  it('cross-tenant matrix: no member reaches another tenant\'s network routes, by X-Tenant or X-Effective-Tenant', async () => {
    const members = { b, c, d, s, e };
    for (const [fromName, from] of Object.entries(members)) {
      for (const [toName, to] of Object.entries({ owner, ...members })) {
        if (fromName === toName) continue;
        for (const p of ['/reseller-network/me', '/reseller-network/sub-resellers?scope=subtree', `/reseller-network/sub-resellers/${d.tenant}`]) {
          expect([401, 403]).toContain((await api({ tenant: to.tenant, token: from.token }, 'GET', p)).status);
          const switched = await api(from, 'GET', p, { 'x-effective-tenant': to.tenant });
          expect({ from: fromName, to: toName, p, status: switched.status, code: switched.body.code }).toEqual({ from: fromName, to: toName, p, status: 403, code: 'UNAUTHORIZED_CONTEXT' });
        }
      }
    }
  });

  it('a suspended sub-reseller and its subtree leave the lists; reactivated, they return', async () => {
    expect((await host.request('POST', `/reseller/sub-resellers/${b.tenant}/suspend`, {})).status).toBe(200);
    try {
      const all = await api(owner, 'GET', '/reseller-network/sub-resellers?scope=subtree');
      expect(ids(all.body.sub_resellers)).toEqual([e.tenant]);
      // B's suspended link cuts the chain above it: D still sees C and B, no longer the super admin.
      expect((await api(d, 'GET', '/reseller-network/me')).body.ancestors.map((a: { level: number }) => a.level)).toEqual([1, 2]);
    } finally {
      await host.request('POST', `/reseller/sub-resellers/${b.tenant}/reactivate`, {});
    }
    expect((await api(owner, 'GET', '/reseller-network/sub-resellers?scope=subtree')).body.total).toBe(5);
  });
});

describe('spec 2, Tools: ResellerNetwork 3', () => {
  it('the AI tool list offers the 3 network operations, not the related ones', async () => {
    const res = await host.request('GET', '/ai/agent/tools');
    const names = res.body.data.filter((t: { module: string }) => t.module === 'reseller_network').map((t: { name: string }) => t.name).sort();
    expect(names).toEqual(['reseller_network.get_sub_reseller', 'reseller_network.list_sub_resellers', 'reseller_network.my_position']);
  });
});
