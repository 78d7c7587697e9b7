/**
 * Errors of host.db. Query problems a module can fix are DB_INVALID_QUERY (422) naming the
 * problem; PostgreSQL errors are translated to typed errors without SQL text or server internals.
 */
import { defineErrors, describeErrors, MandiError } from '../errors';

const MIGRATION_DECLARED = "A module's declared migrations contradict themselves or what already ran in this tenant (a duplicate, an unknown or reordered migration, a file outside migrations/).";

export const dataErrors = defineErrors('module data', {
  invalidQuery: {
    code: 'DB_INVALID_QUERY', status: 422,
    doc: 'A host.db query the module can fix: an unknown model or field, a bad filter, order or limit; the message names the problem.',
    message: (message: string, _details?: Record<string, unknown>) => message,
    details: (_message: string, details?: Record<string, unknown>) => details,
  },
  unavailable: {
    code: 'DB_UNAVAILABLE', status: 503,
    doc: "The tenant's database cannot be reached right now; retry shortly.",
    message: (_alias: string) => 'The tenant database is unavailable; retry shortly.',
    details: (alias: string) => ({ module: alias }),
  },
  failed: {
    code: 'DB_ERROR', status: 500,
    doc: 'A host.db statement failed for a reason the platform does not classify; the log has it.',
    message: (reason: string, _alias: string) => `host.db failed: ${reason}`,
    details: (_reason: string, alias: string) => ({ module: alias }),
  },
  notInstalled: {
    code: 'DB_NOT_INSTALLED', status: 409,
    doc: "The module's data is missing or out of date in this tenant: install or upgrade the module.",
    message: (alias: string) => `The data of module "${alias}" is not installed in this tenant.`,
    details: (alias: string) => ({ module: alias }),
  },
  invalidModels: {
    code: 'DB_INVALID_MODEL', status: 422,
    doc: "The module's data models are invalid, or name a table that is not one.",
    message: (alias: string, problems: string[]) => `Module "${alias}" declares invalid data models: ${problems.join('; ')}`,
    details: (alias: string, problems: string[]) => ({ module: alias, problems }),
  },
  notATable: {
    code: 'DB_INVALID_MODEL', status: 422,
    doc: "The module's data models are invalid, or name a table that is not one.",
    message: (schema: string, table: string, model: string) => `"${table}" in schema ${schema} is not a table, so model ${model} cannot use it.`,
    details: (schema: string) => ({ module: schema }),
  },
  otherModule: {
    code: 'DB_INVALID_MODULE', status: 422,
    doc: 'The module cannot have data of its own under that name, or an upgrade names a different module.',
    message: (from: string, to: string) => `Cannot upgrade module "${from}" to a different module "${to}".`,
  },
  badSchemaName: {
    code: 'DB_INVALID_MODULE', status: 422,
    doc: 'The module cannot have data of its own under that name, or an upgrade names a different module.',
    message: (alias: unknown) => `"${String(alias)}" cannot name a module schema: use a lowercase alias that is not public, information_schema or pg_*.`,
    details: (alias: unknown) => ({ module: alias }),
  },
  syncFailed: {
    code: 'DB_SYNC_FAILED', status: 422,
    doc: "Creating a module's tables, columns or indexes failed (details.sqlstate).",
    message: (schema: string, what: string, reason: string, _sqlstate: string | undefined) => `Module "${schema}": creating ${what} failed: ${reason}`,
    details: (schema: string, _what: string, _reason: string, sqlstate: string | undefined) => ({ module: schema, sqlstate }),
  },
  rolesRequired: {
    code: 'DB_ROLES_REQUIRED', status: 500,
    doc: 'The module has migrations and the database user may not create roles: grant CREATEROLE (or, for development only, set MODULE_DB_ROLES=fallback-for-development).',
    message: (alias: string) =>
      `Module "${alias}" has migrations, but the database user may not create roles (it needs SUPERUSER or CREATEROLE), so they would run with the platform's own rights. Grant CREATEROLE to the database user; for development only, MODULE_DB_ROLES=fallback-for-development runs them anyway.`,
    details: (alias: string) => ({ module: alias, setting: 'MODULE_DB_ROLES' }),
  },
  roleUnsafe: {
    code: 'DB_ROLE_UNSAFE', status: 500,
    doc: "A module's PostgreSQL role was given more rights than a module may hold; an operator removes them.",
    message: (role: string) => `PostgreSQL role ${role} has more rights than a module may hold (login, attributes or role memberships); remove them.`,
    details: (role: string) => ({ role }),
  },
  migrationNotApplied: {
    code: 'MIGRATION_NOT_APPLIED', status: 409,
    doc: 'A module rollback names a migration that has not run in this tenant.',
    message: (alias: string, migration: string) => `Module "${alias}": migration "${migration}" has not run in this tenant, so it cannot be rolled back to.`,
    details: (alias: string, migration: string) => ({ module: alias, migration }),
  },
  migrationRefused: {
    code: 'MIGRATION_REFUSED', status: 422,
    doc: "A module's migrations left objects a module schema may not hold (details.problems).",
    message: (alias: string, problems: string[]) =>
      `Module "${alias}": migrations may not leave ${problems.join('; ')}. Module schemas hold tables, views, indexes, sequences and constraints; defaults and checks may call only immutable built-ins and now(), nextval(), gen_random_uuid().`,
    details: (alias: string, problems: string[]) => ({ module: alias, problems }),
  },
  migrationTwice: {
    code: 'MIGRATION_INVALID', status: 422, doc: MIGRATION_DECLARED,
    message: (alias: string, migration: string) => `Module "${alias}" declares migration "${migration}" twice.`,
    details: (alias: string, migration: string) => ({ module: alias, migration }),
  },
  migrationOutsideFolder: {
    code: 'MIGRATION_INVALID', status: 422, doc: MIGRATION_DECLARED,
    message: (alias: string, file: string) => `Module "${alias}": migration file "${file}" must be under migrations/.`,
    details: (alias: string, file: string) => ({ module: alias, file }),
  },
  migrationUnreadable: {
    code: 'MIGRATION_INVALID', status: 422, doc: MIGRATION_DECLARED,
    message: (alias: string, file: string, reason: string) => `Module "${alias}": cannot read migration file "${file}": ${reason}`,
    details: (alias: string, file: string) => ({ module: alias, file }),
  },
  migrationUnknown: {
    code: 'MIGRATION_UNKNOWN', status: 422, doc: MIGRATION_DECLARED,
    message: (alias: string, migration: string) =>
      `Module "${alias}": migration "${migration}" has run in this tenant but this version does not declare it; roll it back with the version that declares it first.`,
    details: (alias: string, migration: string) => ({ module: alias, migration }),
  },
  migrationOrder: {
    code: 'MIGRATION_ORDER', status: 422, doc: MIGRATION_DECLARED,
    message: (alias: string, migration: string, ranAfter: string) =>
      `Module "${alias}": migration "${migration}" is declared before "${ranAfter}", which already ran; append new migrations at the end instead.`,
    details: (alias: string, migration: string) => ({ module: alias, migration }),
  },
  migrationFailed: {
    code: 'MIGRATION_FAILED', status: 422,
    doc: "A module's migration SQL failed in this tenant (details.sqlstate); nothing of it stays.",
    message: (schema: string, migration: string, direction: string, reason: string | undefined, _sqlstate: string | undefined) =>
      `Migration "${migration}" (${direction}) of module "${schema}" failed: ${reason}`,
    details: (schema: string, migration: string, direction: string, _reason: string | undefined, sqlstate: string | undefined) => ({ module: schema, migration, direction, sqlstate }),
  },
  viewsModuleOnly: {
    code: 'FORBIDDEN', status: 403,
    message: () => 'Only module code may use its materialized views.',
  },
  viewNotFound: {
    code: 'NOT_FOUND', status: 404,
    message: (view: string, schema: string) => `No materialized view "${view}" in schema "${schema}".`,
  },
  viewColumnMissing: {
    code: 'VALIDATION_ERROR', status: 422,
    doc: "A materialized-view read names a column the view does not have.",
    message: (view: string, column: string) => `The view "${view}" has no column "${column}".`,
  },
  tooManyTransactions: {
    code: 'DB_TOO_MANY_TRANSACTIONS', status: 429,
    doc: 'One call opened more host.db transactions at once than allowed.',
    message: (max: number) => `At most ${max} transactions may be open at once in one call.`,
  },
  transactionClosed: {
    code: 'DB_TX_CLOSED', status: 409,
    doc: 'The host.db transaction is not open: it ended, was rolled back (the message says why), or the call ended first.',
    message: (message: string) => message,
  },
});

