/**
 * Tokens modules register for their public routes (http.public; spec 2: the widget token, the
 * workflow webhook token): which tenant a request to /api/<prefix>/<token>/... is for. Only the
 * sha256 of a token is stored; a token is unique per module, so (alias, token) names one tenant.
 */
import { DataTypes, literal, type QueryInterface } from 'sequelize';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('module_public_tokens', {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    alias: { type: DataTypes.STRING(50), allowNull: false },
    token_hash: { type: DataTypes.STRING(64), allowNull: false },
    tenant_id: { type: DataTypes.STRING(8), allowNull: false, references: { model: 'tenants', key: 'id' }, onDelete: 'CASCADE' },
    label: { type: DataTypes.STRING(200), allowNull: true },
    created_at: { type: DataTypes.DATE, allowNull: false, defaultValue: literal('CURRENT_TIMESTAMP') },
  });
  await qi.addIndex('module_public_tokens', ['alias', 'token_hash'], { unique: true, name: 'module_public_tokens_alias_token' });
  // Requests look tokens up by hash alone (the module follows from the row); counts are per tenant and module.
  await qi.addIndex('module_public_tokens', ['token_hash'], { name: 'module_public_tokens_token' });
  await qi.addIndex('module_public_tokens', ['tenant_id', 'alias'], { name: 'module_public_tokens_tenant_alias' });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('module_public_tokens');
}
