/** The permission of the module settings routes (core/kernel/module-settings/settings-routes.ts). */
import type { QueryInterface } from 'sequelize';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.sequelize.query(
    `INSERT INTO permissions (name, description, module) VALUES ('modules.settings.manage', 'Read and change the settings of the tenant''s modules; secret settings are write-only.', NULL)
     ON CONFLICT (name) DO NOTHING`,
  );
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.sequelize.query(`DELETE FROM permissions WHERE name = 'modules.settings.manage'`);
}
