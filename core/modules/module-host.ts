/**
 * Installs and removes module versions per tenant and answers "which modules does this tenant
 * run". Installing checks the platform range and the dependencies against what the tenant already
 * has, then creates the module's schema and runs its migrations in the tenant database; only then
 * is the install recorded, so a failure leaves the tenant as it was.
 */
import { LRUCache } from 'lru-cache';
import semver from 'semver';
import { checkDependencies } from '../../sdk/manifest';
import type { CentralDb } from '../data/central-db';
import type { PubSub } from '../drivers';
import { MandiError, notFound } from '../errors';
import type { Logger } from '../logger';
import type { ModuleDataService } from '../module-data';
import { assertCompatible, type LoadedModule } from './loaded-module';
import { TenantModules } from './tenant-modules';

const CHANGED_CHANNEL = 'mandi:modules:changed';

/** Where module versions come from: registered in process now, the registry later. */
export interface ModuleSource {
  get(alias: string, version: string): Promise<LoadedModule | undefined>;
  latest(alias: string): Promise<LoadedModule | undefined>;
}

export class InProcessModuleSource implements ModuleSource {
  private readonly versions = new Map<string, Map<string, LoadedModule>>();

  add(mod: LoadedModule): void {
    assertCompatible(mod.manifest);
    const byVersion = this.versions.get(mod.alias) ?? new Map<string, LoadedModule>();
    byVersion.set(mod.manifest.version, mod);
    this.versions.set(mod.alias, byVersion);
  }

  /** Every module and its versions, newest first. */
  catalog(): Array<{ alias: string; versions: string[] }> {
    return [...this.versions.entries()].map(([alias, byVersion]) => ({ alias, versions: semver.rsort([...byVersion.keys()]) }));
  }

  async get(alias: string, version: string): Promise<LoadedModule | undefined> {
    return this.versions.get(alias)?.get(version);
  }

  async latest(alias: string): Promise<LoadedModule | undefined> {
    const byVersion = this.versions.get(alias);
    if (!byVersion) return undefined;
    const newest = semver.rsort([...byVersion.keys()])[0];
    return byVersion.get(newest);
  }
}

export class ModuleHost {
  private readonly cache = new LRUCache<string, TenantModules>({ max: 10_000, ttl: 300_000 });

  constructor(
    private readonly deps: { central: CentralDb; source: ModuleSource; moduleData: ModuleDataService; pubsub: PubSub; logger: Logger },
  ) {}

  async start(): Promise<void> {
    await this.deps.pubsub.subscribe(CHANGED_CHANNEL, (msg) => {
      this.cache.delete((msg as { tenantId: string }).tenantId);
    });
  }

  /** The modules the tenant runs (cached; every node drops its copy when an install changes). */
  async modulesFor(tenantId: string): Promise<TenantModules> {
    const cached = this.cache.get(tenantId);
    if (cached) return cached;
    const rows = await this.deps.central.models.ModuleInstall.findAll({ where: { tenant_id: tenantId, status: 'installed' }, order: [['alias', 'ASC']] });
    const mods: LoadedModule[] = [];
    for (const row of rows) {
      const mod = await this.deps.source.get(row.alias, row.version);
      if (mod) mods.push(mod);
      else this.deps.logger.error({ tenantId, module: `${row.alias}@${row.version}` }, 'installed module version is not available');
    }
    const set = new TenantModules(mods);
    this.cache.set(tenantId, set);
    return set;
  }

  async install(tenantId: string, alias: string, version?: string): Promise<{ alias: string; version: string }> {
    const mod = version ? await this.deps.source.get(alias, version) : await this.deps.source.latest(alias);
    if (!mod) throw notFound(`Module ${alias}${version ? `@${version}` : ''} is not available.`, { module: alias, version });
    assertCompatible(mod.manifest);
    const current = await this.modulesFor(tenantId);
    const next = [...current.list.filter((m) => m.alias !== alias), mod];
    const problems = checkDependencies(next.map((m) => m.manifest)).filter((p) => p.kind !== 'duplicate');
    if (problems.length) {
      throw new MandiError('MODULE_DEPENDENCIES', problems.map((p) => p.message).join('; '), 422, { problems });
    }
    const previous = current.byAlias.get(alias);
    if (previous) await this.deps.moduleData.upgrade(tenantId, previous, mod);
    else await this.deps.moduleData.install(tenantId, mod);
    await this.record(tenantId, alias, mod.manifest.version, 'installed');
    return { alias, version: mod.manifest.version };
  }

  async uninstall(tenantId: string, alias: string, opts: { purge?: boolean } = {}): Promise<void> {
    const current = await this.modulesFor(tenantId);
    if (!current.byAlias.has(alias)) throw notFound(`Module ${alias} is not installed.`, { module: alias });
    const dependents = current.list.filter((m) => m.alias !== alias && m.manifest.dependencies?.[alias]);
    if (dependents.length) {
      throw new MandiError('MODULE_IN_USE', `Module ${alias} is needed by ${dependents.map((m) => m.key).join(', ')}; uninstall those first.`, 409, {
        dependents: dependents.map((m) => m.alias),
      });
    }
    await this.deps.moduleData.uninstall(tenantId, alias, { purge: !!opts.purge });
    const version = current.byAlias.get(alias)!.manifest.version;
    if (opts.purge) {
      await this.deps.central.models.ModuleInstall.destroy({ where: { tenant_id: tenantId, alias } });
      this.changed(tenantId);
    } else await this.record(tenantId, alias, version, 'uninstalled');
  }

  private async record(tenantId: string, alias: string, version: string, status: string): Promise<void> {
    await this.deps.central.models.ModuleInstall.upsert(
      { tenant_id: tenantId, alias, version, status, updated_at: new Date() },
      { conflictFields: ['tenant_id', 'alias'] },
    );
    this.changed(tenantId);
  }

  private changed(tenantId: string): void {
    this.cache.delete(tenantId);
    void this.deps.pubsub.publish(CHANGED_CHANNEL, { tenantId });
  }
}
