/**
 * The tenant settings the gateway reads from the central `tenants.settings` JSONB:
 *   graphql.persisted_queries_only  refuse operations without a registered hash (rule 2)
 *   graphql.introspection           true/false overrides the environment default (rule 9)
 *   graphql.playground              true/false overrides the environment default
 *   audit_mutations                 write GraphQL mutations to the audit log (rule 8)
 * Read on every request, so cached per node briefly; a change made here reaches every node at once
 * through pub/sub.
 */
import { LRUCache } from 'lru-cache';
import type { CentralDb } from '../../kernel/data/central-db';
import type { PubSub } from '../../kernel/drivers';

const CHANGED = 'mandi:graphql:settings:changed';

export interface GatewaySettings {
  persistedQueriesOnly: boolean;
  /** undefined: the environment decides. */
  introspection?: boolean;
  playground?: boolean;
  auditMutations: boolean;
}

/** A change: booleans set a value, null clears an override (introspection, playground). */
export interface GatewaySettingsPatch {
  persisted_queries_only?: boolean;
  introspection?: boolean | null;
  playground?: boolean | null;
  audit_mutations?: boolean;
}

const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);

export class GatewaySettingsStore {
  private readonly cache = new LRUCache<string, GatewaySettings>({ max: 10_000, ttl: 30_000 });

  constructor(private readonly deps: { central: CentralDb; pubsub: PubSub }) {}

  async start(): Promise<void> {
    await this.deps.pubsub.subscribe(CHANGED, (msg) => void this.cache.delete((msg as { tenantId: string }).tenantId));
  }

  async get(tenantId: string): Promise<GatewaySettings> {
    const cached = this.cache.get(tenantId);
    if (cached) return cached;
    const tenant = await this.deps.central.models.Tenant.findByPk(tenantId, { attributes: ['settings'] });
    const all = (tenant?.settings ?? {}) as { graphql?: Record<string, unknown>; audit_mutations?: unknown };
    const gql = all.graphql && typeof all.graphql === 'object' ? all.graphql : {};
    const settings: GatewaySettings = {
      persistedQueriesOnly: bool(gql.persisted_queries_only) ?? false,
      introspection: bool(gql.introspection),
      playground: bool(gql.playground),
      auditMutations: bool(all.audit_mutations) ?? false,
    };
    this.cache.set(tenantId, settings);
    return settings;
  }

  /** Merges the change into the JSONB in one statement, so other settings written meanwhile survive. */
  async update(tenantId: string, patch: GatewaySettingsPatch): Promise<GatewaySettings> {
    const graphql: Record<string, unknown> = {};
    for (const k of ['persisted_queries_only', 'introspection', 'playground'] as const) if (patch[k] !== undefined) graphql[k] = patch[k];
    const top: Record<string, unknown> = {};
    if (patch.audit_mutations !== undefined) top.audit_mutations = patch.audit_mutations;
    await this.deps.central.sequelize.query(
      `UPDATE tenants
          SET settings = jsonb_set(settings || $2::jsonb, '{graphql}', jsonb_strip_nulls(COALESCE(settings->'graphql', '{}'::jsonb) || $3::jsonb)),
              updated_at = now()
        WHERE id = $1`,
      { bind: [tenantId, JSON.stringify(top), JSON.stringify(graphql)] },
    );
    this.cache.delete(tenantId);
    await this.deps.pubsub.publish(CHANGED, { tenantId });
    return this.get(tenantId);
  }
}
