/**
 * Invitations to join a tenant. Only the SHA-256 of the mailed token is stored, as for access tokens.
 * One pending invitation per tenant and address; accepted, declined and revoked ones stay as history.
 */
import { DataTypes, literal, type QueryInterface } from 'sequelize';

const ts = { type: DataTypes.DATE, allowNull: false, defaultValue: literal('CURRENT_TIMESTAMP') };

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('invitations', {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    tenant_id: { type: DataTypes.STRING(8), allowNull: false, references: { model: 'tenants', key: 'id' }, onDelete: 'CASCADE' },
    // Stored lowercase: the address is what the invitation is bound to, not an account.
    email: { type: DataTypes.STRING, allowNull: false },
    name: { type: DataTypes.STRING, allowNull: true },
    role: { type: DataTypes.STRING, allowNull: false },
    token_hash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    invited_by: { type: DataTypes.BIGINT, allowNull: true, references: { model: 'users', key: 'id' }, onDelete: 'SET NULL' },
    status: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'pending' },
    expires_at: { type: DataTypes.DATE, allowNull: false },
    responded_at: { type: DataTypes.DATE, allowNull: true },
    user_id: { type: DataTypes.BIGINT, allowNull: true, references: { model: 'users', key: 'id' }, onDelete: 'SET NULL' },
    created_at: ts,
    updated_at: ts,
  });
  await qi.sequelize.query(`CREATE UNIQUE INDEX invitations_pending ON invitations (tenant_id, email) WHERE status = 'pending'`);
  await qi.addIndex('invitations', ['email']);
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('invitations');
}
