/**
 * Visitor grants: what lets an anonymous socket (spec 2, Events: the embedded widget on
 * `chat.conversation.{id}`) join realtime channels. A module asks for one with
 * `realtime.grant_visitor`; the grant names the tenant, the module, the visitor and the exact
 * channels, carries its expiry, and is signed with the platform key under its own purpose
 * (core/kernel/secrets/app-key.ts), so no other signed value of the platform passes for one.
 *
 * Format: `<base64url(JSON claims)>.<hex HMAC-SHA256 of the first part>`. The claims are readable by
 * whoever holds the grant (the visitor's browser): they hold nothing secret.
 */
import type { AppKeys } from '../secrets/app-key';
import type { Clock } from '../clock';

const PURPOSE = 'realtime-visitor-grant';
/** Longer than any real grant (claims of at most 20 channels of 200 characters, base64url): refused unread. */
const MAX_GRANT_LENGTH = 8_000;

export interface VisitorGrant {
  tenantId: string;
  module: string;
  visitorId: string;
  channels: readonly string[];
  /** ms since the epoch (platform clock). */
  expiresAt: number;
}

interface Claims {
  t: string;
  m: string;
  v: string;
  c: string[];
  e: number;
}

export class VisitorGrants {
  constructor(
    private readonly keys: AppKeys,
    private readonly clock: Clock,
  ) {}

  async issue(grant: VisitorGrant): Promise<string> {
    const claims: Claims = { t: grant.tenantId, m: grant.module, v: grant.visitorId, c: [...grant.channels], e: grant.expiresAt };
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${body}.${await this.keys.sign(PURPOSE, body)}`;
  }

  /** The grant, or why it is refused: malformed or forged (`invalid`), or past its expiry (`expired`). */
  async verify(token: unknown): Promise<VisitorGrant | 'invalid' | 'expired'> {
    if (typeof token !== 'string' || token.length > MAX_GRANT_LENGTH) return 'invalid';
    const dot = token.indexOf('.');
    if (dot <= 0) return 'invalid';
    const body = token.slice(0, dot);
    if (!(await this.keys.verify(PURPOSE, body, token.slice(dot + 1)))) return 'invalid';
    const claims = parseClaims(body);
    if (!claims) return 'invalid';
    if (claims.e <= this.clock.now()) return 'expired';
    return { tenantId: claims.t, module: claims.m, visitorId: claims.v, channels: claims.c, expiresAt: claims.e };
  }
}

/** Signed claims are ours, but a key shared with an older format must not crash the reader. */
function parseClaims(body: string): Claims | undefined {
  try {
    const c = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<Claims>;
    const ok =
      typeof c.t === 'string' && typeof c.m === 'string' && typeof c.v === 'string' && typeof c.e === 'number' && Array.isArray(c.c) && c.c.every((x) => typeof x === 'string');
    return ok ? (c as Claims) : undefined;
  } catch {
    return undefined;
  }
}
