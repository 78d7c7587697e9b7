/**
 * Who receives a notification: the named users, which must be active members of the tenant (a
 * notification to anyone else would be stored where nobody can read it), or every active member.
 */
import { QueryTypes } from 'sequelize';
import type { AuthService } from '../auth/auth-service';
import type { CentralDb } from '../data/central-db';
import { ValidationError } from '../errors';
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
    return this.activeMembers(tenantId);
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
