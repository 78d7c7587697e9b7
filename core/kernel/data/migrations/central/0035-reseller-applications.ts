/**
 * Reseller applications (spec 3, reseller network; core/kernel/tenancy/reseller-applications.ts): a
 * tenant made by POST /reseller-register/apply waits here, outside tenant_links, until the parent
 * it named approves it (then it is linked under that parent) or rejects it (with a reason). One
 * application per tenant; a parent lists its own, newest decisions apart, by status.
 */
import type { QueryInterface } from 'sequelize';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.sequelize.query(`
    CREATE TABLE reseller_applications (
      tenant_id varchar(8) PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
      parent_id varchar(8) NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      status varchar(20) NOT NULL DEFAULT 'pending',
      email varchar(255) NOT NULL,
      phone varchar(50),
      message text,
      reason text,
      decided_by integer,
      decided_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT CURRENT_TIMESTAMP,
      CONSTRAINT reseller_applications_status CHECK (status IN ('pending', 'approved', 'rejected')),
      CONSTRAINT reseller_applications_rejection_has_reason CHECK (status <> 'rejected' OR reason IS NOT NULL)
    )`);
  await qi.sequelize.query('CREATE INDEX reseller_applications_parent ON reseller_applications (parent_id, status, created_at)');
  await qi.sequelize.query(
    `INSERT INTO permissions (name, description, module) VALUES
       ('reseller.applications.manage', 'List, approve and reject the reseller applications made under this tenant.', NULL)
     ON CONFLICT (name) DO NOTHING`,
  );
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.sequelize.query('DROP TABLE reseller_applications');
  await qi.sequelize.query(`DELETE FROM permissions WHERE name = 'reseller.applications.manage'`);
}
