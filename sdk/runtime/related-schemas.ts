/**
 * The related-tenant operations of the bus (spec 3, reseller network), one schema each for the host
 * that serves them (core/tenancy/related-operations.ts) and the types module code calls them with
 * (./related.ts). Kept apart from related.ts so a module's bundle carries only the types.
 */
import * as Type from './schema';
import type { Static } from '@sinclair/typebox/type';

export { RELATED_CALL, RELATED_CHILDREN, RELATED_PARENT } from './related';

export const RelatedCallInput = Type.Object(
  {
    /** The related tenant's id or alias. */
    tenant: Type.String({ minLength: 1, maxLength: 63 }),
    /** An operation of the calling module, listed in its api.related. */
    operation: Type.String({ pattern: '^[a-z][a-z0-9_]{1,49}\\.[a-zA-Z][a-zA-Z0-9_]{0,99}$' }),
    input: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
export type RelatedCallInput = Static<typeof RelatedCallInput>;

/** What a module may know of a related tenant. */
export const RelatedTenant = Type.Object({
  id: Type.String(),
  name: Type.String(),
  alias: Type.Nullable(Type.String()),
  /** Level in the chain: 0 is the super admin's tenant. */
  level: Type.Integer({ minimum: 0 }),
});
export type RelatedTenant = Static<typeof RelatedTenant>;

export const RelatedParentInput = Type.Object({}, { additionalProperties: false });
export const RelatedParentOutput = Type.Object({ tenant: Type.Nullable(RelatedTenant) });
export type RelatedParentOutput = Static<typeof RelatedParentOutput>;

export const RelatedChildrenInput = Type.Object(
  { page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })), per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) },
  { additionalProperties: false },
);
export type RelatedChildrenInput = Static<typeof RelatedChildrenInput>;
export const RelatedChildrenOutput = Type.Object({
  tenants: Type.Array(RelatedTenant),
  pagination: Type.Object({ current_page: Type.Integer(), last_page: Type.Integer(), per_page: Type.Integer(), total: Type.Integer() }),
});
export type RelatedChildrenOutput = Static<typeof RelatedChildrenOutput>;
