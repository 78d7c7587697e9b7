/**
 * Module settings (core/kernel/module-settings; docs/decisions/module-settings.md): one document of
 * non-secret values per module, validated by its manifest's `settings` schema. In the tenant's
 * database, beside the data they configure, outside every module's own schema: module code reads and
 * writes them only through settings.get / settings.set. Secrets are module secrets (central,
 * encrypted), never here.
 */
import type { QueryInterface } from 'sequelize';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.sequelize.query(`
    CREATE TABLE module_settings (
      module varchar(50) PRIMARY KEY,
      "values" jsonb NOT NULL DEFAULT '{}',
      updated_at timestamptz NOT NULL DEFAULT now()
    );
  `);
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.sequelize.query('DROP TABLE module_settings');
}
