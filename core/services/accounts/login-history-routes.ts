/**
 * Login history (spec 1, Login history). Records carry the spec's fields; device_type, browser and
 * platform come from the User-Agent, is_suspicious from the rules in suspicious.ts.
 *   GET /login-history             the caller's records in this tenant: status, from, to, per_page, page
 *   GET /login-history/stats       the statistics object; "logins" are successful sign-ins: devices
 *                                  counts them by device_type, unique_ips their addresses,
 *                                  suspicious_logins the flagged ones; failed attempts are failed + 2fa_failed
 *   (is_suspicious is judged for success and 2fa_required rows, so a stranger who has the password
 *   but not the second factor shows up under /suspicious too)
 *   GET /login-history/suspicious  the caller's flagged records: per_page, page
 *   GET /login-history/tenant      every record of the tenant, each with user {id, name, email} (null for
 *                                  attempts on unknown emails); permission admin.audit_log; user_id,
 *                                  status, suspicious_only, from, to, per_page, page
 * Listings answer {history, pagination: {current_page, last_page, per_page, total}}, newest first.
 * Bad parameters: 422 validation shape naming the parameter (listing-query.ts).
 */
import type { RequestHandler, Router } from 'express';
import { requirePermission } from '../../kernel/auth/authenticate';
import { currentContext } from '../../kernel/context';
import type { Accounts } from './index';
import { pagination } from '../../kernel/http/pagination';
import { readHistoryQuery } from './listing-query';

export function registerLoginHistoryRoutes(api: Router, { accounts, authenticated }: { accounts: Accounts; authenticated: RequestHandler }): void {
  const { history, central } = accounts;

  api.get('/login-history', authenticated, async (req, res) => {
    const ctx = currentContext()!;
    const f = { ...readHistoryQuery(req, ['status', 'dates']), userId: ctx.user!.id };
    const { records, total } = await history.list(ctx.tenant!.id, f);
    res.json({ history: records, pagination: pagination(f.page, f.perPage, total) });
  });

  api.get('/login-history/stats', authenticated, async (_req, res) => {
    const ctx = currentContext()!;
    res.json(await history.stats(ctx.tenant!.id, ctx.user!.id));
  });

  api.get('/login-history/suspicious', authenticated, async (req, res) => {
    const ctx = currentContext()!;
    const f = { ...readHistoryQuery(req, []), userId: ctx.user!.id, suspiciousOnly: true };
    const { records, total } = await history.list(ctx.tenant!.id, f);
    res.json({ history: records, pagination: pagination(f.page, f.perPage, total) });
  });

  api.get('/login-history/tenant', authenticated, requirePermission('admin.audit_log'), async (req, res) => {
    const ctx = currentContext()!;
    const f = readHistoryQuery(req, ['status', 'dates', 'user_id', 'suspicious_only']);
    const { records, total } = await history.list(ctx.tenant!.id, f);
    const ids = [...new Set(records.map((r) => r.user_id).filter((id): id is number => id !== null))];
    const users = ids.length ? await central.models.User.findAll({ where: { id: ids }, attributes: ['id', 'name', 'email'] }) : [];
    const byId = new Map(users.map((u) => [u.id, { id: u.id, name: u.name, email: u.email }]));
    res.json({
      history: records.map((r) => ({ ...r, user: r.user_id === null ? null : (byId.get(r.user_id) ?? null) })),
      pagination: pagination(f.page, f.perPage, total),
    });
  });
}
