/**
 * SQL for the notifications table of a tenant database. Every read and write names the owning user,
 * so a caller can only ever touch their own rows (spec 1, Notifications: "a user sees only their own").
 */
import { QueryTypes } from 'sequelize';
import type { TenantDatabases } from '../../kernel/data/tenant-databases';
import { toNotification, type Notification, type NotificationContent, type NotificationRow } from './notification';

export interface ListFilter {
  unreadOnly: boolean;
  type?: string;
  module?: string;
  perPage: number;
  page: number;
}

export interface Page {
  notifications: Notification[];
  total: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An id that cannot be a notification's is simply not found (PostgreSQL would reject the cast). */
export const isUuid = (id: string) => UUID.test(id);

const FILTER = `user_id = $1 AND ($2::boolean IS NOT TRUE OR read_at IS NULL) AND ($3::text IS NULL OR type = $3) AND ($4::text IS NULL OR module = $4)`;

export class NotificationStore {
  constructor(private readonly tenantDbs: TenantDatabases) {}

  /** One row per recipient, all with the same content, in one statement. */
  async insertForUsers(tenantId: string, userIds: number[], c: Required<NotificationContent>, now: Date): Promise<Notification[]> {
    if (!userIds.length) return [];
    const rows = await this.tenantDbs.with(tenantId, (db) =>
      db.query<NotificationRow>(
        `INSERT INTO notifications (user_id, type, module, title, body, icon, severity, action_url, action_label, data, group_key, created_at, updated_at)
         SELECT u, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $12 FROM unnest($1::bigint[]) WITH ORDINALITY AS r(u, n) ORDER BY n
         RETURNING *`,
        {
          bind: [userIds, c.type, c.module, c.title, c.body, c.icon, c.severity, c.action_url, c.action_label, c.data === null ? null : JSON.stringify(c.data), c.group_key, now],
          type: QueryTypes.SELECT,
        },
      ),
    );
    return rows.map(toNotification);
  }

  async list(tenantId: string, userId: number, f: ListFilter): Promise<Page> {
    return this.tenantDbs.with(tenantId, async (db) => {
      const bind = [userId, f.unreadOnly, f.type ?? null, f.module ?? null];
      const [{ total }] = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM notifications WHERE ${FILTER}`, { bind, type: QueryTypes.SELECT });
      const rows = total
        ? await db.query<NotificationRow>(`SELECT * FROM notifications WHERE ${FILTER} ORDER BY created_at DESC, id DESC LIMIT $5 OFFSET $6`, {
            bind: [...bind, f.perPage, (f.page - 1) * f.perPage],
            type: QueryTypes.SELECT,
          })
        : [];
      return { notifications: rows.map(toNotification), total };
    });
  }

  async unreadCount(tenantId: string, userId: number): Promise<number> {
    const [row] = await this.tenantDbs.with(tenantId, (db) =>
      db.query<{ n: number }>('SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND read_at IS NULL', { bind: [userId], type: QueryTypes.SELECT }),
    );
    return row.n;
  }

  /** Marks one of the user's notifications read; a second call keeps the first read_at. Undefined when not theirs. */
  async markRead(tenantId: string, userId: number, id: string, now: Date): Promise<Notification | undefined> {
    if (!isUuid(id)) return undefined;
    const [row] = await this.tenantDbs.with(tenantId, (db) =>
      db.query<NotificationRow>(
        `UPDATE notifications SET updated_at = CASE WHEN read_at IS NULL THEN $3 ELSE updated_at END, read_at = COALESCE(read_at, $3)
          WHERE id = $1 AND user_id = $2 RETURNING *`,
        { bind: [id, userId, now], type: QueryTypes.SELECT },
      ),
    );
    return row ? toNotification(row) : undefined;
  }

  /** Marks every unread notification of the user read; returns how many changed. */
  async markAllRead(tenantId: string, userId: number, now: Date): Promise<number> {
    const [row] = await this.tenantDbs.with(tenantId, (db) =>
      db.query<{ count: number }>(
        `WITH changed AS (UPDATE notifications SET read_at = $2, updated_at = $2 WHERE user_id = $1 AND read_at IS NULL RETURNING 1)
         SELECT count(*)::int AS count FROM changed`,
        { bind: [userId, now], type: QueryTypes.SELECT },
      ),
    );
    return row.count;
  }

  /** Marks read every unread notification of `module` under `groupKey`, whoever holds it; how many changed. */
  async resolveGroup(tenantId: string, module: string, groupKey: string, now: Date): Promise<number> {
    const [row] = await this.tenantDbs.with(tenantId, (db) =>
      db.query<{ count: number }>(
        `WITH changed AS (UPDATE notifications SET read_at = $3, updated_at = $3 WHERE module = $1 AND group_key = $2 AND read_at IS NULL RETURNING 1)
         SELECT count(*)::int AS count FROM changed`,
        { bind: [module, groupKey, now], type: QueryTypes.SELECT },
      ),
    );
    return row.count;
  }

  async delete(tenantId: string, userId: number, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const rows = await this.tenantDbs.with(tenantId, (db) =>
      db.query('DELETE FROM notifications WHERE id = $1 AND user_id = $2 RETURNING id', { bind: [id, userId], type: QueryTypes.SELECT }),
    );
    return rows.length > 0;
  }
}
