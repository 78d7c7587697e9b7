/**
 * One tenant's module lifecycle (issue 4 item 3): install, upgrade, rollback and uninstall, each
 * checked when asked (so a refusal comes back at once, with its reasons) and then run as a job.
 *
 * For modules released through rings, the tenant's ring decides the version: install and upgrade
 * take the version the ring's current release holds (naming another is refused), and rollback goes
 * back to a version the ring released before. Development modules (registered in process) install at
 * any version they have.
 */
import semver from 'semver';
import { notFound } from '../core/kernel/errors';
import type { LoadedModule } from '../core/kernel/modules/loaded-module';
import { loadVersion, ringManaged, type LifecycleDeps } from './deps';
import { ringErrors } from './errors';
import { tenantClaim } from './locks';
import type { OperationView, ProgressReporter } from './operations';
import { migrationProblem } from './release-checks';
import type { LifecycleOperation, Requester } from './ring-models';

export type TenantAction = 'install' | 'upgrade' | 'rollback' | 'uninstall';

export interface TenantRequest {
  tenantId: string;
  alias: string;
  action: TenantAction;
  version?: string;
  purge?: boolean;
  requestedBy: Requester;
}

interface Plan {
  ring: string;
  version: string;
  from: string | null;
}

export class TenantLifecycle {
  constructor(private readonly deps: LifecycleDeps) {
    for (const kind of ['install', 'upgrade', 'rollback', 'uninstall'] as const) {
      deps.operations.register(kind, (op, progress) => this.execute(op, progress));
    }
  }

  /** Checks the request, then queues it; refusals throw before anything is queued. */
  async request(req: TenantRequest): Promise<OperationView> {
    const plan = await this.plan(req);
    return this.deps.operations.create(
      {
        kind: req.action,
        ring: plan.ring,
        alias: req.alias,
        version: plan.version,
        tenantId: req.tenantId,
        params: { from: plan.from, ...(req.action === 'uninstall' ? { purge: !!req.purge } : {}) },
        requestedBy: req.requestedBy,
      },
      [tenantClaim(req.tenantId, req.alias, [plan.ring])],
    );
  }

  async plan(req: TenantRequest): Promise<Plan> {
    const { modules, rings } = this.deps;
    const { tenantId, alias } = req;
    const ring = await rings.ringOfTenant(tenantId);
    const managed = await ringManaged(this.deps, alias);
    const installed = (await modules.modulesFor(tenantId)).byAlias.get(alias);
    const from = installed?.manifest.version ?? null;

    if (req.action === 'uninstall') {
      const mod = await modules.assertUninstallable(tenantId, alias);
      return { ring, version: mod.manifest.version, from };
    }
    if (req.action !== 'install' && !installed) throw notFound(`Module ${alias} is not installed.`, { module: alias });

    let target: LoadedModule;
    if (req.action === 'rollback') {
      target = await this.rollbackTarget(ring, managed, installed!, req.version);
      const problem = migrationProblem(target, installed!);
      if (problem) throw ringErrors.rollbackRefused(`Cannot roll ${alias} back to ${target.manifest.version}`, [problem]);
    } else {
      target = managed ? await this.ringVersion(ring, alias, req.version) : await modules.resolve(alias, req.version);
      if (req.action === 'upgrade') {
        if (!semver.gt(target.manifest.version, from!)) {
          throw ringErrors.nothingToUpgrade(alias, from!, target.manifest.version, managed ? ring : null);
        }
        const problem = migrationProblem(installed!, target);
        if (problem) throw ringErrors.upgradeRefused(`Cannot upgrade ${alias} to ${target.manifest.version}`, [problem]);
      }
    }
    await modules.assertInstallable(tenantId, target);
    return { ring, version: target.manifest.version, from };
  }

  private async ringVersion(ring: string, alias: string, asked: string | undefined): Promise<LoadedModule> {
    const released = await this.deps.rings.releasedVersion(ring, alias);
    if (!released) {
      throw ringErrors.moduleNotInRing(ring, alias);
    }
    if (asked && asked !== released) {
      throw ringErrors.versionNotInRing(ring, alias, released, asked);
    }
    return loadVersion(this.deps, alias, released);
  }

  /** The version to roll back to: the one asked for, else the newest older one allowed. */
  private async rollbackTarget(ring: string, managed: boolean, installed: LoadedModule, asked: string | undefined): Promise<LoadedModule> {
    const alias = installed.alias;
    const current = installed.manifest.version;
    const allowed = managed
      ? await this.deps.rings.releasedEver(ring, alias)
      : (this.deps.source.catalog().find((m) => m.alias === alias)?.versions ?? []);
    const older = semver.rsort(allowed.filter((v) => semver.lt(v, current)));
    const version = asked ?? older[0];
    if (!version) {
      throw ringErrors.noOlderVersion(alias, current, managed ? ring : null);
    }
    if (!older.includes(version)) {
      throw ringErrors.versionNotAllowed(alias, version, older, managed ? ring : null);
    }
    return loadVersion(this.deps, alias, version);
  }

  private async execute(op: LifecycleOperation, progress: ProgressReporter): Promise<Record<string, unknown>> {
    const { modules } = this.deps;
    const tenantId = op.tenant_id!;
    const alias = op.alias!;
    const version = op.version!;
    const installed = (await modules.modulesFor(tenantId)).byAlias.get(alias)?.manifest.version ?? null;
    await progress(0, 1, `${op.kind} ${alias}@${version} in tenant ${tenantId}`);
    switch (op.kind) {
      case 'uninstall':
        await modules.uninstall(tenantId, alias, { purge: !!op.params.purge });
        break;
      case 'rollback':
        await modules.rollback(tenantId, alias, version);
        break;
      default:
        // An install of an older version than the tenant runs (its ring went back meanwhile) rolls back.
        if (installed && semver.lt(version, installed)) await modules.rollback(tenantId, alias, version);
        else await modules.install(tenantId, alias, version);
    }
    await progress(1, 1, `${alias}@${version}: ${op.kind} done in tenant ${tenantId}`);
    return { tenant_id: tenantId, module: alias, version: op.kind === 'uninstall' ? null : version, from: installed, ...(op.kind === 'uninstall' ? { purged: !!op.params.purge } : {}) };
  }
}
