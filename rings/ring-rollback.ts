/**
 * Ring rollback (issue 4 item 4): the ring returns to the release before its current one. Every
 * tenant of the ring runs the version that release holds again (down migrations of the newer
 * version run), all or nothing; then the ring gets a new release equal to the old one, whose own
 * "previous" is the old one's, so rolling back again walks further back through the history.
 */
import semver from 'semver';
import { checkPlatform, PLATFORM_VERSION } from '../sdk/manifest';
import { loadVersion, manifestReader, type LifecycleDeps } from './deps';
import { ringErrors } from './errors';
import { ringClaim } from './locks';
import type { OperationView, ProgressReporter } from './operations';
import { requesterLabel } from './promotion';
import { migrationProblem, newReleaseProblems, refuseNewProblems, type Refusal } from './release-checks';
import type { LifecycleOperation, ReleaseChange, ReleaseModules, Requester } from './ring-models';
import { moveAll, type Move } from './tenant-moves';

function diff(from: ReleaseModules, to: ReleaseModules): ReleaseChange[] {
  const aliases = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort();
  return aliases.filter((a) => from[a] !== to[a]).map((alias) => ({ alias, from: from[alias] ?? null, to: to[alias] ?? null }));
}

export class RingRollbacks {
  constructor(private readonly deps: LifecycleDeps) {
    deps.operations.register('ring_rollback', (op, progress) => this.execute(op, progress));
  }

  async request(ring: string, requestedBy: Requester): Promise<OperationView> {
    const plan = await this.plan(ring);
    return this.deps.operations.create(
      {
        kind: 'ring_rollback',
        ring,
        alias: plan.changes.length === 1 ? plan.changes[0].alias : null,
        version: plan.changes.length === 1 ? plan.changes[0].to : null,
        params: { release_id: plan.releaseId, to_release_id: plan.toReleaseId, changes: plan.changes },
        requestedBy,
      },
      plan.changes.map((c) => ringClaim(ring, c.alias)),
    );
  }

  async plan(ring: string): Promise<{ releaseId: number; toReleaseId: number; changes: ReleaseChange[] }> {
    const { rings, modules } = this.deps;
    const release = await rings.current(ring);
    const previous = release.previous_id ? await rings.release(release.previous_id) : undefined;
    if (!previous) throw ringErrors.noEarlierRelease(ring);
    const changes = diff(release.modules, previous.modules);
    const reasons: Refusal[] = [];
    for (const p of await newReleaseProblems(release.modules, previous.modules, manifestReader(this.deps))) reasons.push({ ...p, message: `in ring ${ring}: ${p.message}` });
    for (const c of changes) {
      const tenants = await rings.installedIn(ring, c.alias);
      if (c.to === null) {
        if (tenants.length) {
          reasons.push({
            kind: 'installed',
            message: `${tenants.length} tenant(s) of ring ${ring} have ${c.alias} installed, which the earlier release does not hold; uninstall it from them first`,
          });
        }
        continue;
      }
      const target = await loadVersion(this.deps, c.alias, c.to);
      const platform = checkPlatform(target.manifest, PLATFORM_VERSION);
      if (platform) reasons.push({ kind: 'platform', message: platform.message });
      for (const t of tenants.filter((t) => t.version !== c.to)) {
        const installed = await loadVersion(this.deps, c.alias, t.version);
        const [older, newer] = semver.lt(c.to, t.version) ? [target, installed] : [installed, target];
        const problem = migrationProblem(older, newer);
        if (problem) reasons.push({ ...problem, message: `tenant ${t.tenantId}: ${problem.message}` });
        await modules.assertInstallable(t.tenantId, target).catch((err: Error) => reasons.push({ kind: 'tenant', message: `tenant ${t.tenantId}: ${err.message}` }));
      }
    }
    if (reasons.length) throw ringErrors.rollbackRefused(`Cannot roll ring ${ring} back to release ${previous.number}`, reasons);
    return { releaseId: release.id, toReleaseId: previous.id, changes };
  }

  private async execute(op: LifecycleOperation, progress: ProgressReporter): Promise<Record<string, unknown>> {
    const { rings } = this.deps;
    const ring = op.ring!;
    const release = await rings.current(ring);
    if (release.id !== op.params.release_id) {
      throw ringErrors.rollbackOutdated(ring);
    }
    const previous = (await rings.release(op.params.to_release_id as number))!;
    const changes = op.params.changes as ReleaseChange[];
    const moves: Move[] = [];
    for (const c of changes) {
      if (c.to === null) continue;
      for (const t of await rings.installedIn(ring, c.alias)) {
        if (t.version !== c.to) moves.push({ tenantId: t.tenantId, alias: c.alias, from: t.version, to: c.to });
      }
    }
    const report = await moveAll(this.deps, moves, progress, `rolling ring ${ring} back to release ${previous.number}`, ringErrors.rollbackFailed, () =>
      // Only the modules this rollback changes go back; another module's promotion recorded meanwhile stays.
      rings.recordRelease(ring, {
        kind: 'rollback',
        changes,
        check: refuseNewProblems(manifestReader(this.deps), ringErrors.rollbackRefused, `Cannot roll ring ${ring} back to release ${previous.number}`),
        previousId: previous.previous_id,
        operationId: op.id,
        createdBy: requesterLabel(op.requested_by),
      }),
    );
    const next = report.result;
    return { ring, changes, tenants_moved: report.moved, release: next.number, returned_to: previous.number, fingerprint: next.fingerprint };
  }
}
