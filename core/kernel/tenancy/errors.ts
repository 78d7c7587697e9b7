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
    doc: "The caller may not act in, or call into, the tenant it named: it is neither a member of it nor related to it in the reseller network.",
    message: (_target: string) => 'You may not switch to this tenant.',
    details: (target: string) => ({ target_tenant: target }),
  },
  unrelated: {
    code: 'UNAUTHORIZED_CONTEXT', status: 403,
    doc: "The caller may not act in, or call into, the tenant it named: it is neither a member of it nor related to it in the reseller network.",
    message: (target: string) => `Tenant "${target}" is not related to this tenant: only its reseller parent and the sub-resellers below it can be called.`,
    details: (target: string) => ({ target_tenant: target }),
  },
  relatedModulesOnly: {
    code: 'FORBIDDEN', status: 403,
    message: (op: string) => `"${op}" is for module code: only a module calls its copy in a related tenant.`,
    details: (op: string) => ({ operation: op }),
  },
  notOwnOperation: {
    code: 'OPERATION_NOT_RELATED', status: 403,
    doc: "A related-tenant call names an operation the module may not call there: only its own operations that its manifest opens in api.related.",
    message: (alias: string, op: string) => `Module "${alias}" may call only its own operations in a related tenant, not "${op}".`,
    details: (alias: string, op: string) => ({ operation: op, module: alias }),
  },
  notListed: {
    code: 'OPERATION_NOT_RELATED', status: 403,
    doc: "A related-tenant call names an operation the module may not call there: only its own operations that its manifest opens in api.related.",
    message: (alias: string, op: string) => `"${op}" is not open to related tenants: add it to api.related in the module.json of "${alias}".`,
    details: (alias: string, op: string) => ({ operation: op, module: alias }),
  },
  moduleNotThere: {
    code: 'MODULE_NOT_INSTALLED', status: 404,
    doc: 'The module is not installed in the related tenant the call names.',
    message: (alias: string, target: string) => `Module "${alias}" is not installed in tenant "${target}".`,
    details: (alias: string, target: string) => ({ module: alias, target_tenant: target }),
  },
  alreadyInstalled: {
    code: 'ALREADY_INSTALLED', status: 409,
    doc: 'The platform already has its owner: POST /install/owner runs once.',
    message: () => 'The platform is already installed.',
  },
  signupDisabled: {
    code: 'SIGNUP_DISABLED', status: 403,
    doc: 'Public signup is off (PUBLIC_SIGNUP): a platform admin creates organisations.',
    message: () => 'Public signup is currently disabled. Ask a platform admin to create your organisation.',
  },
  resellerSignupDisabled: {
    code: 'RESELLER_SIGNUP_DISABLED', status: 403,
    doc: 'Reseller applications are off (RESELLER_SIGNUP): a platform admin creates organisations.',
    message: () => 'Reseller applications are currently closed. Ask a platform admin to create your organisation.',
  },
  lastOwner: {
    code: 'LAST_OWNER', status: 409,
    doc: 'The change would leave the organisation without an active owner: make another member owner first.',
    message: () => 'The organisation must keep an active owner: make another member owner first.',
  },
});
