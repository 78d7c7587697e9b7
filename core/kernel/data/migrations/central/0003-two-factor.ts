/**
 * Two-factor authentication (TOTP) per user. The secret is stored encrypted with the app key;
 * recovery codes only as SHA-256 hashes (they are shown once). last_used_step stops a code from
 * being replayed within its validity window.
 */
import { DataTypes, literal, type QueryInterface } from 'sequelize';

const ts = { type: DataTypes.DATE, allowNull: false, defaultValue: literal('CURRENT_TIMESTAMP') };

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('user_two_factor', {
    user_id: { type: DataTypes.BIGINT, primaryKey: true, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' },
    secret_encrypted: { type: DataTypes.TEXT, allowNull: false },
    // NULL while enrolment awaits its first code: two-factor is on only once confirmed.
    confirmed_at: { type: DataTypes.DATE, allowNull: true },
    recovery_codes: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
    last_used_step: { type: DataTypes.BIGINT, allowNull: true },
    created_at: ts,
    updated_at: ts,
  });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('user_two_factor');
}
