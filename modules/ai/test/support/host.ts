/**
 * Shared by the ai tests: a test host running the ai module whose tenant may reach private
 * addresses (the stand-ins listen on 127.0.0.1; a super admin's call, as the owner is), and helpers.
 * The module adds each provider's origin to the tenant's fetch origins itself.
 */
import path from 'node:path';
import { createTestHost, type TestHost } from '../../../../sdk/testing';

export const AI_DIR = path.resolve(__dirname, '..', '..');

export async function startAiHost(opts: { captureLogs?: boolean } = {}): Promise<TestHost> {
  const host = await createTestHost({ modulePath: AI_DIR, ...opts });
  const networks = await host.request('PATCH', `/admin/tenants/${host.tenantId}/private-networks`, { allow_private_networks: true });
  if (networks.status !== 200) throw new Error(`allowing private networks failed: ${JSON.stringify(networks.body)}`);
  return host;
}

/** Adds a language-model provider with credentials, as a tenant admin would; throws on any refusal. */
export async function addLlmProvider(host: TestHost, p: { id: string; type: 'vendora_compatible' | 'vendorb'; base_url: string; api_key: string; models?: string[]; prices?: [string, string] }) {
  const models = p.models ?? ['model-1', 'model-2'];
  const made = await host.request('POST', '/ai/providers', {
    id: p.id,
    name: `Provider ${p.id}`,
    type: p.type,
    base_url: p.base_url,
    models,
    ...(p.prices ? { input_cost_per_1k: p.prices[0], output_cost_per_1k: p.prices[1] } : {}),
  });
  if (made.status !== 201) throw new Error(`POST /ai/providers: ${made.status} ${JSON.stringify(made.body)}`);
  const creds = await host.request('PUT', `/ai/providers/${p.id}/credentials`, { api_key: p.api_key, model: models[0] });
  if (creds.status !== 200) throw new Error(`PUT credentials: ${creds.status} ${JSON.stringify(creds.body)}`);
  return creds.body.data;
}
