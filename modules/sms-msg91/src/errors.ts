/**
 * Errors of the MSG91 SMS provider, one catalog (listed in docs/reference/error-codes.md); a thrown one
 * reaches the caller as a bus error whose `details.status` is the HTTP status.
 */
import { defineErrors } from '../../../sdk';

export const msg91Errors = defineErrors('sms-msg91', {
  notConfigured: {
    code: 'PROVIDER_NOT_CONFIGURED', status: 422,
    doc: 'The provider module is not configured for the tenant: PUT its settings.',
    message: () => 'MSG91 is not configured for this tenant: PUT /sms-msg91/settings.',
  },
  invalidPhone: {
    code: 'INVALID_PHONE', status: 422,
    doc: 'The recipient is not a phone number (10 to 15 digits, optionally with + and country code).',
    message: (phone: string) => `"${phone}" is not a phone number (10 to 15 digits, optionally with + and country code).`,
    details: () => ({ errors: { to: ['not a phone number'] } }),
  },
  vendor: {
    code: 'MSG91_ERROR', status: 502,
    doc: 'MSG91 refused or failed the message; 422 when it refused the request itself (details.msg91_status).',
    message: (status: number, message: string) => `MSG91 answered ${status}: ${message}`,
    details: (status) => ({ msg91_status: status }),
    statusFor: (status) => (status === 401 || status >= 500 ? 502 : 422),
  },
});
