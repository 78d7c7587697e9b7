/**
 * Persisted GraphQL queries of the tenant (spec 1, Persisted query): the operation text under its
 * SHA-256, so clients can send the hash alone and persisted-only tenants can refuse anything else.
 */
import { DataTypes, literal, type QueryInterface } from 'sequelize';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('graphql_persisted_queries', {
    hash: { type: DataTypes.CHAR(64), primaryKey: true },
    name: { type: DataTypes.STRING(255), allowNull: false },
    query: { type: DataTypes.TEXT, allowNull: false },
    created_by: { type: DataTypes.BIGINT, allowNull: true },
    created_at: { type: DataTypes.DATE, allowNull: false, defaultValue: literal('CURRENT_TIMESTAMP') },
  });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('graphql_persisted_queries');
}
