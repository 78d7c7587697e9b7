/**
 * Errors of the reseller network module, one catalog (listed in docs/reference/error-codes.md). A
 * thrown one becomes a typed bus error; `details.status` is the HTTP status; routes answer
 * {error, code, details} (spec 3, Errors).
 */
import { defineErrors } from '../../../sdk';

export const networkErrors = defineErrors('reseller-network', {
  notFound: { code: 'NOT_FOUND', status: 404, message: (id: string) => `No sub-reseller ${id} below this tenant.`, details: (id) => ({ id }) },
  forbidden: { code: 'FORBIDDEN', status: 403, message: (message: string) => message },
});

export const { notFound, forbidden } = networkErrors;
