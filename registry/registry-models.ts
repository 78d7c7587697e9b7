/**
 * Sequelize models of the registry tables (core/kernel/data/migrations/central/0010-registry.ts). A subclass
 * per Sequelize instance, as in core/kernel/data/central-models.ts: two platforms in one process (tests)
 * never share model state.
 */
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import type { Manifest } from '../sdk/manifest';

export class RegistryPublisher extends Model<InferAttributes<RegistryPublisher>, InferCreationAttributes<RegistryPublisher>> {
  declare id: CreationOptional<number>;
  declare name: string;
  declare public_key: CreationOptional<string | null>;
  declare token_hash: CreationOptional<string | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;
}

export class RegistryPackage extends Model<InferAttributes<RegistryPackage>, InferCreationAttributes<RegistryPackage>> {
  declare id: CreationOptional<number>;
  declare alias: string;
  declare version: string;
  declare sha256: string;
  declare size: number;
  declare publisher_id: number | null;
  declare signature: string | null;
  declare manifest: Manifest;
  declare published_by: string;
  declare published_at: CreationOptional<Date>;
}

const now = () => ({ type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW });

export function defineRegistryModels(sequelize: Sequelize) {
  const Publisher = class extends RegistryPublisher {};
  Publisher.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      name: { type: DataTypes.STRING(100), allowNull: false },
      public_key: { type: DataTypes.TEXT, allowNull: true },
      token_hash: { type: DataTypes.STRING(64), allowNull: true },
      created_at: now(),
      updated_at: now(),
    },
    { sequelize, tableName: 'registry_publishers', underscored: true, timestamps: true, createdAt: 'created_at', updatedAt: 'updated_at' },
  );
  const Package = class extends RegistryPackage {};
  Package.init(
    {
      id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true, get() { return Number(this.getDataValue('id')); } },
      alias: { type: DataTypes.STRING(50), allowNull: false },
      version: { type: DataTypes.STRING(100), allowNull: false },
      sha256: { type: DataTypes.STRING(64), allowNull: false },
      size: { type: DataTypes.INTEGER, allowNull: false },
      publisher_id: { type: DataTypes.INTEGER, allowNull: true },
      signature: { type: DataTypes.TEXT, allowNull: true },
      manifest: { type: DataTypes.JSONB, allowNull: false },
      published_by: { type: DataTypes.STRING(100), allowNull: false },
      published_at: now(),
    },
    { sequelize, tableName: 'registry_packages', underscored: true, timestamps: false },
  );
  return { Publisher, Package };
}

export type RegistryModels = ReturnType<typeof defineRegistryModels>;
