/** Sequelize models of the central database (tables created by migrations/central). */
import { DataTypes, Model, type Sequelize, type InferAttributes, type InferCreationAttributes, type CreationOptional } from 'sequelize';

export class Tenant extends Model<InferAttributes<Tenant>, InferCreationAttributes<Tenant>> {
  declare id: string;
  declare name: string;
  declare status: CreationOptional<string>;
  declare ring: CreationOptional<string>;
  declare settings: CreationOptional<Record<string, unknown>>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;
}

export class Domain extends Model<InferAttributes<Domain>, InferCreationAttributes<Domain>> {
  declare id: CreationOptional<number>;
  declare tenant_id: string;
  declare domain: string;
  /** 'id' for the immutable random id row, 'alias' for human-readable ones. */
  declare kind: 'id' | 'alias';
  declare created_at: CreationOptional<Date>;
}

export class User extends Model<InferAttributes<User>, InferCreationAttributes<User>> {
  declare id: CreationOptional<number>;
  declare name: string;
  declare email: string;
  declare password_hash: string;
  declare status: CreationOptional<string>;
  declare is_super_admin: CreationOptional<boolean>;
  declare email_verified_at: CreationOptional<Date | null>;
  declare last_login_at: CreationOptional<Date | null>;
  declare last_login_ip: CreationOptional<string | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;
}

export class Membership extends Model<InferAttributes<Membership>, InferCreationAttributes<Membership>> {
  declare id: CreationOptional<number>;
  declare tenant_id: string;
  declare user_id: number;
  declare role: string;
  declare status: CreationOptional<string>;
  declare joined_at: CreationOptional<Date>;
  declare last_active_at: CreationOptional<Date | null>;
}

export class Role extends Model<InferAttributes<Role>, InferCreationAttributes<Role>> {
  declare id: CreationOptional<number>;
  declare tenant_id: string | null;
  declare name: string;
  declare description: CreationOptional<string | null>;
  declare permissions: string[];
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;
}

export class Permission extends Model<InferAttributes<Permission>, InferCreationAttributes<Permission>> {
  declare name: string;
  declare description: CreationOptional<string | null>;
  declare module: CreationOptional<string | null>;
}

export class AccessToken extends Model<InferAttributes<AccessToken>, InferCreationAttributes<AccessToken>> {
  declare id: string;
  declare user_id: number;
  declare tenant_id: string;
  declare name: string;
  declare token_hash: string;
  declare created_at: CreationOptional<Date>;
  declare last_used_at: CreationOptional<Date | null>;
  declare expires_at: CreationOptional<Date | null>;
  declare revoked_at: CreationOptional<Date | null>;
}

export class AuditEntry extends Model<InferAttributes<AuditEntry>, InferCreationAttributes<AuditEntry>> {
  declare id: CreationOptional<number>;
  declare tenant_id: string | null;
  declare actor_type: string;
  declare actor_id: string | null;
  declare action: string;
  declare target: CreationOptional<string | null>;
  declare status: CreationOptional<string>;
  declare details: CreationOptional<Record<string, unknown> | null>;
  declare created_at: CreationOptional<Date>;
}

export class PlatformSetting extends Model<InferAttributes<PlatformSetting>, InferCreationAttributes<PlatformSetting>> {
  declare key: string;
  declare value: unknown;
  declare updated_at: CreationOptional<Date>;
}

/** A module's secret in a tenant (core/kernel/secrets/module-secrets.ts); the value only as ciphertext. */
export class ModuleSecret extends Model<InferAttributes<ModuleSecret>, InferCreationAttributes<ModuleSecret>> {
  declare tenant_id: string;
  declare module: string;
  declare name: string;
  declare ciphertext: string;
  declare key_id: string;
  declare hint: string | null;
  declare set_at: CreationOptional<Date>;
}

export class ModuleInstall extends Model<InferAttributes<ModuleInstall>, InferCreationAttributes<ModuleInstall>> {
  declare id: CreationOptional<number>;
  declare tenant_id: string;
  declare alias: string;
  declare version: string;
  declare status: CreationOptional<string>;
  declare installed_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;
}

