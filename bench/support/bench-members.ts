/** A tenant of many members for socket benchmarks, each with its own access token (no password logins). */
import { randomBytes } from 'node:crypto';
import { hashPassword } from '../../core/kernel/auth/passwords';
import type { Platform } from '../../core/platform';

export interface SeededMembers {
  tenantId: string;
  alias: string;
  users: { id: number; token: string }[];
}

export async function seedMembers(platform: Platform, count: number, name: string): Promise<SeededMembers> {
  const tenant = await platform.tenants.create({ name, alias: `bn${randomBytes(3).toString('hex')}` });
  const { User, Membership } = platform.central.models;
  // One bcrypt hash for all: these users never log in with a password.
  const hash = await hashPassword('bench-password-123');
  const tag = randomBytes(3).toString('hex');
  const users = await User.bulkCreate(Array.from({ length: count }, (_, i) => ({ name: `Member ${i}`, email: `m${i}-${tag}@bench.example`, password_hash: hash })), { returning: true });
  await Membership.bulkCreate(users.map((u) => ({ tenant_id: tenant.id, user_id: u.id, role: 'member' })));
  const tokens: SeededMembers['users'] = [];
  for (let i = 0; i < users.length; i += 50) {
    const batch = users.slice(i, i + 50);
    tokens.push(...(await Promise.all(batch.map(async (u) => ({ id: u.id, token: (await platform.auth.issueToken(u.id, tenant.id, 'bench')).token })))));
  }
  return { tenantId: tenant.id, alias: tenant.domains.find((d) => d !== tenant.id) ?? tenant.id, users: tokens };
}
