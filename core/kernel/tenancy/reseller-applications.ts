/**
 * Reseller applications (spec 3, reseller network): POST /reseller-register/apply makes the
 * applicant's tenant and an application to the parent it named, but no link: until the parent's
 * admin approves, the applicant is outside the chain, so no related-tenant call reaches it or leaves
 * it and it is in no one's tree. Approval links it under the parent exactly as a tenant a super admin
 * places there (./tenant-network.ts addChild: one level down, the depth checked in the same
 * transaction); rejection leaves no link and keeps the reason. Only the parent named in the
 * application decides it, once.
 */
import { QueryTypes, type Transaction } from 'sequelize';
import type { CentralDb } from '../data/central-db';
import { conflict, notFound } from '../errors';
import type { Page, TenantNetwork } from './tenant-network';

export const APPLICATION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

export interface Contact {
  email: string;
  phone: string | null;
  message: string | null;
}

export interface Application extends Contact {
  id: string;
  name: string;
  alias: string | null;
  parent_tenant: { id: string; name: string };
  status: ApplicationStatus;
  reason: string | null;
  applied_at: string;
  decided_at: string | null;
}

interface Row extends Contact {
  tenant_id: string;
  name: string;
  alias: string | null;
  parent_id: string;
  parent_name: string;
  status: ApplicationStatus;
  reason: string | null;
  created_at: string | Date;
  decided_at: string | Date | null;
}

const SELECT = `SELECT a.tenant_id, t.name, a.parent_id, p.name AS parent_name, a.status, a.email, a.phone, a.message, a.reason, a.created_at, a.decided_at,
         (SELECT d.domain FROM domains d WHERE d.tenant_id = a.tenant_id AND d.kind = 'alias' ORDER BY d.id LIMIT 1) AS alias
    FROM reseller_applications a JOIN tenants t ON t.id = a.tenant_id JOIN tenants p ON p.id = a.parent_id`;

const iso = (v: string | Date) => new Date(v).toISOString();
const present = (r: Row): Application => ({
  id: r.tenant_id,
  name: r.name,
  alias: r.alias,
  email: r.email,
  phone: r.phone,
  message: r.message,
  parent_tenant: { id: r.parent_id, name: r.parent_name },
  status: r.status,
  reason: r.reason,
  applied_at: iso(r.created_at),
  decided_at: r.decided_at && iso(r.decided_at),
});

export class ResellerApplications {
  constructor(private readonly central: CentralDb, private readonly network: TenantNetwork) {}

  private query<T extends object>(sql: string, bind: unknown[], transaction?: Transaction): Promise<T[]> {
    return this.central.sequelize.query<T>(sql, { bind, type: QueryTypes.SELECT, transaction });
  }

  /** Written with the applicant's tenant rows, in their transaction. */
  async submit(tenantId: string, parentId: string, contact: Contact, transaction: Transaction): Promise<void> {
    await this.central.sequelize.query('INSERT INTO reseller_applications (tenant_id, parent_id, email, phone, message) VALUES ($1, $2, $3, $4, $5)', {
      bind: [tenantId, parentId, contact.email, contact.phone, contact.message],
      transaction,
    });
  }

  /** The applicant's own application, whatever its status. */
  async ofApplicant(tenantId: string): Promise<Application | undefined> {
    const [row] = await this.query<Row>(`${SELECT} WHERE a.tenant_id = $1`, [tenantId]);
    return row && present(row);
  }

  /** The applications made under `parentId` with this status, oldest first, a page at a time. */
  async forParent(parentId: string, o: { status: ApplicationStatus; page: number; perPage: number }): Promise<Page<Application>> {
    const [{ n }] = await this.query<{ n: string }>('SELECT count(*) AS n FROM reseller_applications WHERE parent_id = $1 AND status = $2', [parentId, o.status]);
    const rows = await this.query<Row>(`${SELECT} WHERE a.parent_id = $1 AND a.status = $2 ORDER BY a.created_at, a.tenant_id LIMIT $3 OFFSET $4`, [
      parentId,
      o.status,
      o.perPage,
      (o.page - 1) * o.perPage,
    ]);
    return { items: rows.map(present), total: Number(n) };
  }

  /** Links the applicant under the parent; 404 unless it applied to `parentId`, 409 once decided. */
  async approve(parentId: string, applicantId: string, userId: number): Promise<Application> {
    await this.central.sequelize.transaction(async (transaction) => {
      await this.pending(parentId, applicantId, transaction);
      await this.network.addChild(applicantId, parentId, transaction, 'parent_tenant');
      await this.decide(applicantId, 'approved', null, userId, transaction);
    });
    return (await this.ofApplicant(applicantId))!;
  }

  /** Records the refusal and its reason; no link is ever made. */
  async reject(parentId: string, applicantId: string, reason: string, userId: number): Promise<Application> {
    await this.central.sequelize.transaction(async (transaction) => {
      await this.pending(parentId, applicantId, transaction);
      await this.decide(applicantId, 'rejected', reason, userId, transaction);
    });
    return (await this.ofApplicant(applicantId))!;
  }

  /** Locks the application for its decision; another parent's (or none) is 404, a decided one 409. */
  private async pending(parentId: string, applicantId: string, transaction: Transaction): Promise<void> {
    const [row] = await this.query<{ status: ApplicationStatus }>(
      'SELECT status FROM reseller_applications WHERE tenant_id = $1 AND parent_id = $2 FOR UPDATE',
      [applicantId, parentId],
      transaction,
    );
    if (!row) throw notFound('No reseller application with this id under this tenant.', { application_id: applicantId });
    if (row.status !== 'pending') throw conflict(`This application is already ${row.status}.`, { application_id: applicantId, status: row.status });
  }

  private async decide(applicantId: string, status: ApplicationStatus, reason: string | null, userId: number, transaction: Transaction): Promise<void> {
    await this.central.sequelize.query(
      'UPDATE reseller_applications SET status = $2, reason = $3, decided_by = $4, decided_at = CURRENT_TIMESTAMP WHERE tenant_id = $1',
      { bind: [applicantId, status, reason, userId], transaction },
    );
  }
}
