/**
 * Query parameters of the login-history listings, read with the 422 validation shape naming each
 * bad parameter: per_page (1-100, default 25), page (from 1), status (one of the statuses),
 * from / to (YYYY-MM-DD, UTC days, both inclusive; to not before from), user_id, suspicious_only.
 */
import type { Request } from 'express';
import { ValidationError, type FieldErrors } from '../../kernel/errors';
import { LOGIN_STATUSES, type HistoryFilter, type LoginStatus } from './login-history';

const DAY_MS = 24 * 3600_000;

export function readHistoryQuery(req: Request, allowed: Array<'status' | 'dates' | 'user_id' | 'suspicious_only'>): HistoryFilter {
  const q = req.query as Record<string, unknown>;
  const errors: FieldErrors = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  const filter: HistoryFilter = { page: 1, perPage: 25 };

  const int = (field: string, label: string, min: number, max: number): number | undefined => {
    const v = q[field];
    if (v === undefined || v === '') return undefined;
    const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) return void fail(field, `The ${label} must be an integer between ${min} and ${max}.`);
    return n;
  };
  filter.perPage = int('per_page', 'per page', 1, 100) ?? 25;
  filter.page = int('page', 'page', 1, 1_000_000) ?? 1;

  if (allowed.includes('status') && q.status !== undefined && q.status !== '') {
    if (typeof q.status === 'string' && (LOGIN_STATUSES as readonly string[]).includes(q.status)) filter.status = q.status as LoginStatus;
    else fail('status', `The status must be one of: ${LOGIN_STATUSES.join(', ')}.`);
  }
  if (allowed.includes('dates')) {
    const from = day(q.from, 'from', fail);
    const to = day(q.to, 'to', fail);
    if (from && to && to < from) fail('to', 'The to date must be a date after or equal to from.');
    filter.from = from;
    filter.toExclusive = to ? new Date(to.getTime() + DAY_MS) : undefined;
  }
  if (allowed.includes('user_id')) filter.userId = int('user_id', 'user id', 1, Number.MAX_SAFE_INTEGER);
  if (allowed.includes('suspicious_only') && q.suspicious_only !== undefined && q.suspicious_only !== '') {
    const v = typeof q.suspicious_only === 'string' ? q.suspicious_only.toLowerCase() : '';
    if (['1', 'true'].includes(v)) filter.suspiciousOnly = true;
    else if (!['0', 'false'].includes(v)) fail('suspicious_only', 'The suspicious only field must be true or false.');
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return filter;
}

function day(value: unknown, field: string, fail: (field: string, message: string) => void): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const m = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : undefined;
  // Date.UTC rolls 2024-02-30 over into March; a real date reads back the same.
  if (!d || d.toISOString().slice(0, 10) !== value) return void fail(field, `The ${field} must be a valid date in the format YYYY-MM-DD.`);
  return d;
}
