/**
 * The module registry (DESIGN.md, Rings and the registry; issue 4 item 1): publishers and the
 * packages they published. Package bytes live in a blob store; the row keeps what is needed to
 * trust and list them (sha256, size, signature) and the manifest, so catalogs and promotion checks
 * never have to unpack a package.
 */
import { DataTypes, literal, type QueryInterface } from 'sequelize';

const ts = { type: DataTypes.DATE, allowNull: false, defaultValue: literal('CURRENT_TIMESTAMP') };

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('registry_publishers', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    name: { type: DataTypes.STRING(100), allowNull: false, unique: true },
    // ed25519 public key (SPKI PEM). When set, every package this publisher publishes must be signed.
    public_key: { type: DataTypes.TEXT, allowNull: true },
    // SHA-256 of the publisher's API token; null once revoked.
    token_hash: { type: DataTypes.STRING(64), allowNull: true, unique: true },
    created_at: ts,
    updated_at: ts,
  });
  await qi.createTable('registry_packages', {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    alias: { type: DataTypes.STRING(50), allowNull: false },
    version: { type: DataTypes.STRING(100), allowNull: false },
    sha256: { type: DataTypes.STRING(64), allowNull: false },
    size: { type: DataTypes.INTEGER, allowNull: false },
    publisher_id: { type: DataTypes.INTEGER, allowNull: true, references: { model: 'registry_publishers', key: 'id' }, onDelete: 'RESTRICT' },
    // base64 ed25519 signature of the package bytes, as published.
    signature: { type: DataTypes.TEXT, allowNull: true },
    manifest: { type: DataTypes.JSONB, allowNull: false },
    // Who pressed publish: "user:<id>" or "publisher:<id>".
    published_by: { type: DataTypes.STRING(100), allowNull: false },
    published_at: ts,
  });
  // A published version is final: the unique index is what refuses a second publish of it.
  await qi.addIndex('registry_packages', ['alias', 'version'], { unique: true, name: 'registry_packages_alias_version' });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('registry_packages');
  await qi.dropTable('registry_publishers');
}
