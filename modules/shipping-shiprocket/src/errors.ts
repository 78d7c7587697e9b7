/**
 * Errors of the Shiprocket carrier, one catalog (listed in docs/reference/error-codes.md); a thrown one
 * reaches the caller (orders) as a bus error whose `details.status` is the HTTP status.
 */
import { defineErrors } from '../../../sdk';

export const shiprocketErrors = defineErrors('shipping-shiprocket', {
  notConfigured: {
    code: 'CARRIER_NOT_CONFIGURED', status: 422,
    doc: 'The carrier module is not configured for the tenant: PUT its settings.',
    message: () => 'Shiprocket is not configured for this tenant: PUT /shipping-shiprocket/settings.',
  },
  authFailed: { code: 'SHIPROCKET_AUTH_FAILED', status: 502, doc: 'Shiprocket refused the login or the renewed token.', message: (message: string) => message },
  vendor: {
    code: 'SHIPROCKET_ERROR', status: 502,
    doc: 'Shiprocket refused or failed the request; 422 when it refused the request itself (details.shiprocket_status).',
    message: (status: number, message: string) => `Shiprocket answered ${status}: ${message}`,
    details: (status) => ({ shiprocket_status: status }),
    statusFor: (status) => (status >= 500 || status === 401 ? 502 : 422),
  },
  awbNotAssigned: { code: 'AWB_NOT_ASSIGNED', status: 502, doc: 'Shiprocket made the shipment but assigned no AWB.', message: () => 'Shiprocket did not assign an AWB.' },
  invalidWebhookToken: {
    code: 'INVALID_WEBHOOK_TOKEN', status: 401,
    doc: "A webhook whose x-api-key header is not the configured webhook token.",
    message: () => 'The x-api-key header does not match the configured webhook token.',
  },
});
