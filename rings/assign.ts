/**
 * Moving a tenant to another ring (issue 4 item 2: admins move tenants between rings). The tenant
 * then runs what its new ring releases: every installed module released through rings moves to the
 * new ring's version (up or down migrations), all or nothing, and only then does `tenants.ring`
 * change. Refused when the new ring does not release a module the tenant has installed.
 */
import semver from 'semver';
import { notFound } from '../core/kernel/errors';
import type { LoadedModule } from '../core/kernel/modules/loaded-module';
import { checkDependencies } from '../sdk/manifest';
import { loadVersion, ringManaged, type LifecycleDeps } from './deps';
import { ringErrors } from './errors';
import { tenantClaim } from './locks';
import type { OperationView, ProgressReporter } from './operations';
import { migrationProblem, setRefusal, type Refusal } from './release-checks';
import type { LifecycleOperation, Requester } from './ring-models';
import { moveAll, type Move } from './tenant-moves';

/** How many modules each one depends on, transitively, within the set (0: depends on none of them). */
function depths(mods: readonly LoadedModule[]): Map<string, number> {
  const byAlias = new Map(mods.map((m) => [m.alias, m]));
  const memo = new Map<string, number>();
  const depth = (alias: string, seen: Set<string>): number => {
    if (memo.has(alias)) return memo.get(alias)!;
    if (seen.has(alias)) return 0;
    seen.add(alias);
    const deps = Object.keys(byAlias.get(alias)?.manifest.dependencies ?? {}).filter((d) => byAlias.has(d));
    const d = deps.length ? 1 + Math.max(...deps.map((x) => depth(x, seen))) : 0;
    memo.set(alias, d);
    return d;
  };
  for (const m of mods) depth(m.alias, new Set());
  return memo;
}

export class RingAssignments {
  constructor(private readonly deps: LifecycleDeps) {
    deps.operations.register('assign', (op, progress) => this.execute(op, progress));
  }

  async request(tenantId: string, ring: string, requestedBy: Requester): Promise<OperationView> {
    const plan = await this.plan(tenantId, ring);
    return this.deps.operations.create(
      { kind: 'assign', ring, tenantId, params: { from_ring: plan.fromRing, moves: plan.moves }, requestedBy },
      [tenantClaim(tenantId, '*', [plan.fromRing, ring]), ...plan.aliases.map((a) => tenantClaim(tenantId, a, [plan.fromRing, ring]))],
    );
  }

  async plan(tenantId: string, ring: string): Promise<{ fromRing: string; moves: Move[]; aliases: string[] }> {
    const { rings, modules, central } = this.deps;
    await rings.requireRing(ring);
    const tenant = await central.models.Tenant.findByPk(tenantId, { attributes: ['id', 'ring'] });
    if (!tenant) throw notFound(`Tenant ${tenantId} not found.`);
    if (tenant.ring === ring) throw ringErrors.alreadyInRing(tenantId, ring);
    const release = (await rings.current(ring)).modules;
    const installed = (await modules.modulesFor(tenantId)).list;
    const reasons: Refusal[] = [];
    const moves: Move[] = [];
    const aliases: string[] = [];
    const finalSet: LoadedModule[] = [];
    for (const mod of installed) {
      if (!(await ringManaged(this.deps, mod.alias))) {
        finalSet.push(mod);
        continue;
      }
      aliases.push(mod.alias);
      const to = release[mod.alias];
      if (!to) {
        reasons.push({ kind: 'installed', message: `ring ${ring} does not release ${mod.alias}, which tenant ${tenantId} has installed; uninstall it first or promote it into ${ring}` });
        continue;
      }
      const target = to === mod.manifest.version ? mod : await loadVersion(this.deps, mod.alias, to);
      finalSet.push(target);
      if (target === mod) continue;
      const [older, newer] = semver.lt(to, mod.manifest.version) ? [target, mod] : [mod, target];
      const problem = migrationProblem(older, newer);
      if (problem) reasons.push(problem);
      moves.push({ tenantId, alias: mod.alias, from: mod.manifest.version, to });
    }
    for (const p of checkDependencies(finalSet.map((m) => m.manifest))) {
      if (p.kind !== 'duplicate') reasons.push({ ...setRefusal(p), message: `in ring ${ring}: ${p.message}` });
    }
    if (reasons.length) throw ringErrors.assignRefused(`Cannot move tenant ${tenantId} to ring ${ring}`, reasons);
    // Down moves first, dependents before their dependencies; then up moves, dependencies first.
    const depth = depths(finalSet);
    const down = moves.filter((m) => semver.lt(m.to, m.from)).sort((a, b) => depth.get(b.alias)! - depth.get(a.alias)!);
    const up = moves.filter((m) => semver.gt(m.to, m.from)).sort((a, b) => depth.get(a.alias)! - depth.get(b.alias)!);
    return { fromRing: tenant.ring, moves: [...down, ...up], aliases };
  }

  private async execute(op: LifecycleOperation, progress: ProgressReporter): Promise<Record<string, unknown>> {
    const tenantId = op.tenant_id!;
    const ring = op.ring!;
    // Planned again now: a promotion may have changed the new ring's release since the request.
    const plan = await this.plan(tenantId, ring);
    const report = await moveAll(this.deps, plan.moves, progress, `moving tenant ${tenantId} to ring ${ring}`, ringErrors.assignFailed, () => this.deps.rings.moveTenant(tenantId, ring));
    return { tenant_id: tenantId, from_ring: plan.fromRing, ring, moves: plan.moves, modules_moved: report.moved };
  }
}
