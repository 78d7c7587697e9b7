/**
 * Compiled schemas, one per (ring, module fingerprint), under `graphql:schema:<ring>:<fingerprint>`
 * for `graphql.schema_cache.ttl` seconds (spec 1, Limits; Versioning 3). The ring is part of the key,
 * so rings never share a compiled schema even when their module sets match. Compiled schemas hold
 * functions and cannot leave the process, so each node keeps its own; concurrent first requests for
 * one key share a single build.
 */
import { LRUCache } from 'lru-cache';
import type { CoreOperation } from '../../kernel/bus/types';
import { SingleFlight } from '../../kernel/drivers/cache/single-flight';
import type { Logger } from '../../kernel/logger';
import type { TenantModules } from '../../kernel/modules/tenant-modules';
import { buildSchema, schemaCacheKey, type BuiltSchema } from './schema-builder';

export class SchemaCache {
  private readonly schemas: LRUCache<string, BuiltSchema>;
  private readonly builds = new SingleFlight();

  constructor(private readonly deps: { ttlSeconds: number; coreOperations: () => readonly CoreOperation[]; logger: Logger; max?: number }) {
    this.schemas = new LRUCache({ max: deps.max ?? 200, ...(deps.ttlSeconds > 0 ? { ttl: deps.ttlSeconds * 1000 } : {}) });
  }

  async get(ring: string, modules: TenantModules): Promise<BuiltSchema> {
    const key = schemaCacheKey(ring, modules.fingerprint);
    const cached = this.schemas.get(key);
    if (cached) return cached;
    return this.builds.run(key, async () => {
      const built = await buildSchema(ring, modules, this.deps.coreOperations());
      if (built.warnings.length) this.deps.logger.warn({ schema: key, warnings: built.warnings }, 'GraphQL schema built with warnings');
      this.schemas.set(key, built);
      return built;
    });
  }

  /** Keys of the schemas held now (for operators and tests). */
  keys(): string[] {
    return [...this.schemas.keys()];
  }

  /** Seconds left before the entry expires, or undefined when it is not cached. */
  remainingTtl(key: string): number | undefined {
    if (!this.schemas.has(key)) return undefined;
    const ms = this.schemas.getRemainingTTL(key);
    return Number.isFinite(ms) ? Math.round(ms / 1000) : Infinity;
  }
}
