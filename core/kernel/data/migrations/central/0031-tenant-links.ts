/**
 * The reseller network (spec 3, reseller network; Limits: `max_chain_depth` 10): each tenant's place
 * in the chain. Level 0 is the super admin's tenant (the one POST /install/owner made); every other
 * linked tenant has a parent one level up. `status` is the link's: a suspended sub-reseller stays
 * in the chain but is cut off from it (core/kernel/tenancy/tenant-network.ts).
 *
 * The database holds the rules, so no two concurrent writers can break them:
 * - one level-0 row (a unique index over a constant, for rows without parent);
 * - parent and level agree (no parent ⇔ level 0) and the level is at most 10;
 * - a parent is itself linked (foreign key), and rows are only ever added as leaves with their
 *   parent's level + 1 in one statement, never re-parented: the chain has no cycle.
 * Existing tenants are linked on migration: the install tenant as level 0 and every other tenant
 * directly under it.
 */
import type { QueryInterface } from 'sequelize';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.sequelize.query(`
    CREATE TABLE tenant_links (
      tenant_id varchar(8) PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
      parent_id varchar(8) REFERENCES tenant_links(tenant_id) ON DELETE RESTRICT,
      level smallint NOT NULL,
      status varchar(20) NOT NULL DEFAULT 'active',
      status_changed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT CURRENT_TIMESTAMP,
      CONSTRAINT tenant_links_level_range CHECK (level BETWEEN 0 AND 10),
      CONSTRAINT tenant_links_root_has_no_parent CHECK ((parent_id IS NULL) = (level = 0)),
      CONSTRAINT tenant_links_not_own_parent CHECK (parent_id IS NULL OR parent_id <> tenant_id),
      CONSTRAINT tenant_links_status CHECK (status IN ('active', 'suspended'))
    )`);
  await qi.sequelize.query('CREATE UNIQUE INDEX tenant_links_one_root ON tenant_links ((true)) WHERE parent_id IS NULL');
  await qi.sequelize.query('CREATE INDEX tenant_links_parent ON tenant_links (parent_id, created_at)');
  await qi.sequelize.query(`
    WITH root AS (
      SELECT id FROM tenants WHERE settings->'onboarding'->>'path' = 'install' ORDER BY created_at LIMIT 1
    ), linked_root AS (
      INSERT INTO tenant_links (tenant_id, parent_id, level) SELECT id, NULL, 0 FROM root RETURNING tenant_id
    )
    INSERT INTO tenant_links (tenant_id, parent_id, level)
      SELECT t.id, r.tenant_id, 1 FROM tenants t, linked_root r WHERE t.id <> r.tenant_id`);
  await qi.sequelize.query(
    `INSERT INTO permissions (name, description, module) VALUES
       ('reseller.sub_resellers.view', 'List the sub-resellers under this tenant in the reseller network.', NULL),
       ('reseller.sub_resellers.manage', 'Suspend and reactivate the sub-resellers directly under this tenant.', NULL)
     ON CONFLICT (name) DO NOTHING`,
  );
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.sequelize.query('DROP TABLE tenant_links');
  await qi.sequelize.query(`DELETE FROM permissions WHERE name IN ('reseller.sub_resellers.view', 'reseller.sub_resellers.manage')`);
}