/** The catalog's query error under the name host.db's code has always used. */
export const { invalidQuery } = dataErrors;

// SQLSTATE classes a module can act on (below), for the reference; toDataError picks one per statement.
describeErrors('module data', [
  { name: 'conflict', code: 'DB_CONFLICT', status: 409, doc: 'A unique constraint refused the write (details.constraint).' },
  { name: 'constraint', code: 'DB_CONSTRAINT', status: 422, doc: 'A foreign key, not-null, check or exclusion constraint refused the write (details.constraint, details.column).' },
  { name: 'invalidValue', code: 'DB_INVALID_VALUE', status: 422, doc: 'A value does not fit its column (too long, out of range, not a valid date, number or UUID).' },
  { name: 'retry', code: 'DB_RETRY', status: 409, doc: 'A serialization failure, deadlock or lock timeout: retry the operation.' },
  { name: 'timeout', code: 'DB_TIMEOUT', status: 504, doc: 'The query took too long and was cancelled.' },
  { name: 'forbidden', code: 'DB_FORBIDDEN', status: 403, doc: "The module's role may not touch that object (another module's schema, or a platform table)." },
]);

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
    return dataErrors.unavailable(alias);
  }
  if (!pg?.code) {
    return dataErrors.failed((err as Error)?.message ?? String(err), alias);
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
