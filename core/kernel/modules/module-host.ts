/**
 * Installs, moves and removes module versions per tenant and answers "which modules does this
 * tenant run". Installing checks the platform range and the dependencies against what the tenant
 * already has and claims the module's public prefix on the whole platform, then creates the
 * module's schema and runs its migrations in the tenant database; only then is the install
 * recorded, so a failure leaves the tenant as it was. Rolling back runs the down
 * migrations of the newer version back to the older version's last one, then records the older
 * version. This is the mechanism; which versions a tenant may run is decided by its ring (rings/).
 */
import { LRUCache } from 'lru-cache';
import semver from 'semver';
import { checkDependencies, contractIssues, formatIssues } from '../../../sdk/manifest';
import type { CentralDb } from '../data/central-db';
import type { TenantDatabases } from '../data/tenant-databases';
import type { PubSub } from '../drivers';
import { notFound } from '../errors';
import { moduleErrors } from './errors';
import type { Logger } from '../logger';
import type { ModuleDataService } from '../module-data';
import { assertCompatible, type LoadedModule } from './loaded-module';
import type { PublicPrefixOwners } from './public-prefix-owners';
import { TenantModules } from './tenant-modules';

const CHANGED_CHANNEL = 'mandi:modules:changed';

/** Where module versions come from: registered in process (development) or the registry. */
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
  /** Who owns each public prefix on the platform: claimed at publish, install, promotion and MODULE_PATHS. */
  readonly prefixes: PublicPrefixOwners;

  constructor(
    private readonly deps: { central: CentralDb; tenantDbs: TenantDatabases; source: ModuleSource; moduleData: ModuleDataService; pubsub: PubSub; logger: Logger; prefixes: PublicPrefixOwners },
  ) {
    this.prefixes = deps.prefixes;
  }

  async start(): Promise<void> {
    await this.deps.pubsub.subscribe(CHANGED_CHANNEL, (msg) => {
      this.cache.delete((msg as { tenantId: string }).tenantId);
    });
  }

  /** The cached answer of `modulesFor`, if there is one: lets the bus resolve a call without a promise. */
  cachedModulesFor(tenantId: string): TenantModules | undefined {
    return this.cache.get(tenantId);
  }

  /** The modules the tenant runs (cached; every node drops its copy when an install changes). */
  async modulesFor(tenantId: string): Promise<TenantModules> {
    const cached = this.cache.get(tenantId);
    if (cached) return cached;
    const rows = await this.deps.central.models.ModuleInstall.findAll({ where: { tenant_id: tenantId, status: 'installed' }, order: [['alias', 'ASC']] });
    const mods: LoadedModule[] = [];
    for (const row of rows) {
      // A package that fails its integrity check must not take the tenant's other modules down with it.
      const mod = await this.deps.source.get(row.alias, row.version).catch((err: unknown) => {
        this.deps.logger.error({ tenantId, module: `${row.alias}@${row.version}`, err }, 'installed module version cannot be loaded');
        return undefined;
      });
      if (mod) mods.push(mod);
      else this.deps.logger.error({ tenantId, module: `${row.alias}@${row.version}` }, 'installed module version is not available');
    }
    const set = new TenantModules(mods);
    this.cache.set(tenantId, set);
    return set;
  }

  /** The version to install: the one named, else the newest the source has. */
  async resolve(alias: string, version?: string): Promise<LoadedModule> {
    const mod = version ? await this.deps.source.get(alias, version) : await this.deps.source.latest(alias);
    if (!mod) {
      // Folders are named payment-razorpay, their aliases payment_razorpay (an alias holds no "-").
      const hint = alias.includes('-') ? ` Module aliases use underscores: ${alias.replace(/-/g, '_')}.` : '';
      throw notFound(`Module ${alias}${version ? `@${version}` : ''} is not available.${hint}`, { module: alias, version });
    }
    return mod;
  }

  /** Refuses, with every reason, a version that does not fit the core or the tenant's other modules. */
  async assertInstallable(tenantId: string, mod: LoadedModule): Promise<void> {
    assertCompatible(mod.manifest);
    // Again at install: the package may have been published before this host knew the contract.
    const contract = contractIssues(mod.manifest);
    if (contract.length) {
      throw moduleErrors.contractBroken(mod.key, formatIssues(contract).replace(/\n/g, '; '), mod.alias, contract);
    }
    const current = await this.modulesFor(tenantId);
    const next = [...current.list.filter((m) => m.alias !== mod.alias), mod];
    const problems = checkDependencies(next.map((m) => m.manifest)).filter((p) => p.kind !== 'duplicate');
    if (problems.length) {
      throw moduleErrors.dependencies(problems);
    }
    // Unique within the tenant's set above; across every tenant and ring here (a development module's first claim).
    await this.prefixes.claim(mod.manifest);
  }

  /** Installs the version, or upgrades to it from the installed one (up migrations only). */
  async install(tenantId: string, alias: string, version?: string): Promise<{ alias: string; version: string }> {
    const mod = await this.resolve(alias, version);
    await this.assertInstallable(tenantId, mod);
    const previous = (await this.modulesFor(tenantId)).byAlias.get(alias);
    if (previous) await this.deps.moduleData.upgrade(tenantId, previous, mod);
    else await this.deps.moduleData.install(tenantId, mod);
    await this.record(tenantId, alias, mod.manifest.version, 'installed');
    return { alias, version: mod.manifest.version };
  }

  /**
   * Moves the tenant back from its installed version to an older one: the installed version's down
   * migrations run (newest first, in one transaction) back to the older version's last migration;
   * tables and columns the newer version added stay, with their data.
   */
  async rollback(tenantId: string, alias: string, version: string): Promise<{ alias: string; version: string; from: string }> {
    const from = (await this.modulesFor(tenantId)).byAlias.get(alias);
    if (!from) throw notFound(`Module ${alias} is not installed.`, { module: alias });
    const to = await this.resolve(alias, version);
    await this.assertInstallable(tenantId, to);
    await this.deps.moduleData.rollback(tenantId, from, lastMigrationId(to));
    await this.record(tenantId, alias, to.manifest.version, 'installed');
    return { alias, version: to.manifest.version, from: from.manifest.version };
  }

  /** Refuses to uninstall a module that is not installed or that another installed module needs. */
  async assertUninstallable(tenantId: string, alias: string): Promise<LoadedModule> {
    const current = await this.modulesFor(tenantId);
    const mod = current.byAlias.get(alias);
    if (!mod) throw notFound(`Module ${alias} is not installed.`, { module: alias });
    const dependents = current.list.filter((m) => m.alias !== alias && m.manifest.dependencies?.[alias]);
    if (dependents.length) {
      throw moduleErrors.inUse(alias, dependents.map((m) => m.key), dependents.map((m) => m.alias));
    }
    return mod;
  }

  async uninstall(tenantId: string, alias: string, opts: { purge?: boolean } = {}): Promise<void> {
    const mod = await this.assertUninstallable(tenantId, alias);
    await this.deps.moduleData.uninstall(tenantId, alias, { purge: !!opts.purge });
    if (opts.purge) {
      // Its secrets and settings are its data too (core/kernel/secrets, core/kernel/module-settings; a secret setting is a module secret): purged with the rest.
      await this.deps.central.models.ModuleSecret.destroy({ where: { tenant_id: tenantId, module: alias } });
      await this.deps.tenantDbs.query(tenantId, 'DELETE FROM module_settings WHERE module = $1', [alias]);
      await this.deps.central.models.ModuleInstall.destroy({ where: { tenant_id: tenantId, alias } });
      // Its public tokens go with its data (kept data keeps them: a reinstall answers them again).
      await this.deps.central.models.ModulePublicToken.destroy({ where: { tenant_id: tenantId, alias } });
      this.changed(tenantId);
    } else await this.record(tenantId, alias, mod.manifest.version, 'uninstalled');
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

/** The id of the version's last migration: what a rollback to that version returns the data to. */
export function lastMigrationId(mod: LoadedModule): string | null {
  const list = mod.manifest.data?.migrations ?? [];
  return list.length ? list[list.length - 1].id : null;
}
