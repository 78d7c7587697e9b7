/**
 * Errors of the WhatsApp Cloud provider, one catalog (listed in docs/reference/error-codes.md); a thrown
 * one reaches the caller as a bus error whose `details.status` is the HTTP status.
 */
import { defineErrors } from '../../../sdk';

export const whatsappErrors = defineErrors('whatsapp-cloud', {
  notConfigured: {
    code: 'PROVIDER_NOT_CONFIGURED', status: 422,
    doc: 'The provider module is not configured for the tenant: PUT its settings.',
    message: () => 'WhatsApp Cloud is not configured for this tenant: PUT /whatsapp-cloud/settings.',
  },
  invalidPhone: {
    code: 'INVALID_PHONE', status: 422,
    doc: 'The recipient is not a phone number (10 to 15 digits, optionally with + and country code).',
    message: (phone: string) => `"${phone}" is not a phone number (10 to 15 digits, optionally with + and country code).`,
    details: () => ({ errors: { to: ['not a phone number'] } }),
  },
  vendor: {
    code: 'WHATSAPP_ERROR', status: 502,
    doc: 'WhatsApp Cloud refused or failed the message; 422 when it refused the request itself (details.whatsapp_status, details.whatsapp_code).',
    message: (status: number, message: string, _code: unknown) => `WhatsApp Cloud answered ${status}: ${message}`,
    details: (status, _message, code) => ({ whatsapp_status: status, whatsapp_code: code }),
    statusFor: (status) => (status === 401 || status >= 500 ? 502 : 422),
  },
});
