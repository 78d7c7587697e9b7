/**
 * A new organisation with its owner, as every onboarding path makes it: tenant rows and database
 * (TenantService), the owner's user and membership, a token, and the verification mail. If any
 * step fails, what the earlier steps made is removed again, database included.
 */
import { UniqueConstraintError } from 'sequelize';
import type { AuthService } from '../../kernel/auth/auth-service';
import { hashPassword } from '../../kernel/auth/passwords';
import { OWNER_ROLE } from '../../kernel/auth/authenticate';
import type { CentralDb } from '../../kernel/data/central-db';
import type { TenantDatabases } from '../../kernel/data/tenant-databases';
import { invalid } from '../../kernel/errors';
import type { CreateTenantInput, TenantService, TenantWithDomains } from '../../kernel/tenancy/tenant-service';
import type { EmailVerification } from './email-verification';

export interface NewOrganisation {
  organisationName: string;
  alias: string | undefined;
  /** Body field to blame when the alias is taken (organization_slug, subdomain, ...). */
  aliasField: string;
  owner: { name: string; email: string; password: string };
  superAdmin?: boolean;
  /** Its place in the reseller network (CreateTenantInput.network). */
  network?: CreateTenantInput['network'];
  /** Merged into the tenant's settings (e.g. how it was onboarded). */
  settings?: Record<string, unknown>;
  tokenName: string;
}

export interface Registered {
  tenant: TenantWithDomains;
  user: { id: number; name: string; email: string; email_verified: boolean; is_super_admin: boolean };
  token: string;
}

export class Registration {
  constructor(
    private readonly d: { central: CentralDb; tenants: TenantService; tenantDbs: TenantDatabases; auth: AuthService; verification: EmailVerification },
  ) {}

  async emailTaken(email: string): Promise<boolean> {
    const { sequelize, models } = this.d.central;
    return (await models.User.count({ where: sequelize.where(sequelize.fn('lower', sequelize.col('email')), email.toLowerCase()) })) > 0;
  }

  async create(o: NewOrganisation): Promise<Registered> {
    const { central, tenants, tenantDbs, auth, verification } = this.d;
    if (await this.emailTaken(o.owner.email)) throw invalid('email', 'The email has already been taken.');
    const tenant = await tenants.create({ name: o.organisationName, alias: o.alias, network: o.network }, o.aliasField);
    let userId: number | undefined;
    try {
      if (o.settings) await central.models.Tenant.update({ settings: o.settings }, { where: { id: tenant.id } });
      const user = await central.sequelize.transaction(async (transaction) => {
        const u = await central.models.User.create(
          { name: o.owner.name, email: o.owner.email, password_hash: await hashPassword(o.owner.password), is_super_admin: !!o.superAdmin },
          { transaction },
        );
        await central.models.Membership.create({ tenant_id: tenant.id, user_id: u.id, role: OWNER_ROLE }, { transaction });
        return u;
      });
      userId = user.id;
      const issued = await auth.issueToken(user.id, tenant.id, o.tokenName);
      await verification.send(user, tenant, 'registration');
      return {
        tenant,
        user: { id: user.id, name: user.name, email: user.email, email_verified: false, is_super_admin: user.is_super_admin },
        token: issued.token,
      };
    } catch (err) {
      if (userId !== undefined) await central.models.User.destroy({ where: { id: userId } });
      await central.models.Tenant.destroy({ where: { id: tenant.id } });
      await tenantDbs.drop(tenant.id).catch(() => undefined);
      tenants.invalidate();
      // Two signups with one email at the same moment: the loser gets the same answer as a late one.
      if (err instanceof UniqueConstraintError) throw invalid('email', 'The email has already been taken.');
      throw err;
    }
  }
}
