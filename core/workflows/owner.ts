/**
 * The acting user of a run: the workflow's owner, with their current permissions in the tenant, so
 * each node's operation is checked as if they called it (a revoked permission stops the next run).
 */
import { QueryTypes } from 'sequelize';
import type { AuthService } from '../auth/auth-service';
import type { CentralDb } from '../data/central-db';
import type { UserRef } from '../context';

export interface Acting {
  user: UserRef | null;
  permissions: ReadonlySet<string>;
}

export async function actingOwner(central: CentralDb, auth: AuthService, tenantId: string, ownerId: number): Promise<Acting> {
  const [u] = await central.sequelize.query<{ id: string; email: string; name: string; is_super_admin: boolean; status: string }>(
    'SELECT id, email, name, is_super_admin, status FROM users WHERE id = $1',
    { bind: [ownerId], type: QueryTypes.SELECT },
  );
  const membership = u && u.status === 'active' ? await auth.membership(tenantId, ownerId) : undefined;
  if (!u || (!membership && !u.is_super_admin)) return { user: null, permissions: new Set() };
  return { user: { id: Number(u.id), email: u.email, name: u.name, isSuperAdmin: u.is_super_admin }, permissions: membership?.permissions ?? new Set() };
}
