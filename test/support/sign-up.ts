/** A second tenant for cross-tenant tests, made the way a shop owner makes one: the public signup (start the platform with PUBLIC_SIGNUP=true). */
import type { TestPlatform } from './test-platform';

/** Tenant Beta (subdomain beta), owned by Bea; returns her token and ids. */
export async function signUpBeta(tp: TestPlatform): Promise<{ token: string; tenantId: string; userId: number }> {
  const signup = await tp.api('/auth/tenants', {
    body: { organization_name: 'Beta', subdomain: 'beta', name: 'Bea', email: 'bea@beta.example', password: 'bea-password-77', password_confirmation: 'bea-password-77' },
  });
  if (signup.status !== 201) throw new Error(`signup of beta: ${signup.status} ${JSON.stringify(signup.body)}`);
  return { token: signup.body.token, tenantId: signup.body.tenant.id, userId: signup.body.user.id };
}
