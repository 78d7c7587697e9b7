/**
 * Which failed notification sends may pass if tried again (notification-retry.ts): the provider
 * unreachable, a 5xx, a time limit, a 429. Anything else (a 4xx such as an invalid number, a provider
 * module that is not installed) would fail the same way again.
 */
import { codeOf } from './errors';

/** Codes of failures that may pass: the network, time limits, rate limits. */
const TRANSIENT_CODES = new Set(['FETCH_FAILED', 'TIMEOUT', 'MODULE_TIMEOUT', 'RATE_LIMITED']);
const isTransientStatus = (s: unknown) => typeof s === 'number' && (s >= 500 || s === 429);

/**
 * Whether a failed channel call is worth trying again. Provider modules report the HTTP status they
 * chose (`details.status`, 502 for an upstream 5xx) and may add the upstream one (`details.<x>_status`,
 * e.g. msg91_status 429, which they map to 422).
 */
export function isTransient(err: unknown): boolean {
  if (TRANSIENT_CODES.has(String(codeOf(err)))) return true;
  const details = typeof err === 'object' && err !== null ? (err as { details?: unknown }).details : undefined;
  if (!details || typeof details !== 'object') return false;
  return Object.entries(details).some(([key, value]) => (key === 'status' || key.endsWith('_status')) && isTransientStatus(value));
}
