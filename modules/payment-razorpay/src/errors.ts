/**
 * Errors of the Razorpay payment provider, one catalog (listed in docs/reference/error-codes.md); a
 * thrown one reaches the caller (orders) as a bus error whose `details.status` is the HTTP status.
 */
import { defineErrors } from '../../../sdk';

/** Razorpay's own 4xx means the request was wrong (422); its 401 or 5xx means Razorpay failed us (502). */
const vendorStatus = (status: number) => (status === 401 || status >= 500 ? 502 : 422);

export const razorpayErrors = defineErrors('payment-razorpay', {
  invalidAmount: { code: 'INVALID_AMOUNT', status: 422, doc: 'The amount is not a positive amount in whole paise.', message: (amount: string) => `Amount ${amount} is not a positive amount in whole paise.` },
  notConfigured: {
    code: 'PROVIDER_NOT_CONFIGURED', status: 422,
    doc: 'The provider module is not configured for the tenant: PUT its settings.',
    message: () => 'Razorpay is not configured for this tenant: PUT /payment-razorpay/settings.',
  },
  vendor: {
    code: 'RAZORPAY_ERROR', status: 502,
    doc: "Razorpay refused or failed the request; 422 when it refused the request itself (details.razorpay_status, details.razorpay_code).",
    message: (status: number, description: string, _code: string | null) => `Razorpay answered ${status}: ${description}`,
    details: (status, _description, code) => ({ razorpay_status: status, razorpay_code: code }),
    statusFor: (status) => vendorStatus(status),
  },
  invalidSignature: {
    code: 'INVALID_SIGNATURE', status: 401,
    doc: 'A webhook whose signature header does not match its body (or no webhook secret is configured).',
    message: (configured: boolean) => (configured ? 'The X-Razorpay-Signature header does not match the body.' : 'No Razorpay webhook secret is configured.'),
  },
});
