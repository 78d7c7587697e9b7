/** Errors of finding the tenant a request is for (spec 1, Tenancy). */
import { defineErrors } from '../errors';

export const tenancyErrors = defineErrors('tenancy', {
  suspended: {
    code: 'TENANT_SUSPENDED', status: 403,
    doc: 'The tenant is suspended: its routes answer nothing else until a super admin reactivates it.',
    message: () => 'This tenant is suspended.',
  },
  required: {
    code: 'TENANT_REQUIRED', status: 400,
    doc: 'The route needs a tenant: send the X-Tenant header or call the tenant subdomain.',
    message: () => 'Tenant context is required: send the X-Tenant header or use the tenant subdomain.',
  },
  switchRefused: {
    code: 'UNAUTHORIZED_CONTEXT', status: 403,
    doc: 'The caller may not act in the tenant it named (X-Tenant): it is neither a member nor above it in the reseller network.',
    message: (_target: string) => 'You may not switch to this tenant.',
    details: (target: string) => ({ target_tenant: target }),
  },
});
