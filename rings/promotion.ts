/**
 * Promotion (issue 4 item 4): `promote module@version [from ring A] to ring B`. Refused, with every
 * reason, when the platform range excludes this core, a dependency is not met inside ring B, the
 * version breaks callers of the one ring B releases without a major bump, the migrations do not
 * continue, or a tenant of B could not run it. Otherwise every tenant of B with the module installed
 * is migrated (all or nothing, see tenant-moves.ts) and only then does B get a new release.
 * Without `from`, the version comes straight from the registry (how a version enters the first ring).
 */
import semver from 'semver';
import { loadVersion, manifestReader, type LifecycleDeps } from './deps';
import { ringErrors } from './errors';
import { ringClaim } from './locks';
import type { OperationView, ProgressReporter } from './operations';
import { promotionRefusals, refuseNewProblems, type Refusal } from './release-checks';
import type { LifecycleOperation, Requester } from './ring-models';
import { moveAll, type Move } from './tenant-moves';

export interface PromoteRequest {
  alias: string;
  version: string;
  to: string;
  from?: string;
  requestedBy: Requester;
}

export const requesterLabel = (r: Requester) => (r.kind === 'system' ? 'system' : `${r.kind}:${r.id}`);

export class Promotions {
  constructor(private readonly deps: LifecycleDeps) {
    deps.operations.register('promote', (op, progress) => this.execute(op, progress));
  }

  async request(req: PromoteRequest): Promise<OperationView> {
    const plan = await this.plan(req);
    return this.deps.operations.create(
      {
        kind: 'promote',
        ring: req.to,
        alias: req.alias,
        version: req.version,
        params: { from_ring: req.from ?? null, from_version: plan.current, tenants: plan.tenants },
        requestedBy: req.requestedBy,
      },
      [ringClaim(req.to, req.alias)],
    );
  }

  /** Every check that can be made before anything moves; throws 422 PROMOTION_REFUSED with reasons. */
  async plan(req: PromoteRequest): Promise<{ current: string | null; tenants: number }> {
    const { rings, registry, modules } = this.deps;
    const { alias, version, to, from } = req;
    await rings.requireRing(to);
    if (from !== undefined) {
      await rings.requireRing(from);
      if (from === to) throw ringErrors.sameRing();
      const inSource = await rings.releasedVersion(from, alias);
      if (inSource !== version) {
        throw ringErrors.notInSourceRing(from, alias, version, inSource ?? null);
      }
    }
    await registry.require(alias, version);
    const release = await rings.current(to);
    const current = release.modules[alias] ?? null;
    if (current === version) throw ringErrors.alreadyReleased(to, alias, version);
    if (current && semver.lt(version, current)) {
      throw ringErrors.downgrade(to, alias, current, version);
    }
    const candidate = await loadVersion(this.deps, alias, version);
    const currentMod = current ? await loadVersion(this.deps, alias, current) : undefined;
    const reasons: Refusal[] = await promotionRefusals({ candidate, current: currentMod, ring: to, release: release.modules, manifestOf: manifestReader(this.deps) });
    const tenants = await rings.installedIn(to, alias);
    for (const t of tenants) {
      await modules.assertInstallable(t.tenantId, candidate).catch((err: Error) => reasons.push({ kind: 'tenant', message: `tenant ${t.tenantId}: ${err.message}` }));
    }
    // In every ring, with or without tenants: a package published before prefixes had owners is claimed here.
    if (!reasons.length) await modules.prefixes.claim(candidate.manifest).catch((err: Error) => reasons.push({ kind: 'routes', message: err.message }));
    if (reasons.length) throw ringErrors.promotionRefused(`Cannot promote ${alias}@${version} to ring ${to}`, reasons);
    return { current, tenants: tenants.length };
  }

  private async execute(op: LifecycleOperation, progress: ProgressReporter): Promise<Record<string, unknown>> {
    const { rings } = this.deps;
    const ring = op.ring!;
    const alias = op.alias!;
    const version = op.version!;
    const release = await rings.current(ring);
    const current = release.modules[alias] ?? null;
    if (current !== (op.params.from_version ?? null)) {
      throw ringErrors.promotionOutdated(ring, alias, current);
    }
    const moves: Move[] = (await rings.installedIn(ring, alias))
      .filter((t) => t.version !== version)
      .map((t) => ({ tenantId: t.tenantId, alias, from: t.version, to: version }));
    const report = await moveAll(this.deps, moves, progress, `promoting ${alias}@${version} to ring ${ring}`, ringErrors.promotionFailed, () =>
      rings.recordRelease(ring, {
        kind: 'promote',
        changes: [{ alias, from: current, to: version }],
        check: refuseNewProblems(manifestReader(this.deps), ringErrors.promotionRefused, `Cannot promote ${alias}@${version} to ring ${ring}`),
        previousId: release.id,
        operationId: op.id,
        createdBy: requesterLabel(op.requested_by),
      }),
    );
    const next = report.result;
    return { ring, module: alias, version, from: current, tenants_moved: report.moved, release: next.number, fingerprint: next.fingerprint };
  }
}
