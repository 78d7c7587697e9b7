/**
 * The related-tenant operations (spec 3, reseller network; core/kernel/tenancy/related-operations.ts serves
 * them, sdk/runtime/related.ts types module code's calls with them).
 */
import * as Type from '../../runtime/schema';
import { coreContract } from './core-contract';

/** What a module may know of a related tenant. */
export const RelatedTenant = Type.Object({
  id: Type.String(),
  name: Type.String(),
  alias: Type.Nullable(Type.String()),
  /** Level in the chain: 0 is the super admin's tenant. */
  level: Type.Integer({ minimum: 0 }),
});

// No output schema: the answer is the called operation's own, checked against that operation's output.
export const tenantsCallRelated = coreContract({
  name: 'tenants.call_related',
  description: "Runs one of the calling module's own operations (listed in its api.related) in a related tenant: the reseller parent or a descendant.",
  input: Type.Object(
    {
      /** The related tenant's id or alias. */
      tenant: Type.String({ minLength: 1, maxLength: 63 }),
      /** An operation of the calling module, listed in its api.related. */
      operation: Type.String({ pattern: '^[a-z][a-z0-9_]{1,49}\\.[a-zA-Z][a-zA-Z0-9_]{0,99}$' }),
      input: Type.Optional(Type.Unknown()),
    },
    { additionalProperties: false },
  ),
  public: true,
});

export const tenantsRelatedParent = coreContract({
  name: 'tenants.related_parent',
  description: "The calling tenant's reseller parent, when the module may call it; else null.",
  input: Type.Object({}, { additionalProperties: false }),
  output: Type.Object({ tenant: Type.Nullable(RelatedTenant) }),
  public: true,
});

export const tenantsRelatedChildren = coreContract({
  name: 'tenants.related_children',
  description: 'The active sub-resellers directly under the calling tenant, a page at a time.',
  input: Type.Object(
    { page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })), per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) },
    { additionalProperties: false },
  ),
  output: Type.Object({
    tenants: Type.Array(RelatedTenant),
    pagination: Type.Object({ current_page: Type.Integer(), last_page: Type.Integer(), per_page: Type.Integer(), total: Type.Integer() }),
  }),
  public: true,
});
