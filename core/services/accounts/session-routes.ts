/**
 * Sessions (spec 1, Profile and sessions; Session): the caller's own access tokens in the current
 * tenant. A token is valid only in the tenant it was issued for, so a session of tenant A is never
 * listed, nor revocable, from tenant B.
 *   GET    /profile/sessions            -> {sessions: [{id, name, created_at, last_used_at, is_current}]}
 *   DELETE /profile/sessions/{tokenId}  -> {message}; activity session_revoked. The current session:
 *          422 with errors.token (use POST /auth/logout); unknown, foreign or revoked: 404
 *   DELETE /profile/sessions            -> {message, revoked_count}: all but the current; activity all_sessions_revoked
 */
import type { RequestHandler, Router } from 'express';
import { Op } from 'sequelize';
import { currentContext } from '../../kernel/context';
import { invalid, notFound } from '../../kernel/errors';
import { clientIp } from '../../kernel/auth/client-ip';
import type { Accounts } from './index';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function registerSessionRoutes(api: Router, { accounts, authenticated }: { accounts: Accounts; authenticated: RequestHandler }): void {
  const { central, auth, activity } = accounts;
  const { AccessToken } = central.models;

  const activeWhere = () => {
    const ctx = currentContext()!;
    return {
      user_id: ctx.user!.id,
      tenant_id: ctx.tenant!.id,
      revoked_at: null,
      [Op.or]: [{ expires_at: null }, { expires_at: { [Op.gt]: new Date() } }],
    };
  };

  api.get('/profile/sessions', authenticated, async (_req, res) => {
    const current = currentContext()!.tokenId;
    const rows = await AccessToken.findAll({ where: activeWhere(), order: [['created_at', 'DESC']] });
    res.json({
      sessions: rows.map((t) => ({
        id: t.id,
        name: t.name,
        created_at: t.created_at.toISOString(),
        last_used_at: t.last_used_at?.toISOString() ?? null,
        is_current: t.id === current,
      })),
    });
  });

  api.delete('/profile/sessions/:tokenId', authenticated, async (req, res) => {
    const ctx = currentContext()!;
    const tokenId = String(req.params.tokenId);
    if (tokenId === ctx.tokenId) throw invalid('token', 'This is the session you are using; sign out with POST /auth/logout instead.');
    const token = UUID.test(tokenId) ? await AccessToken.findOne({ where: { ...activeWhere(), id: tokenId } }) : null;
    if (!token) throw notFound('Session not found.');
    await auth.revoke(token.id);
    await activity.record(ctx.tenant!.id, { userId: ctx.user!.id, action: 'session_revoked', subjectType: 'session', subjectId: token.id, properties: { name: token.name }, ip: clientIp(req) });
    res.json({ message: 'Session revoked.' });
  });

  api.delete('/profile/sessions', authenticated, async (req, res) => {
    const ctx = currentContext()!;
    const [count] = await AccessToken.update({ revoked_at: new Date() }, { where: { ...activeWhere(), id: { [Op.ne]: ctx.tokenId! } } });
    // Every node drops the user's cached principals, so the revoked tokens fail at once everywhere.
    if (count) auth.changed({ userId: ctx.user!.id });
    await activity.record(ctx.tenant!.id, { userId: ctx.user!.id, action: 'all_sessions_revoked', properties: { revoked_count: count }, ip: clientIp(req) });
    res.json({ message: count ? 'All other sessions were revoked.' : 'There were no other sessions.', revoked_count: count });
  });
}
