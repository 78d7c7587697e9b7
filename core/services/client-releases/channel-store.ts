/**
 * Tenants' own release channels (central table cli_release_channels). The hosted_repo token is kept
 * only as ciphertext under the platform key (APP_KEY, see core/kernel/secrets/app-key.ts) with its own
 * purpose, so neither a database dump nor another feature's key can read it.
 */
import { QueryTypes } from 'sequelize';
import type { AppKeys } from '../../kernel/secrets/app-key';
import type { CentralDb } from '../../kernel/data/central-db';
import type { ChannelConfig } from './channel-config';

const TOKEN_PURPOSE = 'cli-releases.repo-token';

export interface StoredChannel {
  config: ChannelConfig;
  hasToken: boolean;
  updatedAt: string;
}

interface Row {
  adapter: string;
  config: Record<string, unknown>;
  token_encrypted: string | null;
  updated_at: Date;
}

export class ChannelStore {
  constructor(private readonly central: CentralDb, private readonly keys: AppKeys) {}

  async get(tenantId: string): Promise<StoredChannel | undefined> {
    const row = await this.row(tenantId);
    return row ? { config: { ...row.config, adapter: row.adapter } as ChannelConfig, hasToken: !!row.token_encrypted, updatedAt: row.updated_at.toISOString() } : undefined;
  }

  /** The stored repository token in clear, for the request that needs it. */
  async token(tenantId: string): Promise<string | undefined> {
    const row = await this.row(tenantId);
    return row?.token_encrypted ? this.keys.decrypt(TOKEN_PURPOSE, row.token_encrypted) : undefined;
  }

  /** token: a new one to encrypt and store; undefined keeps the stored one (only for the same hosted_repo api_url). */
  async put(tenantId: string, config: ChannelConfig, token: string | undefined, userId: number, now: Date): Promise<void> {
    const { adapter, ...rest } = config;
    const encrypted = token === undefined ? null : await this.keys.encrypt(TOKEN_PURPOSE, token);
    await this.central.sequelize.query(
      `INSERT INTO cli_release_channels (tenant_id, adapter, config, token_encrypted, updated_by, updated_at)
       VALUES ($1, $2, $3::jsonb, $4, $5, $6)
       ON CONFLICT (tenant_id) DO UPDATE SET adapter = EXCLUDED.adapter, config = EXCLUDED.config, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at,
         token_encrypted = CASE WHEN EXCLUDED.adapter <> 'hosted_repo' THEN NULL ELSE COALESCE(EXCLUDED.token_encrypted, cli_release_channels.token_encrypted) END`,
      { bind: [tenantId, adapter, JSON.stringify(rest), adapter === 'hosted_repo' ? encrypted : null, userId, now] },
    );
  }

  async delete(tenantId: string): Promise<boolean> {
    const rows = await this.central.sequelize.query('DELETE FROM cli_release_channels WHERE tenant_id = $1 RETURNING tenant_id', { bind: [tenantId], type: QueryTypes.SELECT });
    return rows.length > 0;
  }

  private async row(tenantId: string): Promise<Row | undefined> {
    const [row] = await this.central.sequelize.query<Row>('SELECT adapter, config, token_encrypted, updated_at FROM cli_release_channels WHERE tenant_id = $1', {
      bind: [tenantId],
      type: QueryTypes.SELECT,
    });
    return row;
  }
}
