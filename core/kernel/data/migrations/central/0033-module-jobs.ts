/**
 * Jobs that modules enqueue for themselves (core/kernel/modules/module-jobs.ts). The queue runs them; this
 * table is what a module reads back (status, attempts, progress, result or error) and what bounds
 * them: pending jobs per tenant and module are counted here, and a key names at most one open job
 * of a module in a tenant (checked under a lock per module and tenant: module-job-store.ts).
 */
import { DataTypes, literal, type QueryInterface } from 'sequelize';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('module_jobs', {
    id: { type: DataTypes.UUID, primaryKey: true },
    tenant_id: { type: DataTypes.STRING(8), allowNull: false, references: { model: 'tenants', key: 'id' }, onDelete: 'CASCADE' },
    alias: { type: DataTypes.STRING(50), allowNull: false },
    job: { type: DataTypes.STRING(50), allowNull: false },
    key: { type: DataTypes.STRING(200), allowNull: true },
    data: { type: DataTypes.JSONB, allowNull: false },
    /** pending | active | completed | failed | cancelled | dropped */
    status: { type: DataTypes.STRING(12), allowNull: false },
    attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    progress: { type: DataTypes.JSONB, allowNull: true },
    result: { type: DataTypes.JSONB, allowNull: true },
    error: { type: DataTypes.TEXT, allowNull: true },
    run_at: { type: DataTypes.DATE, allowNull: false },
    created_at: { type: DataTypes.DATE, allowNull: false, defaultValue: literal('CURRENT_TIMESTAMP') },
    finished_at: { type: DataTypes.DATE, allowNull: true },
  });
  await qi.addIndex('module_jobs', ['tenant_id', 'alias', 'status'], { name: 'module_jobs_owner_status' });
  await qi.sequelize.query(`CREATE INDEX module_jobs_open_key ON module_jobs (tenant_id, alias, key) WHERE key IS NOT NULL AND status IN ('pending', 'active')`);
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('module_jobs');
}
