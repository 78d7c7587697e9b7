/** Which module version each tenant has installed, and its lifecycle state. */
import { DataTypes, literal, type QueryInterface } from 'sequelize';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('module_installs', {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    tenant_id: { type: DataTypes.STRING(8), allowNull: false, references: { model: 'tenants', key: 'id' }, onDelete: 'CASCADE' },
    alias: { type: DataTypes.STRING(50), allowNull: false },
    version: { type: DataTypes.STRING(100), allowNull: false },
    // installed | uninstalled (data kept) ; lifecycle jobs move it
    status: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'installed' },
    installed_at: { type: DataTypes.DATE, allowNull: false, defaultValue: literal('CURRENT_TIMESTAMP') },
    updated_at: { type: DataTypes.DATE, allowNull: false, defaultValue: literal('CURRENT_TIMESTAMP') },
  });
  await qi.addIndex('module_installs', ['tenant_id', 'alias'], { unique: true });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('module_installs');
}
