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

/** A real HTTP request with another user's token (host.request always uses the owner's). */
export async function requestAs(host: TestHost, token: string, method: string, p: string, body?: unknown) {
  const res = await fetch(`${host.url}/api/v1${p}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-tenant': host.tenantId },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A member whose role holds only `permissions`; returns their bearer token. */
export async function memberWith(host: TestHost, role: string, permissions: string[]): Promise<string> {
  const made = await host.request('POST', '/roles', { name: role, description: `ai test role ${role}`, permissions });
  if (made.status !== 201) throw new Error(`POST /roles: ${made.status} ${JSON.stringify(made.body)}`);
  return (await host.addMember({ email: `${role}@test-org.example`, name: `Member ${role}`, role })).token;
}
