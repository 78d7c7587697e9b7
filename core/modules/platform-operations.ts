/** Operations the host itself provides on the bus. Public ones need no api.consumes entry. */
import type { Bus } from '../bus/bus';
import type { CentralDb } from '../data/central-db';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { notFound } from '../errors';
import { TenantNetwork } from '../tenancy/tenant-network';
import { tenantUrl } from '../tenancy/tenant-url';

export function registerPlatformOperations(bus: Bus, central: CentralDb, site: { appUrl: string; rootDomain: string }): void {
  const network = new TenantNetwork(central);
  bus.registerCore({
    name: 'platform.get_tenant',
    description: "The current tenant: id, name, ring, its domains, its public URL (`url`: APP_URL, on the tenant's subdomain when APP_URL's host is ROOT_DOMAIN), and its level in the reseller network (0 for the super admin's tenant; null outside it).",
    input: { type: 'object', additionalProperties: false },
    public: true,
    handler: async (_input, ctx) => {
      const tenant = await central.models.Tenant.findByPk(ctx.tenantId);
      if (!tenant) throw notFound('Tenant not found.');
      const domains = await central.models.Domain.findAll({ where: { tenant_id: tenant.id }, order: [['id', 'ASC']] });
      // The level tells a module whether it runs in the super admin's tenant (spec 3: the master
      // catalog lives at level 0), which related_parent cannot: it is also null for a suspended link.
      const link = await network.link(tenant.id);
      return {
        id: tenant.id,
        name: tenant.name,
        ring: tenant.ring,
        domains: domains.map((d) => d.domain),
        // Links a module hands out (a widget's embed code) must reach this platform from anywhere.
        url: tenantUrl(site.appUrl, site.rootDomain, domains),
        reseller_level: link?.level ?? null,
      };
    },
  });

  // A module that keeps people of the tenant (live chat's agents) must know they are members: only
  // of the calling tenant, and only whether they are active (and their name while they are).
  bus.registerCore({
    name: 'platform.get_member',
    description: "Whether a user is an active member of the current tenant (membership active and account active), with the member's name when so. Anyone else, a member of another tenant included, is `{active: false, name: null}`.",
    input: { type: 'object', required: ['user_id'], additionalProperties: false, properties: { user_id: { type: 'integer', minimum: 1, maximum: 2147483647 } } },
    output: { type: 'object', required: ['user_id', 'active', 'name'], properties: { user_id: { type: 'integer' }, active: { type: 'boolean' }, name: { type: ['string', 'null'] } } },
    public: true,
    handler: async (input: { user_id: number }, ctx) => {
      const membership = await central.models.Membership.findOne({ where: { tenant_id: ctx.tenantId, user_id: input.user_id }, attributes: ['status'] });
      const user = membership?.status === 'active' ? await central.models.User.findByPk(input.user_id, { attributes: ['name', 'status'] }) : null;
      const active = user?.status === 'active';
      return { user_id: input.user_id, active, name: active ? user.name : null };
    },
  });

  // Module code has no crypto of its own (nothing of Node reaches the sandbox); webhook routes need
  // to check senders' signatures, so the host computes and compares them.
  bus.registerCore({
    name: 'platform.hmac',
    description: 'HMAC of a message under a key; with `expected`, also a constant-time comparison.',
    input: {
      type: 'object',
      required: ['key', 'message'],
      additionalProperties: false,
      properties: {
        algorithm: { enum: ['sha1', 'sha256', 'sha512'], default: 'sha256' },
        key: { type: 'string', minLength: 1, maxLength: 4096 },
        message: { type: 'string', maxLength: 10_000_000 },
        encoding: { enum: ['hex', 'base64'], default: 'hex' },
        expected: { type: 'string', maxLength: 1024 },
      },
    },
    public: true,
    handler: async (input: { algorithm?: string; key: string; message: string; encoding?: 'hex' | 'base64'; expected?: string }) => {
      const digest = createHmac(input.algorithm ?? 'sha256', input.key).update(input.message).digest(input.encoding ?? 'hex');
      if (input.expected === undefined) return { digest };
      const a = Buffer.from(digest);
      const b = Buffer.from(input.expected);
      return { digest, matches: a.length === b.length && timingSafeEqual(a, b) };
    },
  });

  // Nor has it a secure random source (Math.random is predictable): session ids a visitor must not
  // guess (spec 2, Live chat: Visitor.session_id) come from the host's.
  bus.registerCore({
    name: 'platform.random_token',
    description: 'A random, unguessable token: `bytes` random bytes (16-64, default 24) as base64url.',
    input: { type: 'object', additionalProperties: false, properties: { bytes: { type: 'integer', minimum: 16, maximum: 64, default: 24 } } },
    output: { type: 'object', required: ['token'], properties: { token: { type: 'string' } } },
    public: true,
    handler: async (input: { bytes?: number }) => ({ token: randomBytes(input.bytes ?? 24).toString('base64url') }),
  });
}
