/**
 * Who receives a notification: the named users, which must be active members of the tenant (a
 * notification to anyone else would be stored where nobody can read it), every active member, or
 * the active members (account active too) whose role holds a permission, by the one permission rule
 * (holdsPermission: the name itself or "*").
 */
import { QueryTypes } from 'sequelize';
import type { AuthService } from '../../kernel/auth/auth-service';
import type { CentralDb } from '../../kernel/data/central-db';
import { ValidationError } from '../../kernel/errors';
import type { Target } from './send-input';

export class Recipients {
  constructor(private readonly central: CentralDb, private readonly auth: AuthService) {}

  async resolve(tenantId: string, target: Target): Promise<number[]> {
    if (target.kind === 'user') {
      // The single-user case is the hot path; membership lookups are cached by the auth service.
      const m = await this.auth.membership(tenantId, target.userId);
      if (m?.status !== 'active') throw notMembers('user_id', [target.userId]);
      return [target.userId];
    }
    if (target.kind === 'users') {
      const found = new Set(await this.activeMembers(tenantId, target.userIds));
      const missing = target.userIds.filter((id) => !found.has(id));
      if (missing.length) throw notMembers('user_ids', missing);
      return target.userIds;
    }
    if (target.kind === 'holders') return this.holders(tenantId, target.permission);
    return this.activeMembers(tenantId);
  }

  private async holders(tenantId: string, permission: string): Promise<number[]> {
    const rows = await this.central.sequelize.query<{ user_id: string }>(
      `SELECT DISTINCT m.user_id FROM memberships m
         JOIN users u ON u.id = m.user_id AND u.status = 'active'
         JOIN roles r ON r.name = m.role AND (r.tenant_id IS NULL OR r.tenant_id = m.tenant_id)
        WHERE m.tenant_id = $1 AND m.status = 'active' AND (r.permissions @> jsonb_build_array($2::text) OR r.permissions @> '["*"]'::jsonb)
        ORDER BY m.user_id`,
      { bind: [tenantId, permission], type: QueryTypes.SELECT },
    );
    return rows.map((r) => Number(r.user_id));
  }

  private async activeMembers(tenantId: string, among?: number[]): Promise<number[]> {
    const rows = await this.central.sequelize.query<{ user_id: string }>(
      `SELECT user_id FROM memberships WHERE tenant_id = $1 AND status = 'active' AND ($2::bigint[] IS NULL OR user_id = ANY($2)) ORDER BY user_id`,
      { bind: [tenantId, among ?? null], type: QueryTypes.SELECT },
    );
    return rows.map((r) => Number(r.user_id));
  }
}

function notMembers(field: string, ids: number[]): ValidationError {
  const shown = ids.slice(0, 20).join(', ') + (ids.length > 20 ? ', …' : '');
  return new ValidationError({ [field]: [`These users are not active members of this tenant: ${shown}.`] });
}