export class ModulePublicToken extends Model<InferAttributes<ModulePublicToken>, InferCreationAttributes<ModulePublicToken>> {
  declare id: CreationOptional<number>;
  declare alias: string;
  declare token_hash: string;
  declare tenant_id: string;
  declare label: string | null;
  declare created_at: CreationOptional<Date>;
}

/** The module alias that owns a public prefix (http.public) on the whole platform (core/kernel/modules/public-prefix-owners.ts). */
export class PublicPrefixOwner extends Model<InferAttributes<PublicPrefixOwner>, InferCreationAttributes<PublicPrefixOwner>> {
  declare prefix: string;
  declare alias: string;
  declare claimed_at: CreationOptional<Date>;
}

// A function, not a shared object: Sequelize writes the column name into each attribute definition.
const now = () => ({ type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW });
const base = { underscored: true, timestamps: false } as const;

export function defineCentralModels(sequelize: Sequelize) {
  // A subclass per instance: two platforms in one process (tests) never share model state.
  const TenantM = class extends Tenant {};
  TenantM.init(
    {
      id: { type: DataTypes.STRING(8), primaryKey: true },
      name: { type: DataTypes.STRING, allowNull: false },
      status: { type: DataTypes.STRING, allowNull: false, defaultValue: 'active' },
      ring: { type: DataTypes.STRING, allowNull: false, defaultValue: 'stable' },
      settings: { type: DataTypes.JSONB, allowNull: false, defaultValue: {} },
      created_at: now(),
      updated_at: now(),
    },
    { sequelize, tableName: 'tenants', ...base, timestamps: true, createdAt: 'created_at', updatedAt: 'updated_at' },
  );
  const DomainM = class extends Domain {};
  DomainM.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      tenant_id: { type: DataTypes.STRING(8), allowNull: false },
      domain: { type: DataTypes.STRING(63), allowNull: false },
      kind: { type: DataTypes.STRING(10), allowNull: false },
      created_at: now(),
    },
    { sequelize, tableName: 'domains', ...base },
  );
  const UserM = class extends User {};
  UserM.init(
    {
      id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true, get() { return Number(this.getDataValue('id')); } },
      name: { type: DataTypes.STRING, allowNull: false },
      email: { type: DataTypes.STRING, allowNull: false },
      password_hash: { type: DataTypes.STRING, allowNull: false },
      status: { type: DataTypes.STRING, allowNull: false, defaultValue: 'active' },
      is_super_admin: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      email_verified_at: { type: DataTypes.DATE, allowNull: true },
      last_login_at: { type: DataTypes.DATE, allowNull: true },
      last_login_ip: { type: DataTypes.STRING(45), allowNull: true },
      created_at: now(),
      updated_at: now(),
    },
    { sequelize, tableName: 'users', ...base, timestamps: true, createdAt: 'created_at', updatedAt: 'updated_at' },
  );
  const MembershipM = class extends Membership {};
  MembershipM.init(
    {
      id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
      tenant_id: { type: DataTypes.STRING(8), allowNull: false },
      user_id: { type: DataTypes.BIGINT, allowNull: false, get() { return Number(this.getDataValue('user_id')); } },
      role: { type: DataTypes.STRING, allowNull: false },
      status: { type: DataTypes.STRING, allowNull: false, defaultValue: 'active' },
      joined_at: now(),
      last_active_at: { type: DataTypes.DATE, allowNull: true },
    },
    { sequelize, tableName: 'memberships', ...base },
  );
  const RoleM = class extends Role {};
  RoleM.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      tenant_id: { type: DataTypes.STRING(8), allowNull: true },
      name: { type: DataTypes.STRING, allowNull: false },
      description: { type: DataTypes.TEXT, allowNull: true },
      permissions: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
      created_at: now(),
      updated_at: now(),
    },
    { sequelize, tableName: 'roles', ...base, timestamps: true, createdAt: 'created_at', updatedAt: 'updated_at' },
  );
  const PermissionM = class extends Permission {};
  PermissionM.init(
    {
      name: { type: DataTypes.STRING(100), primaryKey: true },
      description: { type: DataTypes.TEXT, allowNull: true },
      module: { type: DataTypes.STRING(50), allowNull: true },
    },
    { sequelize, tableName: 'permissions', ...base },
  );
  const AccessTokenM = class extends AccessToken {};
  AccessTokenM.init(
    {
      id: { type: DataTypes.UUID, primaryKey: true },
      user_id: { type: DataTypes.BIGINT, allowNull: false, get() { return Number(this.getDataValue('user_id')); } },
      tenant_id: { type: DataTypes.STRING(8), allowNull: false },
      name: { type: DataTypes.STRING, allowNull: false },
      token_hash: { type: DataTypes.STRING(64), allowNull: false },
      created_at: now(),
      last_used_at: { type: DataTypes.DATE, allowNull: true },
      expires_at: { type: DataTypes.DATE, allowNull: true },
      revoked_at: { type: DataTypes.DATE, allowNull: true },
    },
    { sequelize, tableName: 'access_tokens', ...base },
  );
  const AuditEntryM = class extends AuditEntry {};
  AuditEntryM.init(
    {
      id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
      tenant_id: { type: DataTypes.STRING(8), allowNull: true },
      actor_type: { type: DataTypes.STRING(20), allowNull: false },
      actor_id: { type: DataTypes.STRING(100), allowNull: true },
      action: { type: DataTypes.STRING(150), allowNull: false },
      target: { type: DataTypes.STRING(255), allowNull: true },
      status: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'ok' },
      details: { type: DataTypes.JSONB, allowNull: true },
      created_at: now(),
    },
    { sequelize, tableName: 'audit_log', ...base },
  );
  const PlatformSettingM = class extends PlatformSetting {};
  PlatformSettingM.init(
    {
      key: { type: DataTypes.STRING(100), primaryKey: true },
      value: { type: DataTypes.JSONB, allowNull: false },
      updated_at: now(),
    },
    { sequelize, tableName: 'platform_settings', ...base },
  );
  const ModuleInstallM = class extends ModuleInstall {};
  ModuleInstallM.init(
    {
      id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
      tenant_id: { type: DataTypes.STRING(8), allowNull: false },
      alias: { type: DataTypes.STRING(50), allowNull: false },
      version: { type: DataTypes.STRING(100), allowNull: false },
      status: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'installed' },
      installed_at: now(),
      updated_at: now(),
    },
    { sequelize, tableName: 'module_installs', ...base },
  );
  const ModulePublicTokenM = class extends ModulePublicToken {};
  ModulePublicTokenM.init(
    {
      id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
      alias: { type: DataTypes.STRING(50), allowNull: false },
      token_hash: { type: DataTypes.STRING(64), allowNull: false },
      tenant_id: { type: DataTypes.STRING(8), allowNull: false },
      label: { type: DataTypes.STRING(200), allowNull: true },
      created_at: now(),
    },
    { sequelize, tableName: 'module_public_tokens', ...base },
  );
  const PublicPrefixOwnerM = class extends PublicPrefixOwner {};
  PublicPrefixOwnerM.init(
    {
      prefix: { type: DataTypes.STRING(200), primaryKey: true },
      alias: { type: DataTypes.STRING(50), allowNull: false },
      claimed_at: now(),
    },
    { sequelize, tableName: 'public_prefix_owners', ...base },
  );
  const ModuleSecretM = class extends ModuleSecret {};
  ModuleSecretM.init(
    {
      tenant_id: { type: DataTypes.STRING(8), primaryKey: true },
      module: { type: DataTypes.STRING(50), primaryKey: true },
      name: { type: DataTypes.STRING(64), primaryKey: true },
      ciphertext: { type: DataTypes.TEXT, allowNull: false },
      key_id: { type: DataTypes.STRING(12), allowNull: false },
      hint: { type: DataTypes.STRING(4), allowNull: true },
      set_at: now(),
    },
    { sequelize, tableName: 'module_secrets', ...base },
  );
  return {
    ModuleInstall: ModuleInstallM,
    ModulePublicToken: ModulePublicTokenM,
    PublicPrefixOwner: PublicPrefixOwnerM,
    ModuleSecret: ModuleSecretM,
    Tenant: TenantM,
    Domain: DomainM,
    User: UserM,
    Membership: MembershipM,
    Role: RoleM,
    Permission: PermissionM,
    AccessToken: AccessTokenM,
    AuditEntry: AuditEntryM,
    PlatformSetting: PlatformSettingM,
  };
}

export type CentralModels = ReturnType<typeof defineCentralModels>;
