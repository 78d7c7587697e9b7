/** Shared by the loyalty tests: a test host with the orders fixture, and small helpers around it. */
import path from 'node:path';
import { createTestHost, type TestHost } from '../../../sdk/testing';

export const LOYALTY_DIR = path.resolve(__dirname, '..');
export const ORDERS_FIXTURE_DIR = path.resolve(__dirname, 'fixtures', 'orders');

/** loyalty depends on orders ^1.0.0 and consumes orders.get: the fixture is installed first. */
export function startHost(): Promise<TestHost> {
  return createTestHost({ modulePath: LOYALTY_DIR, withModules: [ORDERS_FIXTURE_DIR] });
}

export interface Order {
  id: string;
  customer_id: string;
  total: string;
  status: string;
}


/** A real HTTP request to /api/v1 with another user's token (host.request always uses the owner's). */
export async function requestAs(host: TestHost, token: string, method: string, p: string, body?: unknown) {
  const res = await fetch(`${host.url}/api/v1${p}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-tenant': host.tenantId },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/**
 * A member of the test tenant whose role holds only `permissions`, through the platform's own REST
 * API (POST /roles, then an invitation accepted with the member's own password); returns their bearer token.
 */
export async function memberWith(host: TestHost, role: string, permissions: string[]): Promise<string> {
  const made = await host.request('POST', '/roles', { name: role, description: `loyalty test role ${role}`, permissions });
  if (made.status !== 201) throw new Error(`POST /roles: ${made.status} ${JSON.stringify(made.body)}`);
  return (await host.addMember({ email: `${role}@test-org.example`, name: `Member ${role}`, role })).token;
}
