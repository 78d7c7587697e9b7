/**
 * Error catalogs, declared once per area (as Fastify's `createError`): the code and HTTP status of
 * each error as data, so the reference lists them (docs/reference/error-codes.md), and a typed factory
 * that makes the thrown error. Module code throws what a factory makes; the bus carries it across the
 * sandbox as {code, message, details} and answers HTTP with `details.status` (docs/guides/03-the-code.md).
 * Core builds its own catalogs (core/kernel/errors.ts) on `buildErrors`, so one implementation types
 * both. It runs inside the isolate: no Node built-ins, nothing of core.
 */

/**
 * One entry of an error catalog: its code and HTTP status as data, what it means to the caller, and
 * how a thrown one reads.
 */
/** A, but no place to infer A from (NoInfer<A> would keep a rest tuple from taking fewer arguments). */
type Same<A> = A extends infer T ? T : never;

export interface ErrorDefinition<A extends unknown[]> {
  code: string;
  status: number;
  /**
   * What happened and what the caller can do, for the reference. Left out where the code is the
   * platform's (NOT_FOUND, FORBIDDEN, VALIDATION_FAILED, …): the reference gives the platform's meaning.
   */
  doc?: string;
  message: (...args: A) => string;
  /** Its arguments are inferred from `message` alone (a details function may take fewer). */
  details?: (...args: Same<A>) => Record<string, unknown> | undefined;
  /** The status when it depends on the case (the reference shows `status`, and `doc` says when it differs). */
  statusFor?: (...args: Same<A>) => number;
}

/**
 * A catalog's entries by name, each with the argument list A[name] its message takes; inferred from
 * the annotated `message`, so `details` and `statusFor` need no annotations.
 */
export type ErrorDefinitions<A extends Record<string, unknown[]>> = { [K in keyof A]: ErrorDefinition<A[K]> };
export type ErrorFactories<A extends Record<string, unknown[]>, E> = { [K in keyof A]: (...args: A[K]) => E };

export interface ErrorCatalog {
  /** Where its errors come from, e.g. "bus", "secrets", or a module's "orders". */
  area: string;
  entries: ReadonlyArray<{ name: string; code: string; status: number; doc?: string }>;
}

/**
 * The factories of a catalog, each making its error with `make` from the entry's code, message,
 * status (`statusFor` when given) and details, and the catalog's entries for the reference.
 */
export function buildErrors<A extends Record<string, unknown[]>, E>(
  area: string,
  definitions: ErrorDefinitions<A>,
  make: (code: string, message: string, status: number, details: Record<string, unknown> | undefined) => E,
): { factories: ErrorFactories<A, E>; catalog: ErrorCatalog } {
  const factories: Record<string, (...args: never[]) => E> = {};
  const entries: ErrorCatalog['entries'][number][] = [];
  for (const [name, d] of Object.entries(definitions) as [string, ErrorDefinition<never[]>][]) {
    factories[name] = (...args) => make(d.code, d.message(...args), d.statusFor?.(...args) ?? d.status, d.details?.(...args));
    entries.push({ name, code: d.code, status: d.status, doc: d.doc });
  }
  return { factories: factories as unknown as ErrorFactories<A, E>, catalog: { area, entries } };
}

/**
 * What a module's factory makes: an Error carrying the code and details the bus passes on;
 * `details.status` is the HTTP status of the answer.
 */
export class ModuleError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: { status: number } & Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ModuleError';
  }
}

const catalogs: ErrorCatalog[] = [];

/**
 * A module's errors: `defineErrors('orders', { notFound: { code: 'NOT_FOUND', status: 404, message:
 * (what: string, id: string) => `${what} ${id} was not found.`, details: (_what, id) => ({ id }) } })`
 * gives `ordersErrors.notFound('Order', id)`, a ModuleError with that code and message and details
 * `{id, status: 404}`.
 */
export function defineErrors<A extends Record<string, unknown[]>>(area: string, definitions: ErrorDefinitions<A>): ErrorFactories<A, ModuleError> {
  const { factories, catalog } = buildErrors(area, definitions, (code, message, status, details) => new ModuleError(code, message, { ...details, status }));
  catalogs.push(catalog);
  return factories;
}

/** Every module catalog defined so far (its errors.ts must have been imported), for the reference. */
export const moduleErrorCatalogs = (): readonly ErrorCatalog[] => catalogs;
