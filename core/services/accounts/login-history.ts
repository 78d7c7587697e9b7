/**
 * The login history store (table login_history in each tenant database): writes one row per
 * attempt, with the parsed user agent, the location and the suspicious flag, and answers the
 * listings and statistics of spec 1, Login history. Time comes from the platform clock.
 */
import { QueryTypes } from 'sequelize';
import type { Clock } from '../../kernel/clock';
import type { TenantDatabases } from '../../kernel/data/tenant-databases';
import { locate } from './geo';
import { suspiciousReasons } from './suspicious';
import { parseUserAgent } from './user-agent';

export const LOGIN_STATUSES = ['success', 'failed', 'blocked', '2fa_required', '2fa_failed'] as const;
export type LoginStatus = (typeof LOGIN_STATUSES)[number];

export interface LoginAttempt {
  tenantId: string;
  userId: number | null;
  ip: string | null;
  userAgent: string | undefined;
  status: LoginStatus;
  failureReason?: string | null;
}

export interface HistoryFilter {
  userId?: number;
  status?: LoginStatus;
  suspiciousOnly?: boolean;
  /** Inclusive bounds as instants. */
  from?: Date;
  toExclusive?: Date;
  page: number;
  perPage: number;
}

export interface LoginRecord {
  id: number;
  user_id: number | null;
  tenant_id: string;
  ip_address: string | null;
  user_agent: string | null;
  device_type: string;
  browser: string;
  platform: string;
  status: LoginStatus;
  failure_reason: string | null;
  is_suspicious: boolean;
  created_at: string;
}

const DAY_MS = 24 * 3600_000;
const COLUMNS = 'id, user_id, tenant_id, ip_address, user_agent, device_type, browser, platform, status, failure_reason, is_suspicious, created_at';

export class LoginHistory {
  constructor(
    private readonly tenantDbs: TenantDatabases,
    private readonly clock: Clock,
  ) {}

  async record(a: LoginAttempt): Promise<{ id: number; suspiciousReasons: string[] }> {
    const agent = parseUserAgent(a.userAgent);
    const geo = locate(a.ip);
    const now = this.clock.date();
    return this.tenantDbs.with(a.tenantId, async (db) => {
      const judged = a.userId !== null && (a.status === 'success' || a.status === '2fa_required');
      const reasons = judged ? await suspiciousReasons(db, { userId: a.userId!, now, agent, geo }) : [];
      const [row] = await db.query<{ id: string }>(
        `INSERT INTO login_history (user_id, tenant_id, ip_address, user_agent, device_type, browser, platform, status, failure_reason,
                                    is_suspicious, suspicious_reasons, country, city, latitude, longitude, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING id`,
        {
          bind: [
            a.userId, a.tenantId, a.ip, a.userAgent?.slice(0, 1000) ?? null, agent.device_type, agent.browser.slice(0, 100), agent.platform.slice(0, 100),
            a.status, a.failureReason ?? null, reasons.length > 0, reasons.length ? JSON.stringify(reasons) : null,
            geo?.country ?? null, geo?.city ?? null, geo?.latitude ?? null, geo?.longitude ?? null, now,
          ],
          type: QueryTypes.SELECT,
        },
      );
      return { id: Number(row.id), suspiciousReasons: reasons };
    });
  }

  /** Whether the user signed in successfully from this address in the last `days` days. */
  async knownSource(tenantId: string, userId: number, ip: string, days = 90): Promise<boolean> {
    return this.tenantDbs.with(tenantId, async (db) => {
      const rows = await db.query(
        `SELECT 1 FROM login_history WHERE user_id = $1 AND ip_address = $2 AND status = 'success' AND created_at > $3 LIMIT 1`,
        { bind: [userId, ip, new Date(this.clock.now() - days * DAY_MS)], type: QueryTypes.SELECT },
      );
      return rows.length > 0;
    });
  }

  async list(tenantId: string, f: HistoryFilter): Promise<{ records: LoginRecord[]; total: number }> {
    const where: string[] = [];
    const bind: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      bind.push(value);
      where.push(sql.replace('?', `$${bind.length}`));
    };
    if (f.userId !== undefined) add('user_id = ?', f.userId);
    if (f.status) add('status = ?', f.status);
    if (f.suspiciousOnly) where.push('is_suspicious');
    if (f.from) add('created_at >= ?', f.from);
    if (f.toExclusive) add('created_at < ?', f.toExclusive);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    return this.tenantDbs.with(tenantId, async (db) => {
      const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM login_history ${clause}`, { bind, type: QueryTypes.SELECT });
      const rows = await db.query<Record<string, unknown>>(
        `SELECT ${COLUMNS} FROM login_history ${clause} ORDER BY created_at DESC, id DESC LIMIT $${bind.length + 1} OFFSET $${bind.length + 2}`,
        { bind: [...bind, f.perPage, (f.page - 1) * f.perPage], type: QueryTypes.SELECT },
      );
      return { records: rows.map(toRecord), total: n };
    });
  }

  async stats(tenantId: string, userId: number) {
    const since = new Date(this.clock.now() - 30 * DAY_MS);
    return this.tenantDbs.with(tenantId, async (db) => {
      const [s] = await db.query<Record<string, number | Date | null>>(
        `SELECT count(*) FILTER (WHERE status = 'success')::int AS total_logins,
                count(*) FILTER (WHERE status = 'success' AND created_at >= $2)::int AS logins_last_30_days,
                count(*) FILTER (WHERE status IN ('failed', '2fa_failed') AND created_at >= $2)::int AS failed_attempts_last_30_days,
                count(*) FILTER (WHERE is_suspicious AND status = 'success')::int AS suspicious_logins,
                count(DISTINCT ip_address) FILTER (WHERE status = 'success' AND created_at >= $2)::int AS unique_ips_last_30_days,
                max(created_at) FILTER (WHERE status = 'success') AS last_login
           FROM login_history WHERE user_id = $1`,
        { bind: [userId, since], type: QueryTypes.SELECT },
      );
      const devices = await db.query<{ device_type: string; n: number }>(
        `SELECT device_type, count(*)::int AS n FROM login_history WHERE user_id = $1 AND status = 'success' GROUP BY device_type ORDER BY device_type`,
        { bind: [userId], type: QueryTypes.SELECT },
      );
      return {
        total_logins: s.total_logins as number,
        logins_last_30_days: s.logins_last_30_days as number,
        failed_attempts_last_30_days: s.failed_attempts_last_30_days as number,
        suspicious_logins: s.suspicious_logins as number,
        unique_ips_last_30_days: s.unique_ips_last_30_days as number,
        devices: Object.fromEntries(devices.map((d) => [d.device_type, d.n])),
        last_login: s.last_login ? new Date(s.last_login as Date).toISOString() : null,
      };
    });
  }
}

function toRecord(r: Record<string, unknown>): LoginRecord {
  return {
    id: Number(r.id),
    user_id: r.user_id === null ? null : Number(r.user_id),
    tenant_id: r.tenant_id as string,
    ip_address: r.ip_address as string | null,
    user_agent: r.user_agent as string | null,
    device_type: r.device_type as string,
    browser: r.browser as string,
    platform: r.platform as string,
    status: r.status as LoginStatus,
    failure_reason: r.failure_reason as string | null,
    is_suspicious: r.is_suspicious as boolean,
    created_at: new Date(r.created_at as Date).toISOString(),
  };
}
