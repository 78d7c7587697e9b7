/**
 * Devices that receive push messages for a user of the tenant: mobile tokens (ios, android) for the
 * push service, and browser subscriptions (web) for web push. A token identifies one device, so it
 * belongs to at most one user: registering it again moves it to whoever is signed in now.
 */
import { DataTypes, literal, type QueryInterface } from 'sequelize';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('push_devices', {
    id: { type: DataTypes.UUID, primaryKey: true, defaultValue: literal('gen_random_uuid()') },
    user_id: { type: DataTypes.BIGINT, allowNull: false },
    platform: { type: DataTypes.STRING(10), allowNull: false },
    // Mobile: the push service's device token. Web: the subscription endpoint URL.
    token: { type: DataTypes.TEXT, allowNull: false },
    // Web only: the subscription's p256dh and auth keys (base64url), needed to encrypt payloads.
    keys: { type: DataTypes.JSONB, allowNull: true },
    device_name: { type: DataTypes.STRING(255), allowNull: true },
    created_at: { type: DataTypes.DATE, allowNull: false, defaultValue: literal('CURRENT_TIMESTAMP') },
    updated_at: { type: DataTypes.DATE, allowNull: false, defaultValue: literal('CURRENT_TIMESTAMP') },
  });
  await qi.sequelize.query('CREATE UNIQUE INDEX push_devices_token ON push_devices (md5(token))');
  await qi.addIndex('push_devices', ['user_id']);
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('push_devices');
}
