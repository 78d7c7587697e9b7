/** The push_devices table of a tenant database: a user's registered phones and browsers. */
import { QueryTypes } from 'sequelize';
import type { TenantDatabases } from '../../../kernel/data/tenant-databases';
import { isUuid } from '../notification-store';

export const PUSH_PLATFORMS = ['ios', 'android', 'web'] as const;
export type PushPlatform = (typeof PUSH_PLATFORMS)[number];

export interface WebPushKeys {
  p256dh: string;
  auth: string;
}

export interface PushDevice {
  id: string;
  user_id: number;
  platform: PushPlatform;
  token: string;
  keys: WebPushKeys | null;
  device_name: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeviceInput {
  platform: PushPlatform;
  token: string;
  keys: WebPushKeys | null;
  deviceName: string | null;
}

interface Row extends Omit<PushDevice, 'user_id' | 'created_at' | 'updated_at'> {
  user_id: string | number;
  created_at: Date;
  updated_at: Date;
}

const toDevice = (r: Row): PushDevice => ({
  ...r,
  user_id: Number(r.user_id),
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
});

export class DeviceStore {
  constructor(private readonly tenantDbs: TenantDatabases) {}

  /** Registers a device for the user; a token already known moves to this user (one device, one owner). */
  async register(tenantId: string, userId: number, d: DeviceInput, now: Date): Promise<{ device: PushDevice; created: boolean }> {
    const [row] = await this.tenantDbs.with(tenantId, (db) =>
      db.query<Row & { inserted: boolean }>(
        `INSERT INTO push_devices (user_id, platform, token, keys, device_name, created_at, updated_at)
         VALUES ($1, $2, $3, $4::jsonb, $5, $6, $6)
         ON CONFLICT ((md5(token))) DO UPDATE
           SET user_id = EXCLUDED.user_id, platform = EXCLUDED.platform, keys = EXCLUDED.keys,
               device_name = COALESCE(EXCLUDED.device_name, push_devices.device_name), updated_at = EXCLUDED.updated_at
         RETURNING *, (xmax = 0) AS inserted`,
        { bind: [userId, d.platform, d.token, d.keys ? JSON.stringify(d.keys) : null, d.deviceName, now], type: QueryTypes.SELECT },
      ),
    );
    const { inserted, ...device } = row;
    return { device: toDevice(device), created: inserted };
  }

  async listForUser(tenantId: string, userId: number): Promise<PushDevice[]> {
    const rows = await this.tenantDbs.with(tenantId, (db) =>
      db.query<Row>('SELECT * FROM push_devices WHERE user_id = $1 ORDER BY created_at, id', { bind: [userId], type: QueryTypes.SELECT }),
    );
    return rows.map(toDevice);
  }

  async get(tenantId: string, id: string): Promise<PushDevice | undefined> {
    if (!isUuid(id)) return undefined;
    const [row] = await this.tenantDbs.with(tenantId, (db) =>
      db.query<Row>('SELECT * FROM push_devices WHERE id = $1', { bind: [id], type: QueryTypes.SELECT }),
    );
    return row ? toDevice(row) : undefined;
  }

  /** Which of these users have devices, by platform kind; one query for a whole send. */
  async platformsOf(tenantId: string, userIds: number[]): Promise<Map<number, { mobile: boolean; web: string[] }>> {
    const rows = await this.tenantDbs.with(tenantId, (db) =>
      db.query<{ user_id: string; id: string; platform: string }>('SELECT user_id, id, platform FROM push_devices WHERE user_id = ANY($1::bigint[])', {
        bind: [userIds],
        type: QueryTypes.SELECT,
      }),
    );
    const out = new Map<number, { mobile: boolean; web: string[] }>();
    for (const r of rows) {
      const entry = out.get(Number(r.user_id)) ?? { mobile: false, web: [] };
      if (r.platform === 'web') entry.web.push(r.id);
      else entry.mobile = true;
      out.set(Number(r.user_id), entry);
    }
    return out;
  }

  async deleteOwn(tenantId: string, userId: number, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const rows = await this.tenantDbs.with(tenantId, (db) =>
      db.query('DELETE FROM push_devices WHERE id = $1 AND user_id = $2 RETURNING id', { bind: [id, userId], type: QueryTypes.SELECT }),
    );
    return rows.length > 0;
  }

  /** Forgets tokens the push service reports as no longer valid. */
  async forgetTokens(tenantId: string, tokens: string[]): Promise<void> {
    if (!tokens.length) return;
    await this.tenantDbs.with(tenantId, (db) => db.query('DELETE FROM push_devices WHERE md5(token) = ANY(SELECT md5(t) FROM unnest($1::text[]) AS t)', { bind: [tokens] }));
  }

  async forget(tenantId: string, id: string): Promise<void> {
    await this.tenantDbs.with(tenantId, (db) => db.query('DELETE FROM push_devices WHERE id = $1', { bind: [id] }));
  }
}
