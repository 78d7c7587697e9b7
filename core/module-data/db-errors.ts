/**
 * Errors of host.db. Query problems a module can fix are DB_INVALID_QUERY (422) naming the
 * problem; PostgreSQL errors are translated to typed errors without SQL text or server internals.
 */
import { MandiError } from '../errors';

export const invalidQuery = (message: string, details?: Record<string, unknown>) =>
  new MandiError('DB_INVALID_QUERY', message, 422, details);

interface PgErrorFields {
  code?: string;
  message?: string;
  detail?: string;
  constraint?: string;
  column?: string;
  table?: string;
}

/** The PostgreSQL error behind a Sequelize or pg error, when there is one. */
export function pgErrorOf(err: unknown): PgErrorFields | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { code?: unknown; parent?: unknown; original?: unknown };
  if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e as PgErrorFields;
  return pgErrorOf(e.parent ?? e.original);
}

// SQLSTATE → [code, HTTP status].
const BY_SQLSTATE: Record<string, [string, number]> = {
  '23505': ['DB_CONFLICT', 409],
  '23503': ['DB_CONSTRAINT', 422],
  '23502': ['DB_CONSTRAINT', 422],
  '23514': ['DB_CONSTRAINT', 422],
  '23P01': ['DB_CONSTRAINT', 422],
  '22001': ['DB_INVALID_VALUE', 422],
  '22003': ['DB_INVALID_VALUE', 422],
  '22007': ['DB_INVALID_VALUE', 422],
  '22008': ['DB_INVALID_VALUE', 422],
  '22P02': ['DB_INVALID_VALUE', 422],
  '22021': ['DB_INVALID_VALUE', 422],
  '42P10': ['DB_INVALID_QUERY', 422],
  '40001': ['DB_RETRY', 409],
  '40P01': ['DB_RETRY', 409],
  '55P03': ['DB_RETRY', 409],
  '57014': ['DB_TIMEOUT', 504],
  '42501': ['DB_FORBIDDEN', 403],
  '42P01': ['DB_NOT_INSTALLED', 409],
  '3F000': ['DB_NOT_INSTALLED', 409],
  '42703': ['DB_NOT_INSTALLED', 409],
};

/** A typed error for a failed host.db statement (MandiErrors pass through). */
export function toDataError(err: unknown, alias: string): MandiError {
  if (err instanceof MandiError) return err;
  const pg = pgErrorOf(err);
  const name = (err as { name?: unknown })?.name;
  if ((typeof name === 'string' && name.startsWith('SequelizeConnection')) || pg?.code?.startsWith('08') || pg?.code === '57P01') {
    return new MandiError('DB_UNAVAILABLE', 'The tenant database is unavailable; retry shortly.', 503, { module: alias });
  }
  if (!pg?.code) {
    return new MandiError('DB_ERROR', `host.db failed: ${(err as Error)?.message ?? String(err)}`, 500, { module: alias });
  }
  const [code, status] = BY_SQLSTATE[pg.code] ?? ['DB_ERROR', 500];
  let message = pg.message ?? 'database error';
  if (code === 'DB_NOT_INSTALLED') message = `The data of module "${alias}" is missing or out of date in this tenant (${message}); install or upgrade the module.`;
  if (code === 'DB_RETRY') message = `${message}; retry the operation.`;
  if (code === 'DB_TIMEOUT') message = 'The query took too long and was cancelled.';
  const details: Record<string, unknown> = { module: alias, sqlstate: pg.code };
  if (pg.constraint) details.constraint = pg.constraint;
  if (pg.column) details.column = pg.column;
  if (pg.detail && code !== 'DB_ERROR') details.detail = pg.detail;
  return new MandiError(code, message, status, details);
}
