/**
 * The Notifications endpoints of spec 1. All need authentication and tenant context; every query
 * names the caller as owner, so another user's notification is simply not found (404), which also
 * keeps its existence private.
 *
 * Response bodies the spec leaves open:
 *   PATCH  /notifications/{id}/read → 200 {message: "Notification marked as read.", notification}
 *          (idempotent: reading it again keeps the first read_at)
 *   DELETE /notifications/{id}      → 200 {message: "Notification deleted.", id}
 */
import type { Request, RequestHandler, Router } from 'express';
import { currentContext } from '../../kernel/context';
import { ValidationError, notFound, type FieldErrors } from '../../kernel/errors';
import type { Clock } from '../../kernel/clock';
import type { ListFilter, NotificationStore } from './notification-store';

export const PER_PAGE_DEFAULT = 20;
export const PER_PAGE_MAX = 100;

export function registerNotificationRoutes(api: Router, deps: { store: NotificationStore; authenticated: RequestHandler; clock: Clock }): void {
  const { store, authenticated, clock } = deps;
  const who = () => {
    const ctx = currentContext()!;
    return { tenantId: ctx.tenant!.id, userId: ctx.user!.id };
  };

  api.get('/notifications', authenticated, async (req, res) => {
    const { tenantId, userId } = who();
    const filter = readFilter(req);
    const { notifications, total } = await store.list(tenantId, userId, filter);
    res.json({
      notifications,
      pagination: { current_page: filter.page, last_page: Math.max(1, Math.ceil(total / filter.perPage)), per_page: filter.perPage, total },
    });
  });

  api.get('/notifications/unread-count', authenticated, async (_req, res) => {
    const { tenantId, userId } = who();
    res.json({ unread_count: await store.unreadCount(tenantId, userId) });
  });

  api.post('/notifications/mark-all-read', authenticated, async (_req, res) => {
    const { tenantId, userId } = who();
    const count = await store.markAllRead(tenantId, userId, clock.date());
    res.json({ message: count === 1 ? '1 notification marked as read.' : `${count} notifications marked as read.`, count });
  });

  api.patch('/notifications/:id/read', authenticated, async (req, res) => {
    const { tenantId, userId } = who();
    const notification = await store.markRead(tenantId, userId, String(req.params.id), clock.date());
    if (!notification) throw notFound('Notification not found.');
    res.json({ message: 'Notification marked as read.', notification });
  });

  api.delete('/notifications/:id', authenticated, async (req, res) => {
    const { tenantId, userId } = who();
    const id = String(req.params.id);
    if (!(await store.delete(tenantId, userId, id))) throw notFound('Notification not found.');
    res.json({ message: 'Notification deleted.', id });
  });
}

function readFilter(req: Request): ListFilter {
  const q = req.query as Record<string, unknown>;
  const errors: FieldErrors = {};
  const int = (field: string, min: number, max: number, fallback: number): number => {
    const raw = q[field];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (typeof raw !== 'string' || !Number.isInteger(n) || n < min || n > max) {
      errors[field] = [`The ${field.replace('_', ' ')} must be an integer between ${min} and ${max}.`];
      return fallback;
    }
    return n;
  };
  const text = (field: string, max: number): string | undefined => {
    const raw = q[field];
    if (raw === undefined || raw === '') return undefined;
    if (typeof raw !== 'string' || raw.length > max) errors[field] = [`The ${field} must be a string of at most ${max} characters.`];
    return typeof raw === 'string' ? raw : undefined;
  };
  const unread = q.unread_only;
  let unreadOnly = false;
  if (unread !== undefined && unread !== '') {
    if (typeof unread === 'string' && ['1', 'true'].includes(unread.toLowerCase())) unreadOnly = true;
    else if (!(typeof unread === 'string' && ['0', 'false'].includes(unread.toLowerCase()))) errors.unread_only = ['The unread only field must be true or false.'];
  }
  const filter: ListFilter = {
    unreadOnly,
    type: text('type', 100),
    module: text('module', 50),
    perPage: int('per_page', 1, PER_PAGE_MAX, PER_PAGE_DEFAULT),
    page: int('page', 1, 1_000_000, 1),
  };
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return filter;
}
