/**
 * In-app notifications (spec 1, Notification): one row per recipient in the tenant database.
 * user_id points at the central users table without a constraint (different database).
 */
import { DataTypes, literal, type QueryInterface } from 'sequelize';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('notifications', {
    // gen_random_uuid() is built into PostgreSQL 13+; no extension needed.
    id: { type: DataTypes.UUID, primaryKey: true, defaultValue: literal('gen_random_uuid()') },
    user_id: { type: DataTypes.BIGINT, allowNull: false },
    type: { type: DataTypes.STRING(100), allowNull: false },
    module: { type: DataTypes.STRING(50), allowNull: true },
    title: { type: DataTypes.STRING(255), allowNull: false },
    body: { type: DataTypes.TEXT, allowNull: true },
    icon: { type: DataTypes.STRING(50), allowNull: true },
    severity: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'info' },
    action_url: { type: DataTypes.STRING(2048), allowNull: true },
    action_label: { type: DataTypes.STRING(100), allowNull: true },
    data: { type: DataTypes.JSONB, allowNull: true },
    group_key: { type: DataTypes.STRING(100), allowNull: true },
    read_at: { type: DataTypes.DATE, allowNull: true },
    created_at: { type: DataTypes.DATE, allowNull: false, defaultValue: literal('CURRENT_TIMESTAMP') },
    updated_at: { type: DataTypes.DATE, allowNull: false, defaultValue: literal('CURRENT_TIMESTAMP') },
  });
  // The listing (newest first, per user) and the unread badge are the hot queries.
  await qi.sequelize.query('CREATE INDEX notifications_user_created ON notifications (user_id, created_at DESC, id DESC)');
  await qi.sequelize.query('CREATE INDEX notifications_user_unread ON notifications (user_id) WHERE read_at IS NULL');
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('notifications');
}
