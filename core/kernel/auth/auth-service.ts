/**
 * Access tokens and who they stand for. Token checks run on every request, so the principal and
 * the membership are cached in process; revocation is immediate on every node because each change
 * is announced (`changed`) and every node drops what it cached, then tells its `onChange` listeners
 * (open sockets are checked again: core/kernel/realtime/access-changes.ts).
 */
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { Op } from 'sequelize';
import type { CentralDb } from '../data/central-db';
import type { UserRef } from '../context';
import { hashToken, looksLikeToken, newTokenString } from './token-format';

export interface Principal {
  tokenId: string;
  tokenHash: string;
  tenantId: string;
  user: UserRef;
  expiresAt: number | null;
}

export interface MembershipInfo {
  role: string;
  status: string;
  permissions: Set<string>;
}

export type Invalidation = { tokenHash: string; tokenId: string } | { userId: number } | { tenantId: string };

export interface IssuedToken {
  token: string;
  id: string;
  name: string;
  created_at: string;
  expires_at: string | null;
}

const LAST_USED_WRITE_EVERY_MS = 60_000;

export class AuthService {
  private readonly principals = new LRUCache<string, Principal>({ max: 50_000, ttl: 60_000 });
  private readonly memberships = new LRUCache<string, MembershipInfo | false>({ max: 50_000, ttl: 30_000 });
  private readonly lastUsedWritten = new LRUCache<string, number>({ max: 50_000 });
  private readonly listeners = new Set<(change: Invalidation) => void>();

  constructor(
    private readonly central: CentralDb,
    private readonly tokenTtlSeconds: number,
    /** Announces a change to every node (pub/sub); each node then calls `dropCached`. */
    private readonly announce: (change: Invalidation) => void,
  ) {}

  async issueToken(userId: number, tenantId: string, name: string): Promise<IssuedToken> {
    const token = newTokenString();
    const expires = this.tokenTtlSeconds ? new Date(Date.now() + this.tokenTtlSeconds * 1000) : null;
    const row = await this.central.models.AccessToken.create({
      id: randomUUID(),
      user_id: userId,
      tenant_id: tenantId,
      name: name.slice(0, 255),
      token_hash: hashToken(token),
      expires_at: expires,
    });
    return { token, id: row.id, name: row.name, created_at: row.created_at.toISOString(), expires_at: expires?.toISOString() ?? null };
  }

  /** The principal behind a bearer token, or undefined when unknown, revoked or expired. */
  async authenticate(token: string): Promise<Principal | undefined> {
    if (!looksLikeToken(token)) return undefined;
    const tokenHash = hashToken(token);
    let principal = this.principals.get(tokenHash);
    if (!principal) {
      const { AccessToken, User } = this.central.models;
      const row = await AccessToken.findOne({ where: { token_hash: tokenHash, revoked_at: null } });
      if (!row) return undefined;
      const user = await User.findByPk(row.user_id);
      if (!user) return undefined;
      principal = {
        tokenId: row.id,
        tokenHash,
        tenantId: row.tenant_id,
        user: { id: user.id, email: user.email, name: user.name, isSuperAdmin: user.is_super_admin },
        expiresAt: row.expires_at ? row.expires_at.getTime() : null,
      };
      if (user.status !== 'active') return undefined;
      this.principals.set(tokenHash, principal);
    }
    if (principal.expiresAt !== null && principal.expiresAt <= Date.now()) return undefined;
    this.touch(principal);
    return principal;
  }

  /**
   * A user as a request of theirs would act in the tenant now, by the rule authenticate() applies:
   * an active user with an active membership (its permissions), or a super admin (all); undefined
   * otherwise. For work done later for a user who is not in the request (core/services/contributions/acting-grants.ts).
   */
  async actingUser(tenantId: string, userId: number): Promise<{ user: UserRef; permissions: ReadonlySet<string> } | undefined> {
    const row = await this.central.models.User.findByPk(userId);
    if (!row || row.status !== 'active') return undefined;
    const user: UserRef = { id: row.id, email: row.email, name: row.name, isSuperAdmin: row.is_super_admin };
    const membership = await this.membership(tenantId, userId);
    if (membership?.status === 'active') return { user, permissions: membership.permissions };
    return user.isSuperAdmin ? { user, permissions: new Set(['*']) } : undefined;
  }

  /** The user's membership in a tenant with its permission names (cached briefly). */
  async membership(tenantId: string, userId: number): Promise<MembershipInfo | undefined> {
    const key = `${tenantId}:${userId}`;
    const cached = this.memberships.get(key);
    if (cached !== undefined) return cached || undefined;
    const { Membership, Role } = this.central.models;
    const m = await Membership.findOne({ where: { tenant_id: tenantId, user_id: userId } });
    let info: MembershipInfo | false = false;
    if (m) {
      const roles = await Role.findAll({ where: { name: m.role, tenant_id: { [Op.or]: [null, tenantId] } } });
      info = { role: m.role, status: m.status, permissions: new Set(roles.flatMap((r) => r.permissions)) };
    }
    this.memberships.set(key, info);
    return info || undefined;
  }

  async revoke(tokenId: string): Promise<boolean> {
    const row = await this.central.models.AccessToken.findByPk(tokenId);
    if (!row || row.revoked_at) return false;
    await row.update({ revoked_at: new Date() });
    this.changed({ tokenHash: row.token_hash, tokenId: row.id });
    return true;
  }

  /** Revokes every active token of the user except `exceptTokenId`; returns how many. */
  async revokeAllForUser(userId: number, exceptTokenId?: string): Promise<number> {
    const where: Record<string, unknown> = { user_id: userId, revoked_at: null };
    if (exceptTokenId) where.id = { [Op.ne]: exceptTokenId };
    const [count] = await this.central.models.AccessToken.update({ revoked_at: new Date() }, { where });
    if (count) this.changed({ userId });
    return count;
  }

  /** Call after a membership, role or user status change. */
  changed(change: Invalidation): void {
    this.dropCached(change);
    this.announce(change);
  }

  /** Drops what this node cached about change, then tells the listeners (on the node that made it, and again when its announcement comes back). */
  dropCached(change: Invalidation): void {
    if ('tokenHash' in change) this.principals.delete(change.tokenHash);
    else if ('userId' in change) {
      for (const [hash, p] of this.principals.entries()) if (p.user.id === change.userId) this.principals.delete(hash);
      for (const key of this.memberships.keys()) if (key.endsWith(`:${change.userId}`)) this.memberships.delete(key);
    } else {
      for (const key of this.memberships.keys()) if (key.startsWith(`${change.tenantId}:`)) this.memberships.delete(key);
    }
    for (const listener of this.listeners) listener(change);
  }

  /** Calls listener after every change this node learns of, once its caches no longer hold what changed. */
  onChange(listener: (change: Invalidation) => void): void {
    this.listeners.add(listener);
  }

  // last_used_at is written at most once a minute per token: a write per request would cost more than the request.
  private touch(p: Principal): void {
    const now = Date.now();
    if ((this.lastUsedWritten.get(p.tokenId) ?? 0) > now - LAST_USED_WRITE_EVERY_MS) return;
    this.lastUsedWritten.set(p.tokenId, now);
    void this.central.models.AccessToken.update({ last_used_at: new Date(now) }, { where: { id: p.tokenId } }).catch(() => undefined);
    // The membership's last_active_at (GET /profile, current_tenant) rides on the same throttle.
    void this.central.models.Membership.update({ last_active_at: new Date(now) }, { where: { tenant_id: p.tenantId, user_id: p.user.id } }).catch(() => undefined);
  }
}
