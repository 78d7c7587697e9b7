/**
 * Open sockets follow access changes (spec 1, States and transitions: a revoked session is over;
 * likewise a member suspended or removed, and one whose role changed keeps only what it allows).
 * Every node learns of each change (core/kernel/auth/part.ts) and checks again the sockets of its own the
 * change touches: those opened with a revoked token; the user's, when their tokens, membership, role
 * or account changed; every member's of a tenant whose roles changed.
 */
import type { AuthService, Invalidation } from '../auth/auth-service';
import type { Realtime, RealtimeIdentity } from '../drivers';

export function recheckOnAccessChange(auth: Pick<AuthService, 'onChange'>, realtime: Pick<Realtime, 'recheck'>): void {
  auth.onChange((change) => void realtime.recheck(touchedBy(change)));
}

function touchedBy(change: Invalidation): (identity: RealtimeIdentity) => boolean {
  if ('tokenId' in change) return (i) => 'tokenId' in i && i.tokenId === change.tokenId;
  if ('userId' in change) return (i) => 'userId' in i && Number(i.userId) === change.userId;
  return (i) => 'userId' in i && i.tenantId === change.tenantId;
}
