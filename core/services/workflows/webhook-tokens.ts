/**
 * Which tenant a workflow webhook token belongs to (spec 2, Public webhook trigger: "the token
 * identifies the workflow"). Tokens sit in the central table of public tokens under the
 * `workflows` alias, as sha256 only, so one lookup names the tenant; the workflow row in that
 * tenant's database holds the token itself and the signing secret.
 */
import { LRUCache } from 'lru-cache';
import type { CentralDb } from '../../kernel/data/central-db';
import { hashToken } from '../../kernel/modules/public-tokens';
import { WORKFLOWS_MODULE } from './route-support';

export class WebhookTokens {
  /**
   * Tenants of tokens found lately. A token names one tenant for good (a new token is a new row), and
   * a removed one still finds no workflow there (byToken), so only hits are kept, for a minute.
   */
  private readonly tenants = new LRUCache<string, string>({ max: 10_000, ttl: 60_000 });

  constructor(private readonly central: CentralDb) {}

  async add(tenantId: string, token: string, workflowId: string): Promise<void> {
    await this.central.models.ModulePublicToken.create({ alias: WORKFLOWS_MODULE, token_hash: hashToken(token), tenant_id: tenantId, label: `workflow ${workflowId}` });
  }

  async remove(tenantId: string, token: string): Promise<void> {
    await this.central.models.ModulePublicToken.destroy({ where: { alias: WORKFLOWS_MODULE, token_hash: hashToken(token), tenant_id: tenantId } });
  }

  async tenantOf(token: string): Promise<string | undefined> {
    const hash = hashToken(token);
    const known = this.tenants.get(hash);
    if (known) return known;
    const row = await this.central.models.ModulePublicToken.findOne({ where: { alias: WORKFLOWS_MODULE, token_hash: hash } });
    if (row) this.tenants.set(hash, row.tenant_id);
    return row?.tenant_id;
  }
}
