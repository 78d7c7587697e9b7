/**
 * Which implementation of each provider contract a tenant uses (DESIGN.md, Host capabilities for
 * modules): the central tenant setting `providers` (`{"payment": "payment_razorpay"}`), read by
 * the bus on every contract call. Cached per tenant like the module set, so a cached call resolves
 * without a promise; a change drops every node's copy at once.
 *
 * Resolution: the chosen module when it is installed and implements the contract, else the only
 * installed implementer; none → PROVIDER_MISSING, several and no choice → PROVIDER_AMBIGUOUS
 * naming them. A choice whose module was uninstalled since falls back the same way.
 */
import { LRUCache } from 'lru-cache';
import type { CentralDb } from '../data/central-db';
import type { PubSub } from '../drivers';
import { busErrors } from '../bus/errors';
import type { LoadedModule } from './loaded-module';
import type { TenantModules } from './tenant-modules';

const CHANGED_CHANNEL = 'mandi:providers:changed';

export type Choices = Readonly<Record<string, string>>;

export class ProviderChoices {
  private readonly cache = new LRUCache<string, Choices>({ max: 10_000, ttl: 300_000 });

  constructor(private readonly deps: { central: CentralDb; pubsub: PubSub }) {}

  async start(): Promise<void> {
    await this.deps.pubsub.subscribe(CHANGED_CHANNEL, (msg) => {
      this.cache.delete((msg as { tenantId: string }).tenantId);
    });
  }

  cached(tenantId: string): Choices | undefined {
    return this.cache.get(tenantId);
  }

  async load(tenantId: string): Promise<Choices> {
    const cached = this.cache.get(tenantId);
    if (cached) return cached;
    const tenant = await this.deps.central.models.Tenant.findByPk(tenantId, { attributes: ['settings'] });
    const stored = (tenant?.settings as { providers?: unknown } | undefined)?.providers;
    const choices: Record<string, string> = {};
    if (stored && typeof stored === 'object') for (const [k, v] of Object.entries(stored)) if (typeof v === 'string') choices[k] = v;
    this.cache.set(tenantId, choices);
    return choices;
  }

  /** Records the tenant's choice for `contract` (null: none, the default rule applies). The caller checked it. */
  async choose(tenantId: string, contract: string, alias: string | null): Promise<void> {
    // One statement that touches only providers.<contract>, so settings written meanwhile survive.
    await this.deps.central.sequelize.query(
      alias === null
        ? `UPDATE tenants SET settings = settings #- ARRAY['providers', $2::text], updated_at = now() WHERE id = $1`
        : `UPDATE tenants SET settings = jsonb_set(settings, '{providers}', COALESCE(settings->'providers', '{}'::jsonb) || jsonb_build_object($2::text, $3::text)), updated_at = now() WHERE id = $1`,
      { bind: alias === null ? [tenantId, contract] : [tenantId, contract, alias] },
    );
    this.cache.delete(tenantId);
    await this.deps.pubsub.publish(CHANGED_CHANNEL, { tenantId });
  }
}

/** The module serving the contract `name` for a tenant with these modules and choices; throws the typed refusal otherwise. */
export function resolveProvider(mods: TenantModules, choices: Choices, name: string, op: string): LoadedModule {
  const candidates = mods.implementersOf(name);
  const chosen = choices[name];
  if (chosen !== undefined) {
    const found = candidates.find((m) => m.alias === chosen);
    if (found) return found;
  }
  if (candidates.length === 1) return candidates[0];
  if (candidates.length === 0) throw busErrors.providerMissing(op, name);
  throw busErrors.providerAmbiguous(op, name, candidates.map((m) => m.alias));
}
