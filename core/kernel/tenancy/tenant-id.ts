/** Tenant ids: 8 random characters, lowercase letters and digits, starting with a letter. */
import { randomInt } from 'node:crypto';

const FIRST = 'abcdefghijklmnopqrstuvwxyz';
const REST = 'abcdefghijklmnopqrstuvwxyz0123456789';

export function newTenantId(): string {
  let id = FIRST[randomInt(FIRST.length)];
  for (let i = 1; i < 8; i++) id += REST[randomInt(REST.length)];
  return id;
}

/** Subdomain aliases: alpha_dash (letters, digits, dash, underscore), at most 63, stored lowercase. */
export const ALIAS_PATTERN = /^[a-z0-9_-]{1,63}$/;

/** Aliases that would shadow platform hosts. */
export const RESERVED_ALIASES = new Set(['www', 'api', 'admin', 'app', 'mail', 'static', 'assets', 'cdn', 'status', 'docs']);

export function normaliseSubdomain(value: string): string {
  return value.trim().toLowerCase();
}
