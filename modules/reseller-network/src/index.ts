/**
 * reseller_network (spec 3, reseller network): the chain as one tenant sees it, on the host's tenant
 * relationships (SDK guide, docs/guides/10-related-tenants.md): its own place (level, parent, the levels above it),
 * and the sub-resellers below it, directly or through the whole subtree. Nothing is stored: every
 * answer is asked of the host (related_parent, related_children) and of this module's copies in
 * related tenants, one level at a time, so a tenant sees exactly its ancestors' names and its own
 * subtree, never a sibling's or a cousin's. The 3 ResellerNetwork tools of spec 2.
 */
import { defineModule, operation, related, Type, type HandlerContext } from '../../../sdk';
import { forbidden, notFound } from './errors';

const READ = { error_shape: 'reseller', rate_limit: '100/60' } as const;
const MAX_SUBTREE = 2000;

const Tenant = Type.Object({ id: Type.String(), name: Type.String(), alias: Type.Union([Type.String(), Type.Null()]), level: Type.Integer() });
/** A level of the chain above a tenant: the organisation name, as the breakdown shows it. */
const Level = Type.Object({ id: Type.String(), name: Type.String(), level: Type.Integer() });
type LevelT = typeof Level.static;

/** This tenant as the host knows it (its reseller level; null outside the network). */
const thisTenant = async (ctx: HandlerContext): Promise<LevelT> => {
  const me = await ctx.host.call<{ id: string; name: string; reseller_level: number | null }>('platform.get_tenant', {});
  return { id: me.id, name: me.name, level: me.reseller_level ?? 0 };
};

/** The levels from 0 down to the parent, asked of the parent (which asks its own, and so on). */
async function ancestors(ctx: HandlerContext, parentId: string | undefined): Promise<LevelT[]> {
  if (!parentId) return [];
  return (await related(ctx.host).call<{ ancestors: LevelT[] }>(parentId, 'reseller_network.ancestors_for_child', {})).ancestors;
}
const SubReseller = Type.Object({
  id: Type.String(),
  name: Type.String(),
  alias: Type.Union([Type.String(), Type.Null()]),
  level: Type.Integer(),
  parent_tenant_id: Type.String(),
  status: Type.String({ description: 'active: reachable through the chain (suspended ones are not listed: GET /reseller/sub-resellers shows them)' }),
  sub_resellers_count: Type.Integer({ description: 'direct sub-resellers' }),
});
type SubResellerT = typeof SubReseller.static;
type TenantT = typeof Tenant.static;

async function allChildren(ctx: HandlerContext): Promise<TenantT[]> {
  const out: TenantT[] = [];
  for (let page = 1; ; page++) {
    const found = await related(ctx.host).children({ page, per_page: 100 });
    out.push(...found.tenants);
    if (page >= found.pagination.last_page) return out;
  }
}

/** This tenant's direct sub-resellers with their own counts, and (subtree) everything below them. */
async function below(ctx: HandlerContext, subtree: boolean): Promise<SubResellerT[]> {
  const children = await allChildren(ctx);
  const out: SubResellerT[] = [];
  for (const c of children) {
    // Each child answers for its own subtree (a parent may call any descendant; we go one level at a time).
    const theirs = await related(ctx.host).call<{ sub_resellers: SubResellerT[]; direct: number }>(c.id, 'reseller_network.subtree_for_parent', { subtree });
    out.push({ ...c, parent_tenant_id: ctx.tenantId, status: 'active', sub_resellers_count: theirs.direct }, ...theirs.sub_resellers);
    if (out.length > MAX_SUBTREE) break;
  }
  return out.sort((a, b) => a.level - b.level);
}

