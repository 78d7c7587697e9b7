/** Central database, first schema: tenancy, identity, access, audit. */
import { DataTypes, literal, type QueryInterface } from 'sequelize';

const ts = { type: DataTypes.DATE, allowNull: false, defaultValue: literal('CURRENT_TIMESTAMP') };

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('tenants', {
    id: { type: DataTypes.STRING(8), primaryKey: true },
    name: { type: DataTypes.STRING(255), allowNull: false },
    status: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'active' },
    ring: { type: DataTypes.STRING(50), allowNull: false, defaultValue: 'stable' },
    settings: { type: DataTypes.JSONB, allowNull: false, defaultValue: {} },
    created_at: ts,
    updated_at: ts,
  });
  await qi.createTable('domains', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    tenant_id: { type: DataTypes.STRING(8), allowNull: false, references: { model: 'tenants', key: 'id' }, onDelete: 'CASCADE' },
    domain: { type: DataTypes.STRING(63), allowNull: false, unique: true },
    kind: { type: DataTypes.STRING(10), allowNull: false },
    created_at: ts,
  });
  await qi.sequelize.query(`ALTER TABLE domains ADD CONSTRAINT domains_lowercase CHECK (domain = lower(domain))`);
  await qi.addIndex('domains', ['tenant_id']);

  await qi.createTable('users', {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    name: { type: DataTypes.STRING(255), allowNull: false },
    email: { type: DataTypes.STRING(255), allowNull: false },
    password_hash: { type: DataTypes.STRING(255), allowNull: false },
    status: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'active' },
    is_super_admin: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    email_verified_at: { type: DataTypes.DATE, allowNull: true },
    last_login_at: { type: DataTypes.DATE, allowNull: true },
    last_login_ip: { type: DataTypes.STRING(45), allowNull: true },
    created_at: ts,
    updated_at: ts,
  });
  await qi.sequelize.query(`CREATE UNIQUE INDEX users_email_lower ON users (lower(email))`);

  await qi.createTable('permissions', {
    name: { type: DataTypes.STRING(100), primaryKey: true },
    description: { type: DataTypes.TEXT, allowNull: true },
    module: { type: DataTypes.STRING(50), allowNull: true },
  });
  await qi.createTable('roles', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    // NULL: a built-in role every tenant has; otherwise a tenant's own role.
    tenant_id: { type: DataTypes.STRING(8), allowNull: true, references: { model: 'tenants', key: 'id' }, onDelete: 'CASCADE' },
    name: { type: DataTypes.STRING(50), allowNull: false },
    description: { type: DataTypes.TEXT, allowNull: true },
    permissions: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
    created_at: ts,
    updated_at: ts,
  });
  await qi.sequelize.query(`CREATE UNIQUE INDEX roles_tenant_name ON roles (COALESCE(tenant_id, ''), name)`);
  // Built-in roles every tenant has. '*' grants every permission.
  await qi.bulkInsert('roles', [
    { name: 'owner', description: 'Owns the organisation; every permission.', permissions: JSON.stringify(['*']) },
    { name: 'admin', description: 'Administers the organisation; every permission.', permissions: JSON.stringify(['*']) },
    { name: 'member', description: 'A regular member; only permissions granted by modules to members.', permissions: JSON.stringify([]) },
  ]);

  await qi.createTable('memberships', {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    tenant_id: { type: DataTypes.STRING(8), allowNull: false, references: { model: 'tenants', key: 'id' }, onDelete: 'CASCADE' },
    user_id: { type: DataTypes.BIGINT, allowNull: false, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' },
    role: { type: DataTypes.STRING(50), allowNull: false },
    status: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'active' },
    joined_at: ts,
    last_active_at: { type: DataTypes.DATE, allowNull: true },
  });
  await qi.addIndex('memberships', ['tenant_id', 'user_id'], { unique: true });
  await qi.addIndex('memberships', ['user_id']);

  await qi.createTable('access_tokens', {
    id: { type: DataTypes.UUID, primaryKey: true },
    user_id: { type: DataTypes.BIGINT, allowNull: false, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' },
    tenant_id: { type: DataTypes.STRING(8), allowNull: false, references: { model: 'tenants', key: 'id' }, onDelete: 'CASCADE' },
    name: { type: DataTypes.STRING(255), allowNull: false },
    // SHA-256 of the token: the token itself is shown once and never stored.
    token_hash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    created_at: ts,
    last_used_at: { type: DataTypes.DATE, allowNull: true },
    expires_at: { type: DataTypes.DATE, allowNull: true },
    revoked_at: { type: DataTypes.DATE, allowNull: true },
  });
  await qi.addIndex('access_tokens', ['user_id']);

  await qi.createTable('audit_log', {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    tenant_id: { type: DataTypes.STRING(8), allowNull: true },
    actor_type: { type: DataTypes.STRING(20), allowNull: false },
    actor_id: { type: DataTypes.STRING(100), allowNull: true },
    action: { type: DataTypes.STRING(150), allowNull: false },
    target: { type: DataTypes.STRING(255), allowNull: true },
    status: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'ok' },
    details: { type: DataTypes.JSONB, allowNull: true },
    created_at: ts,
  });
  await qi.addIndex('audit_log', ['tenant_id', 'created_at']);

  await qi.createTable('platform_settings', {
    key: { type: DataTypes.STRING(100), primaryKey: true },
    value: { type: DataTypes.JSONB, allowNull: false },
    updated_at: ts,
  });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  for (const t of ['platform_settings', 'audit_log', 'access_tokens', 'memberships', 'roles', 'permissions', 'users', 'domains', 'tenants']) {
    await qi.dropTable(t);
  }
}
