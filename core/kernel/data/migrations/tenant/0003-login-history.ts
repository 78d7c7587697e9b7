/**
 * Login history (spec 1, Login history record): one row per login attempt in the tenant where it
 * was made. country, city, latitude, longitude and suspicious_reasons are not part of the record
 * the API returns; they feed the suspicious-login rules and help an admin investigate.
 */
import { DataTypes, literal, type QueryInterface } from 'sequelize';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('login_history', {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    // NULL when the email matched no user: such attempts still count for the tenant's admins.
    user_id: { type: DataTypes.BIGINT, allowNull: true },
    tenant_id: { type: DataTypes.STRING(8), allowNull: false },
    ip_address: { type: DataTypes.STRING(45), allowNull: true },
    user_agent: { type: DataTypes.TEXT, allowNull: true },
    device_type: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'unknown' },
    browser: { type: DataTypes.STRING(100), allowNull: false, defaultValue: 'Unknown' },
    platform: { type: DataTypes.STRING(100), allowNull: false, defaultValue: 'Unknown' },
    status: { type: DataTypes.STRING(20), allowNull: false },
    failure_reason: { type: DataTypes.STRING(100), allowNull: true },
    is_suspicious: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    suspicious_reasons: { type: DataTypes.JSONB, allowNull: true },
    country: { type: DataTypes.STRING(2), allowNull: true },
    city: { type: DataTypes.STRING(255), allowNull: true },
    latitude: { type: DataTypes.DOUBLE, allowNull: true },
    longitude: { type: DataTypes.DOUBLE, allowNull: true },
    created_at: { type: DataTypes.DATE, allowNull: false, defaultValue: literal('CURRENT_TIMESTAMP') },
  });
  await qi.sequelize.query(`ALTER TABLE login_history ADD CONSTRAINT login_history_status
    CHECK (status IN ('success', 'failed', 'blocked', '2fa_required', '2fa_failed'))`);
  await qi.addIndex('login_history', ['user_id', 'created_at']);
  await qi.addIndex('login_history', ['created_at']);
  // "Has this user signed in from this address before?" runs on every login.
  await qi.addIndex('login_history', ['user_id', 'ip_address'], { where: { status: 'success' }, name: 'login_history_known_sources' });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('login_history');
}
