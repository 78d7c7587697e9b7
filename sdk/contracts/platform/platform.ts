/** The host's own helpers for module code (core/kernel/modules/platform-operations.ts): what a sandbox cannot do alone. */
import * as Type from '../../runtime/schema';
import { coreContract } from './core-contract';

export const platformGetTenant = coreContract({
  name: 'platform.get_tenant',
  description:
    "The current tenant: id, name, ring, its domains, its public URL (`url`: APP_URL, on the tenant's subdomain when APP_URL's host is ROOT_DOMAIN), and its level in the reseller network (0 for the super admin's tenant; null outside it).",
  input: Type.Object({}, { additionalProperties: false }),
  output: Type.Object({
    id: Type.String(),
    name: Type.String(),
    ring: Type.String(),
    domains: Type.Array(Type.String()),
    url: Type.String(),
    reseller_level: Type.Nullable(Type.Integer({ minimum: 0 })),
  }),
  public: true,
});

export const platformGetMember = coreContract({
  name: 'platform.get_member',
  description:
    "Whether a user is an active member of the current tenant (membership active and account active), with the member's name when so. Anyone else, a member of another tenant included, is `{active: false, name: null}`.",
  input: Type.Object({ user_id: Type.Integer({ minimum: 1, maximum: 2147483647 }) }, { additionalProperties: false }),
  output: Type.Object({ user_id: Type.Integer(), active: Type.Boolean(), name: Type.Nullable(Type.String()) }),
  public: true,
});

export const platformHmac = coreContract({
  name: 'platform.hmac',
  description: 'HMAC of a message under a key; with `expected`, also a constant-time comparison.',
  input: Type.Object(
    {
      algorithm: Type.Optional(Type.Unsafe<'sha1' | 'sha256' | 'sha512'>({ enum: ['sha1', 'sha256', 'sha512'], default: 'sha256' })),
      key: Type.String({ minLength: 1, maxLength: 4096 }),
      message: Type.String({ maxLength: 10_000_000 }),
      encoding: Type.Optional(Type.Unsafe<'hex' | 'base64'>({ enum: ['hex', 'base64'], default: 'hex' })),
      expected: Type.Optional(Type.String({ maxLength: 1024 })),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({ digest: Type.String(), matches: Type.Optional(Type.Boolean({ description: 'with `expected`: whether it equals the digest' })) }),
  public: true,
});

export const platformRandomToken = coreContract({
  name: 'platform.random_token',
  description: 'A random, unguessable token: `bytes` random bytes (16-64, default 24) as base64url.',
  input: Type.Object({ bytes: Type.Optional(Type.Integer({ minimum: 16, maximum: 64, default: 24 })) }, { additionalProperties: false }),
  output: Type.Object({ token: Type.String() }),
  public: true,
});
