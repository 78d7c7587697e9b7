/** Central-database models of accounts (tables made by migrations/central/0003-two-factor). */
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export class TwoFactor extends Model<InferAttributes<TwoFactor>, InferCreationAttributes<TwoFactor>> {
  declare user_id: number;
  declare secret_encrypted: string;
  declare confirmed_at: CreationOptional<Date | null>;
  /** SHA-256 hex of each unused recovery code. */
  declare recovery_codes: CreationOptional<string[]>;
  declare last_used_step: CreationOptional<number | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;
}

export function defineAccountModels(sequelize: Sequelize) {
  // A subclass per instance, as in central-models.ts: two platforms in one process never share state.
  const TwoFactorM = class extends TwoFactor {};
  TwoFactorM.init(
    {
      user_id: { type: DataTypes.BIGINT, primaryKey: true, get() { return Number(this.getDataValue('user_id')); } },
      secret_encrypted: { type: DataTypes.TEXT, allowNull: false },
      confirmed_at: { type: DataTypes.DATE, allowNull: true },
      recovery_codes: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
      last_used_step: {
        type: DataTypes.BIGINT,
        allowNull: true,
        get() {
          const v = this.getDataValue('last_used_step');
          return v === null || v === undefined ? null : Number(v);
        },
      },
      created_at: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
      updated_at: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
    },
    { sequelize, tableName: 'user_two_factor', underscored: true, timestamps: true, createdAt: 'created_at', updatedAt: 'updated_at' },
  );
  return { TwoFactor: TwoFactorM };
}

export type AccountModels = ReturnType<typeof defineAccountModels>;
