/**
 * Why a vendor call failed, in words safe to answer, log and audit: the status and the vendor's
 * own message, cut short, with the key (and anything looking like it) removed. A vendor may echo
 * a key back ("Incorrect API key provided: sk-abc…"), so the scrub is not optional.
 */
const MAX_REASON = 200;

export function scrub(text: string, key: string): string {
  let out = key.length >= 4 ? text.split(key).join('[redacted]') : text;
  // Key-like tokens: long runs of key characters, e.g. "sk-proj-…"; partial echoes of our key too.
  out = out.replace(/\b(sk|key|api)[-_][A-Za-z0-9_-]{8,}/gi, '[redacted]');
  if (key.length >= 12) out = out.split(key.slice(0, 12)).join('[redacted]').split(key.slice(-12)).join('[redacted]');
  return out.length > MAX_REASON ? `${out.slice(0, MAX_REASON)}…` : out;
}

export function httpReason(status: number, vendorMessage: string | null, key: string): string {
  const what = status === 429 ? 'rate limited (HTTP 429)' : `HTTP ${status}`;
  return vendorMessage ? `${what}: ${scrub(vendorMessage, key)}` : what;
}