export default defineModule({
  name: 'reseller_network',
  version: '1.0.0',
  description: 'Reseller network: the chain as a tenant sees it (its level, parent and the levels above) and its sub-resellers (spec 3).',
  compatibility: { platform: '^2.0.0' },
  main: 'dist/index.js',
  permissions: [{ name: 'network.view', description: "See this tenant's place in the reseller chain and its sub-resellers." }],
  operations: {
    my_position: operation({
      description: "This tenant's place in the reseller chain: its level, its parent, and the levels above it (0, the super admin, first).",
      permission: 'network.view',
      input: Type.Object({}, { additionalProperties: false }),
      output: Type.Object({ tenant: Level, parent: Type.Union([Tenant, Type.Null()]), ancestors: Type.Array(Level), sub_resellers_count: Type.Integer() }),
      http: { method: 'GET', path: '/reseller-network/me', ...READ },
      async handler(_input, ctx) {
        const { tenant: parent } = await related(ctx.host).parent();
        const children = await related(ctx.host).children({ page: 1, per_page: 1 });
        return { tenant: await thisTenant(ctx), parent, ancestors: await ancestors(ctx, parent?.id), sub_resellers_count: children.pagination.total };
      },
    }),

    list_sub_resellers: operation({
      description: 'The sub-resellers below this tenant: directly (scope direct, the default) or the whole subtree, by level.',
      permission: 'network.view',
      input: Type.Object({ scope: Type.Optional(Type.StringEnum(['direct', 'subtree'])) }, { additionalProperties: false }),
      output: Type.Object({ sub_resellers: Type.Array(SubReseller), total: Type.Integer() }),
      http: { method: 'GET', path: '/reseller-network/sub-resellers', ...READ },
      async handler(input, ctx) {
        const list = await below(ctx, input.scope === 'subtree');
        return { sub_resellers: list, total: list.length };
      },
    }),

    get_sub_reseller: operation({
      description: 'One sub-reseller anywhere below this tenant, by id or alias; 404 for any other tenant.',
      permission: 'network.view',
      input: Type.Object({ id: Type.String({ minLength: 1, maxLength: 63 }) }, { additionalProperties: false }),
      output: Type.Object({ sub_reseller: SubReseller }),
      http: { method: 'GET', path: '/reseller-network/sub-resellers/:id', ...READ },
      async handler(input, ctx) {
        const key = input.id.trim().toLowerCase();
        const hit = (await below(ctx, true)).find((s) => s.id === input.id || s.alias === key);
        if (!hit) throw notFound(input.id);
        return { sub_reseller: hit };
      },
    }),

    ancestors_for_child: operation({
      description: 'Runs in the parent for a direct sub-reseller (related call): the levels from 0 down to this tenant.',
      // Reached only by the same module in a related tenant: on no edge.
      graphql_expose: false,
      ai_tool: false,
      related: true,
      input: Type.Object({}, { additionalProperties: false }),
      output: Type.Object({ ancestors: Type.Array(Level) }),
      async handler(_input, ctx) {
        if (!ctx.relatedFrom || !(await allChildren(ctx)).some((c) => c.id === ctx.relatedFrom)) throw forbidden('Only a direct sub-reseller may ask for its ancestors.');
        const { tenant: parent } = await related(ctx.host).parent();
        return { ancestors: [...(await ancestors(ctx, parent?.id)), await thisTenant(ctx)] };
      },
    }),

    subtree_for_parent: operation({
      description: 'Runs in a sub-reseller for its parent (related call): its direct sub-resellers count and, for a subtree, everything below it.',
      // Reached only by the same module in a related tenant: on no edge.
      graphql_expose: false,
      ai_tool: false,
      related: true,
      input: Type.Object({ subtree: Type.Boolean() }, { additionalProperties: false }),
      output: Type.Object({ sub_resellers: Type.Array(SubReseller), direct: Type.Integer() }),
      async handler(input, ctx) {
        const { tenant: parent } = await related(ctx.host).parent();
        if (!ctx.relatedFrom || parent?.id !== ctx.relatedFrom) throw forbidden('Only the direct parent may ask for this subtree.');
        const direct = (await related(ctx.host).children({ page: 1, per_page: 1 })).pagination.total;
        return { sub_resellers: input.subtree ? await below(ctx, true) : [], direct };
      },
    }),
  },
  limits: { memory_mb: 64, timeout_ms: 15_000 },
});
