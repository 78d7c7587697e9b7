/**
 * Screen definitions from their providers (spec 1: "A provider supplies a definition (optionally
 * using a context)"), cached for SCREEN_DEFINITION_CACHE_TTL seconds (default 300, spec 1 Limits) in
 * the drivers' cache, so every node shares them when Redis is configured.
 *   file        the JSON file in the module's package; one entry per module version and screen.
 *   definition  an operation the module provides, called as the requesting user with
 *               {context: {screen_id, tenant_id, ring}}; one entry per tenant, module version and
 *               screen (the result may depend on the tenant's data, not on the user). A later user
 *               served from the cache must still hold the operation's permission.
 * The key carries alias@version, so an upgrade or ring change is never served an old definition.
 */
import { matchesConsumes } from '../../../sdk/manifest';
import { hasPermission } from '../../kernel/auth/authenticate';
import type { Cache } from '../../kernel/drivers';
import { forbidden } from '../../kernel/errors';
import { catalogErrors } from './errors';
import type { LoadedModule } from '../../kernel/modules/loaded-module';
import { normaliseDefinition, type ScreenDefinition } from './screen-definition';
import type { CatalogScreen } from './screen-entries';
import type { UserCall } from './user-calls';

/** Operations a module's screens may name: its own, or ones its manifest consumes. */
export function assertScreenMayCall(mod: LoadedModule, screenId: string, op: string): void {
  if (op.startsWith(`${mod.alias}.`) || matchesConsumes(mod.manifest.api?.consumes ?? [], op)) return;
  throw catalogErrors.invalidDefinition(screenId, [`"${op}" is neither an operation of ${mod.alias} nor in its api.consumes`]);
}

export class ScreenDefinitions {
  constructor(private readonly deps: { cache: Cache; ttlSeconds: number; call: UserCall }) {}

  async get(tenant: { id: string; ring: string }, screen: CatalogScreen, mod: LoadedModule): Promise<ScreenDefinition> {
    const { entry, provider } = screen;
    if (provider?.file) {
      const file = provider.file;
      return this.cached(`screens:definition:${mod.key}:${entry.id}`, async () => {
        let raw: unknown;
        try {
          raw = JSON.parse(await mod.files.read(file));
        } catch (err) {
          throw catalogErrors.invalidDefinition(entry.id, [`${file} could not be read as JSON: ${(err as Error).message}`]);
        }
        return normaliseDefinition(entry, raw, this.deps.ttlSeconds);
      });
    }
    if (provider?.definition) {
      const op = provider.definition;
      const permission = mod.operations.get(op)?.permission;
      if (permission && !hasPermission(permission)) throw forbidden(`This screen requires the permission "${permission}".`, { permission });
      return this.cached(`screens:definition:${tenant.id}:${mod.key}:${entry.id}`, async () =>
        normaliseDefinition(entry, await this.deps.call(op, { context: { screen_id: entry.id, tenant_id: tenant.id, ring: tenant.ring } }), this.deps.ttlSeconds),
      );
    }
    throw catalogErrors.noDefinitionProvider(entry.id);
  }

  private cached(key: string, build: () => Promise<ScreenDefinition>): Promise<ScreenDefinition> {
    return this.deps.ttlSeconds > 0 ? this.deps.cache.wrap(key, this.deps.ttlSeconds, build) : build();
  }
}
