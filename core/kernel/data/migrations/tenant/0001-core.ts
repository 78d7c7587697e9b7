/**
 * Core's tables inside every tenant database (public schema). Modules get their own schemas;
 * core's per-tenant data (activity log now; notifications, login history, persisted queries,
 * workflows later) lives here.
 */
import { DataTypes, literal, type QueryInterface } from 'sequelize';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('activity_log', {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    user_id: { type: DataTypes.BIGINT, allowNull: true },
    action: { type: DataTypes.STRING(100), allowNull: false },
    subject_type: { type: DataTypes.STRING(100), allowNull: true },
    subject_id: { type: DataTypes.STRING(100), allowNull: true },
    properties: { type: DataTypes.JSONB, allowNull: true },
    ip_address: { type: DataTypes.STRING(45), allowNull: true },
    created_at: { type: DataTypes.DATE, allowNull: false, defaultValue: literal('CURRENT_TIMESTAMP') },
  });
  await qi.addIndex('activity_log', ['user_id', 'created_at']);
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('activity_log');
}
