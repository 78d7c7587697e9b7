/**
 * GET /activity-log: the caller's own activity in the current tenant, newest first.
 * Query: limit (1-100, default 25), before (an id, for the next page), action.
 * Response: {activities: [record], next_before: id | null}.
 */
import type { RequestHandler, Router } from 'express';
import { currentContext } from '../../kernel/context';
import { ValidationError } from '../../kernel/errors';
import type { TenantDatabases } from '../../kernel/data/tenant-databases';
import { ActivityLog } from './activity-log';

function intParam(value: unknown, field: string, min: number, max: number, fallback?: number): number | undefined {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new ValidationError({ [field]: [`The ${field} must be an integer between ${min} and ${max}.`] });
  return n;
}

export function registerActivityRoutes(api: Router, deps: { tenantDbs: TenantDatabases; authenticated: RequestHandler }): ActivityLog {
  const log = new ActivityLog(deps.tenantDbs);
  api.get('/activity-log', deps.authenticated, async (req, res) => {
    const ctx = currentContext()!;
    const query = req.query; // a getter that parses the query string on every read
    const limit = intParam(query.limit, 'limit', 1, 100, 25)!;
    const before = intParam(query.before, 'before', 1, Number.MAX_SAFE_INTEGER);
    const action = typeof query.action === 'string' ? query.action : undefined;
    const activities = await log.listForUser(ctx.tenant!.id, ctx.user!.id, { limit, before, action });
    res.json({ activities, next_before: activities.length === limit ? activities[activities.length - 1].id : null });
  });
  return log;
}
