/** What the ring lifecycle parts share: the module host, the sources, the registry and the rings. */
import type { CentralDb } from '../core/kernel/data/central-db';
import type { Logger } from '../core/kernel/logger';
import type { ModuleHost } from '../core/kernel/modules/module-host';
import type { ModuleSources } from '../core/kernel/modules/module-sources';
import type { LoadedModule } from '../core/kernel/modules/loaded-module';
import { notFound } from '../core/kernel/errors';
import type { TenantService } from '../core/kernel/tenancy/tenant-service';
import type { Manifest } from '../sdk/manifest';
import type { RegistryService } from '../registry/registry-service';
import type { Operations } from './operations';
import type { RingService } from './ring-service';

export interface LifecycleDeps {
  central: CentralDb;
  modules: ModuleHost;
  source: ModuleSources;
  registry: RegistryService;
  rings: RingService;
  operations: Operations;
  tenants: TenantService;
  logger: Logger;
}

/**
 * Whether the alias is released through rings: it is in the registry and not a development module
 * registered in process (those, from MODULE_PATHS or tests, stay outside ring control).
 */
export async function ringManaged(deps: LifecycleDeps, alias: string): Promise<boolean> {
  return !deps.source.isLocal(alias) && (await deps.registry.has(alias));
}

export async function loadVersion(deps: LifecycleDeps, alias: string, version: string): Promise<LoadedModule> {
  const mod = await deps.source.get(alias, version);
  if (!mod) throw notFound(`Module ${alias}@${version} is not available.`, { module: alias, version });
  return mod;
}

/** Manifests by alias@version from the registry rows (no package download needed). */
export function manifestReader(deps: LifecycleDeps): (alias: string, version: string) => Promise<Manifest> {
  const seen = new Map<string, Manifest>();
  return async (alias, version) => {
    const key = `${alias}@${version}`;
    if (!seen.has(key)) seen.set(key, (await deps.registry.require(alias, version)).manifest);
    return seen.get(key)!;
  };
}


/** An error that carries what the operation did before failing, kept as the operation's result. */
export function withResult(err: unknown, result: Record<string, unknown>): unknown {
  if (err && typeof err === 'object') (err as { operationResult?: Record<string, unknown> }).operationResult = result;
  return err;
}
