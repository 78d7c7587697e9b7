/**
 * Acting grants: what lets an agent module act later for the user who asked it, when that user is no
 * longer in the request (spec 2, Graph flows: a run paused for approval ends with an action in
 * orders "as the user who started the run", when a reviewer resumes it, or a job after a restart).
 * A module asks for one with `tools.grant` during a call of that user; the grant names the tenant,
 * the module and the user, carries its expiry, and is signed with the platform key under its own
 * purpose (core/kernel/secrets/app-key.ts), so no other signed value passes for one and the module cannot
 * forge one for another user. Using it (`tools.call` with `grant`) acts with the user's permissions as
 * they are *then*: a user removed or demoted since can no longer act through it.
 *
 * Format: `<base64url(JSON claims)>.<hex HMAC-SHA256 of the first part>`; the claims are no secret.
 */
import type { AppKeys } from '../../kernel/secrets/app-key';
import type { Clock } from '../../kernel/clock';

const PURPOSE = 'agent-acting-grant';
const MAX_GRANT_LENGTH = 2_000;

export interface ActingGrant {
  tenantId: string;
  module: string;
  userId: number;
  /** ms since the epoch (platform clock). */
  expiresAt: number;
}

interface Claims {
  t: string;
  m: string;
  u: number;
  e: number;
}

export class ActingGrants {
  constructor(
    private readonly keys: AppKeys,
    private readonly clock: Clock,
  ) {}

  async issue(grant: ActingGrant): Promise<string> {
    const claims: Claims = { t: grant.tenantId, m: grant.module, u: grant.userId, e: grant.expiresAt };
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${body}.${await this.keys.sign(PURPOSE, body)}`;
  }

  /** The grant, or why it is refused: malformed or forged (`invalid`), or past its expiry (`expired`). */
  async verify(token: string): Promise<ActingGrant | 'invalid' | 'expired'> {
    if (token.length > MAX_GRANT_LENGTH) return 'invalid';
    const dot = token.indexOf('.');
    if (dot <= 0) return 'invalid';
    const body = token.slice(0, dot);
    if (!(await this.keys.verify(PURPOSE, body, token.slice(dot + 1)))) return 'invalid';
    let c: Partial<Claims>;
    try {
      c = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<Claims>;
    } catch {
      return 'invalid';
    }
    if (typeof c.t !== 'string' || typeof c.m !== 'string' || !Number.isSafeInteger(c.u) || typeof c.e !== 'number') return 'invalid';
    if (c.e <= this.clock.now()) return 'expired';
    return { tenantId: c.t, module: c.m, userId: c.u!, expiresAt: c.e };
  }
}
