/**
 * Sequelize models of the ring tables (core/kernel/data/migrations/central/0011-rings.ts). A subclass per
 * Sequelize instance, as in core/kernel/data/central-models.ts.
 */
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export type ReleaseModules = Record<string, string>;
export interface ReleaseChange {
  alias: string;
  /** null: the module was not in the release before. */
  from: string | null;
  /** null: the module left the release. */
  to: string | null;
}

export class Ring extends Model<InferAttributes<Ring>, InferCreationAttributes<Ring>> {
  declare name: string;
  declare position: number;
  declare description: CreationOptional<string | null>;
  declare current_release_id: CreationOptional<number | null>;
  declare created_at: CreationOptional<Date>;
}

export class RingRelease extends Model<InferAttributes<RingRelease>, InferCreationAttributes<RingRelease>> {
  declare id: CreationOptional<number>;
  declare ring: string;
  declare number: number;
  declare modules: ReleaseModules;
  declare kind: 'initial' | 'promote' | 'rollback';
  declare changes: ReleaseChange[];
  declare previous_id: number | null;
  declare operation_id: string | null;
  declare created_by: string | null;
  declare created_at: CreationOptional<Date>;
}

export type OperationKind = 'install' | 'upgrade' | 'rollback' | 'uninstall' | 'promote' | 'ring_rollback' | 'assign';
export type OperationStatus = 'queued' | 'running' | 'completed' | 'failed';
export interface OperationProgress {
  done: number;
  total: number;
  message: string;
}
export interface OperationError {
  code: string;
  message: string;
  status: number;
  details?: Record<string, unknown>;
}
export type Requester = { kind: 'user'; id: number; tenant_id: string | null } | { kind: 'publisher'; id: number } | { kind: 'system' };

export class LifecycleOperation extends Model<InferAttributes<LifecycleOperation>, InferCreationAttributes<LifecycleOperation>> {
  declare id: string;
  declare kind: OperationKind;
  declare ring: string | null;
  declare alias: string | null;
  declare version: string | null;
  declare tenant_id: string | null;
  declare status: CreationOptional<OperationStatus>;
  declare params: CreationOptional<Record<string, unknown>>;
  declare progress: CreationOptional<OperationProgress>;
  declare result: CreationOptional<Record<string, unknown> | null>;
  declare error: CreationOptional<OperationError | null>;
  declare requested_by: Requester;
  declare created_at: CreationOptional<Date>;
  declare started_at: CreationOptional<Date | null>;
  declare finished_at: CreationOptional<Date | null>;
}

export class LifecycleLock extends Model<InferAttributes<LifecycleLock>, InferCreationAttributes<LifecycleLock>> {
  declare key: string;
  declare operation_id: string;
  declare ring: string | null;
  declare tenant_id: string | null;
  declare alias: string;
  declare acquired_at: CreationOptional<Date>;
  declare heartbeat_at: CreationOptional<Date>;
}

const now = () => ({ type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW });
const bigId = { type: DataTypes.BIGINT, get(this: Model) { const v = this.getDataValue('id'); return v === null ? v : Number(v); } };

export function defineRingModels(sequelize: Sequelize) {
  const RingM = class extends Ring {};
  RingM.init(
    {
      name: { type: DataTypes.STRING(50), primaryKey: true },
      position: { type: DataTypes.INTEGER, allowNull: false },
      description: { type: DataTypes.TEXT, allowNull: true },
      current_release_id: {
        type: DataTypes.BIGINT,
        allowNull: true,
        get() {
          const v = this.getDataValue('current_release_id');
          return v === null || v === undefined ? null : Number(v);
        },
      },
      created_at: now(),
    },
    { sequelize, tableName: 'rings', underscored: true, timestamps: false },
  );
  const ReleaseM = class extends RingRelease {};
  ReleaseM.init(
    {
      id: { ...bigId, primaryKey: true, autoIncrement: true },
      ring: { type: DataTypes.STRING(50), allowNull: false },
      number: { type: DataTypes.INTEGER, allowNull: false },
      modules: { type: DataTypes.JSONB, allowNull: false },
      kind: { type: DataTypes.STRING(20), allowNull: false },
      changes: { type: DataTypes.JSONB, allowNull: false },
      previous_id: {
        type: DataTypes.BIGINT,
        allowNull: true,
        get() {
          const v = this.getDataValue('previous_id');
          return v === null || v === undefined ? null : Number(v);
        },
      },
      operation_id: { type: DataTypes.UUID, allowNull: true },
      created_by: { type: DataTypes.STRING(100), allowNull: true },
      created_at: now(),
    },
    { sequelize, tableName: 'ring_releases', underscored: true, timestamps: false },
  );
  const OperationM = class extends LifecycleOperation {};
  OperationM.init(
    {
      id: { type: DataTypes.UUID, primaryKey: true },
      kind: { type: DataTypes.STRING(30), allowNull: false },
      ring: { type: DataTypes.STRING(50), allowNull: true },
      alias: { type: DataTypes.STRING(50), allowNull: true },
      version: { type: DataTypes.STRING(100), allowNull: true },
      tenant_id: { type: DataTypes.STRING(8), allowNull: true },
      status: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'queued' },
      params: { type: DataTypes.JSONB, allowNull: false, defaultValue: {} },
      progress: { type: DataTypes.JSONB, allowNull: false, defaultValue: { done: 0, total: 0, message: 'queued' } },
      result: { type: DataTypes.JSONB, allowNull: true },
      error: { type: DataTypes.JSONB, allowNull: true },
      requested_by: { type: DataTypes.JSONB, allowNull: false },
      created_at: now(),
      started_at: { type: DataTypes.DATE, allowNull: true },
      finished_at: { type: DataTypes.DATE, allowNull: true },
    },
    { sequelize, tableName: 'lifecycle_operations', underscored: true, timestamps: false },
  );
  const LockM = class extends LifecycleLock {};
  LockM.init(
    {
      key: { type: DataTypes.STRING(200), primaryKey: true },
      operation_id: { type: DataTypes.UUID, allowNull: false },
      ring: { type: DataTypes.STRING(50), allowNull: true },
      tenant_id: { type: DataTypes.STRING(8), allowNull: true },
      alias: { type: DataTypes.STRING(50), allowNull: false },
      acquired_at: now(),
      heartbeat_at: now(),
    },
    { sequelize, tableName: 'lifecycle_locks', underscored: true, timestamps: false },
  );
  return { Ring: RingM, Release: ReleaseM, Operation: OperationM, Lock: LockM };
}

export type RingModels = ReturnType<typeof defineRingModels>;
