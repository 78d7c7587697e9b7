/**
 * Rings (DESIGN.md, Rings and the registry; issue 4 items 2-4): the rings in promotion order, each
 * ring's releases with full history (every row is a whole alias → version map, so "the manifests of
 * ring R's release" is one row plus the registry), the lifecycle operations that run as jobs, and the
 * locks that keep two operations on one module and ring from interleaving across nodes.
 */
import { DataTypes, literal, type QueryInterface } from 'sequelize';

const ts = { type: DataTypes.DATE, allowNull: false, defaultValue: literal('CURRENT_TIMESTAMP') };

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('rings', {
    name: { type: DataTypes.STRING(50), primaryKey: true },
    // Promotion order: lower comes first (canary 10, beta 20, stable 30).
    position: { type: DataTypes.INTEGER, allowNull: false, unique: true },
    description: { type: DataTypes.TEXT, allowNull: true },
    current_release_id: { type: DataTypes.BIGINT, allowNull: true },
    created_at: ts,
  });
  await qi.createTable('ring_releases', {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    ring: { type: DataTypes.STRING(50), allowNull: false, references: { model: 'rings', key: 'name' }, onDelete: 'CASCADE' },
    // 0 for the ring's first (empty) release, then 1, 2, ... per ring.
    number: { type: DataTypes.INTEGER, allowNull: false },
    // alias → version: the whole release, not a delta.
    modules: { type: DataTypes.JSONB, allowNull: false, defaultValue: {} },
    // initial | promote | rollback
    kind: { type: DataTypes.STRING(20), allowNull: false },
    // What changed from the release it replaced: [{alias, from, to}].
    changes: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
    // The release a ring rollback of this one returns to (null: nothing to return to).
    previous_id: { type: DataTypes.BIGINT, allowNull: true },
    operation_id: { type: DataTypes.UUID, allowNull: true },
    created_by: { type: DataTypes.STRING(100), allowNull: true },
    created_at: ts,
  });
  await qi.addIndex('ring_releases', ['ring', 'number'], { unique: true, name: 'ring_releases_ring_number' });
  await qi.sequelize.query(
    `ALTER TABLE rings ADD CONSTRAINT rings_current_release FOREIGN KEY (current_release_id) REFERENCES ring_releases(id) DEFERRABLE INITIALLY DEFERRED`,
  );

  await qi.createTable('lifecycle_operations', {
    id: { type: DataTypes.UUID, primaryKey: true },
    // install | upgrade | rollback | uninstall | promote | ring_rollback | assign
    kind: { type: DataTypes.STRING(30), allowNull: false },
    ring: { type: DataTypes.STRING(50), allowNull: true },
    alias: { type: DataTypes.STRING(50), allowNull: true },
    version: { type: DataTypes.STRING(100), allowNull: true },
    tenant_id: { type: DataTypes.STRING(8), allowNull: true },
    // queued | running | completed | failed
    status: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'queued' },
    params: { type: DataTypes.JSONB, allowNull: false, defaultValue: {} },
    // {done, total, message}
    progress: { type: DataTypes.JSONB, allowNull: false, defaultValue: { done: 0, total: 0, message: 'queued' } },
    result: { type: DataTypes.JSONB, allowNull: true },
    // {code, message, status, details}
    error: { type: DataTypes.JSONB, allowNull: true },
    // {kind: 'user', id, tenant_id} | {kind: 'publisher', id}
    requested_by: { type: DataTypes.JSONB, allowNull: false },
    created_at: ts,
    started_at: { type: DataTypes.DATE, allowNull: true },
    finished_at: { type: DataTypes.DATE, allowNull: true },
  });
  await qi.addIndex('lifecycle_operations', ['tenant_id', 'created_at']);
  await qi.addIndex('lifecycle_operations', ['ring', 'created_at']);

  await qi.createTable('lifecycle_locks', {
    // "ring:<ring>:<alias>" or "tenant:<tenant>:<alias>"
    key: { type: DataTypes.STRING(200), primaryKey: true },
    operation_id: { type: DataTypes.UUID, allowNull: false },
    ring: { type: DataTypes.STRING(50), allowNull: true },
    tenant_id: { type: DataTypes.STRING(8), allowNull: true },
    alias: { type: DataTypes.STRING(50), allowNull: false },
    acquired_at: ts,
    // Refreshed while the operation runs; a lock not refreshed for a while belongs to a dead node.
    heartbeat_at: ts,
  });
  await qi.addIndex('lifecycle_locks', ['alias']);
  await qi.addIndex('lifecycle_locks', ['operation_id']);

  for (const [name, position, description] of [
    ['canary', 10, 'First to receive new module versions.'],
    ['beta', 20, 'Early adopters, after canary.'],
    ['stable', 30, 'Everyone else; the default ring of new tenants.'],
  ] as const) {
    await qi.sequelize.query(`INSERT INTO rings (name, position, description) VALUES ($1, $2, $3)`, { bind: [name, position, description] });
    await qi.sequelize.query(
      `INSERT INTO ring_releases (ring, number, modules, kind, changes) VALUES ($1, 0, '{}'::jsonb, 'initial', '[]'::jsonb)`,
      { bind: [name] },
    );
    await qi.sequelize.query(`UPDATE rings SET current_release_id = (SELECT id FROM ring_releases WHERE ring = $1 AND number = 0) WHERE name = $1`, {
      bind: [name],
    });
  }
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('lifecycle_locks');
  await qi.dropTable('lifecycle_operations');
  await qi.sequelize.query('ALTER TABLE rings DROP CONSTRAINT IF EXISTS rings_current_release');
  await qi.dropTable('ring_releases');
  await qi.dropTable('rings');
}
