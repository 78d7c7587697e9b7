/**
 * The tenant's activity log (table activity_log in the tenant database). Account operations write
 * the action names of spec 1 (profile_updated, email_changed, ...). Record fields are "not shown"
 * in the spec; these are: id, user_id, action, subject_type, subject_id, properties, ip_address,
 * created_at.
 */
import type { TenantDatabases } from '../../kernel/data/tenant-databases';

export interface ActivityInput {
  userId: number | null;
  action: string;
  subjectType?: string;
  subjectId?: string;
  properties?: Record<string, unknown>;
  ip?: string | null;
}

export interface ActivityRecord {
  id: number;
  user_id: number | null;
  action: string;
  subject_type: string | null;
  subject_id: string | null;
  properties: Record<string, unknown> | null;
  ip_address: string | null;
  created_at: string;
}

export class ActivityLog {
  constructor(private readonly tenantDbs: TenantDatabases) {}

  async record(tenantId: string, a: ActivityInput): Promise<void> {
    await this.tenantDbs.with(tenantId, (db) =>
      db.query(
        `INSERT INTO activity_log (user_id, action, subject_type, subject_id, properties, ip_address, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, now())`,
        { bind: [a.userId, a.action, a.subjectType ?? null, a.subjectId ?? null, a.properties ? JSON.stringify(a.properties) : null, a.ip ?? null] },
      ),
    );
  }

  /** Newest first, keyset-paginated by id (no COUNT over a table that only grows). */
  async listForUser(tenantId: string, userId: number, opts: { limit: number; before?: number; action?: string }): Promise<ActivityRecord[]> {
    return this.tenantDbs.query<ActivityRecord>(
      tenantId,
      `SELECT id::int, user_id::int, action, subject_type, subject_id, properties, ip_address, created_at
         FROM activity_log
        WHERE user_id = $1 AND ($2::bigint IS NULL OR id < $2) AND ($3::text IS NULL OR action = $3)
        ORDER BY id DESC LIMIT $4`,
      [userId, opts.before ?? null, opts.action ?? null, opts.limit],
    );
  }
}
