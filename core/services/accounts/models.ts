/** Central-database models of accounts (tables made by migrations/central/0003-two-factor and 0004-invitations). */
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

export type InvitationStatus = 'pending' | 'accepted' | 'declined' | 'revoked';

export class Invitation extends Model<InferAttributes<Invitation>, InferCreationAttributes<Invitation>> {
  declare id: CreationOptional<number>;
  declare tenant_id: string;
  declare email: string;
  declare name: string | null;
  declare role: string;
  declare token_hash: string;
  declare invited_by: number | null;
  declare status: CreationOptional<InvitationStatus>;
  declare expires_at: Date;
  declare responded_at: CreationOptional<Date | null>;
  declare user_id: CreationOptional<number | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;
}

const optionalId = (column: string) => ({
  type: DataTypes.BIGINT,
  allowNull: true,
  get(this: Model) {
    const v = this.getDataValue(column);
    return v === null || v === undefined ? null : Number(v);
  },
});

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
  const InvitationM = class extends Invitation {};
  InvitationM.init(
    {
      id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true, get() { return Number(this.getDataValue('id')); } },
      tenant_id: { type: DataTypes.STRING(8), allowNull: false },
      email: { type: DataTypes.STRING, allowNull: false },
      name: { type: DataTypes.STRING, allowNull: true },
      role: { type: DataTypes.STRING, allowNull: false },
      token_hash: { type: DataTypes.STRING(64), allowNull: false },
      invited_by: optionalId('invited_by'),
      status: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'pending' },
      expires_at: { type: DataTypes.DATE, allowNull: false },
      responded_at: { type: DataTypes.DATE, allowNull: true },
      user_id: optionalId('user_id'),
      created_at: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
      updated_at: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
    },
    { sequelize, tableName: 'invitations', underscored: true, timestamps: true, createdAt: 'created_at', updatedAt: 'updated_at' },
  );
  return { TwoFactor: TwoFactorM, Invitation: InvitationM };
}

export type AccountModels = ReturnType<typeof defineAccountModels>;
