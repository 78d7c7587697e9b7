/**
 * Which tenant a workflow webhook token belongs to (spec 2, Public webhook trigger: "the token
 * identifies the workflow"). Tokens sit in the central table of public tokens under the
 * `workflows` alias, as sha256 only, so one lookup names the tenant; the workflow row in that
 * tenant's database holds the token itself and the signing secret.
 */
import type { CentralDb } from '../data/central-db';
import { hashToken } from '../modules/public-tokens';
import { WORKFLOWS_MODULE } from './route-support';

export class WebhookTokens {
  constructor(private readonly central: CentralDb) {}

  async add(tenantId: string, token: string, workflowId: string): Promise<void> {
    await this.central.models.ModulePublicToken.create({ alias: WORKFLOWS_MODULE, token_hash: hashToken(token), tenant_id: tenantId, label: `workflow ${workflowId}` });
  }

  async remove(tenantId: string, token: string): Promise<void> {
    await this.central.models.ModulePublicToken.destroy({ where: { alias: WORKFLOWS_MODULE, token_hash: hashToken(token), tenant_id: tenantId } });
  }

  async tenantOf(token: string): Promise<string | undefined> {
    const row = await this.central.models.ModulePublicToken.findOne({ where: { alias: WORKFLOWS_MODULE, token_hash: hashToken(token) } });
    return row?.tenant_id;
  }
}
