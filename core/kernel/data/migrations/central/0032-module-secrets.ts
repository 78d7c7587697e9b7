/**
 * Module secrets (core/kernel/secrets/module-secrets.ts): values a module keeps per tenant (API keys,
 * webhook secrets), AES-256-GCM under a subkey of the platform key. They live in the central
 * database, not the tenant's: module code reaches tenant databases (host.db, its own schema) but
 * never this one; a tenant database handed out or restored alone carries none of them; the key
 * rotation walks one table; and a deleted tenant takes its secrets with it (cascade).
 * `hint` is the value's last 4 characters (null for values under 12 characters, where 4 would give
 * too much away); `key_id` names the key that encrypted `ciphertext` (the rotation's cursor).
 */
import { DataTypes, literal, type QueryInterface } from 'sequelize';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('module_secrets', {
    tenant_id: { type: DataTypes.STRING(8), primaryKey: true, references: { model: 'tenants', key: 'id' }, onDelete: 'CASCADE' },
    module: { type: DataTypes.STRING(50), primaryKey: true },
    name: { type: DataTypes.STRING(64), primaryKey: true },
    ciphertext: { type: DataTypes.TEXT, allowNull: false },
    key_id: { type: DataTypes.STRING(12), allowNull: false },
    hint: { type: DataTypes.STRING(4), allowNull: true },
    set_at: { type: DataTypes.DATE, allowNull: false, defaultValue: literal('CURRENT_TIMESTAMP') },
  });
  await qi.addIndex('module_secrets', ['key_id'], { name: 'module_secrets_key_id' });
  await qi.sequelize.query(
    `INSERT INTO permissions (name, description, module) VALUES ('modules.secrets.manage', 'Set and delete the secrets of the tenant''s modules (API keys, webhook secrets); values are write-only.', NULL)
     ON CONFLICT (name) DO NOTHING`,
  );
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('module_secrets');
  await qi.sequelize.query(`DELETE FROM permissions WHERE name = 'modules.secrets.manage'`);
}
