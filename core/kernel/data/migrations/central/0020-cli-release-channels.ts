/**
 * A tenant's own client release source (spec 1, Client releases: PUT /cli/channel). Tenants without
 * a row inherit the platform default from the CLI_RELEASES_* variables. The hosted_repo service
 * token is stored only encrypted (token_encrypted); `config` never holds a secret.
 */
import { DataTypes, literal, type QueryInterface } from 'sequelize';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('cli_release_channels', {
    tenant_id: { type: DataTypes.STRING(8), primaryKey: true, references: { model: 'tenants', key: 'id' }, onDelete: 'CASCADE' },
    adapter: { type: DataTypes.STRING(20), allowNull: false },
    config: { type: DataTypes.JSONB, allowNull: false, defaultValue: {} },
    token_encrypted: { type: DataTypes.TEXT, allowNull: true },
    updated_by: { type: DataTypes.BIGINT, allowNull: true },
    updated_at: { type: DataTypes.DATE, allowNull: false, defaultValue: literal('CURRENT_TIMESTAMP') },
  });
  await qi.sequelize.query(
    `INSERT INTO permissions (name, description, module) VALUES ('cli.channel.manage', 'Set the release source of the command-line client for the tenant.', NULL)
     ON CONFLICT (name) DO NOTHING`,
  );
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('cli_release_channels');
  await qi.sequelize.query(`DELETE FROM permissions WHERE name = 'cli.channel.manage'`);
}
