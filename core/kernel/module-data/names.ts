/**
 * Names the module data layer derives from a module alias: its PostgreSQL schema, its role, and
 * the host's own tables inside that schema. Every identifier reaching SQL text goes through
 * `ident`, and aliases are checked against the manifest's alias rule before they are used.
 */
import { escapeIdentifier } from 'pg';
import { dataErrors } from './db-errors';

const ALIAS = /^[a-z][a-z0-9_]{1,49}$/;
// PostgreSQL reserves pg_* schema names; public and information_schema belong to the server and core.
const RESERVED_ALIASES = new Set(['public', 'information_schema']);

/** Host-owned tables in every module schema; no model may use these names. */
export const MIGRATIONS_TABLE = '_migrations';
export const SEQUENCES_TABLE = '_sequences';
export const RESERVED_TABLES: ReadonlySet<string> = new Set([MIGRATIONS_TABLE, SEQUENCES_TABLE]);

/** Returns the alias when it can name a schema and a role, else throws. */
export function checkAlias(alias: string): string {
  if (typeof alias !== 'string' || !ALIAS.test(alias) || alias.startsWith('pg_') || RESERVED_ALIASES.has(alias)) {
    throw dataErrors.badSchemaName(alias);
  }
  return alias;
}

/** The module's schema in every tenant database is named after its alias. */
export const schemaOf = (alias: string): string => checkAlias(alias);

/** Cluster-wide role shared by every tenant database that runs the module (at most 60 chars). */
export const roleOf = (alias: string): string => `mandi_mod_${checkAlias(alias)}`;

/** A quoted SQL identifier. */
export const ident = (name: string): string => escapeIdentifier(name);

/** A quoted schema-qualified name. */
export const qualified = (schema: string, name: string): string => `${ident(schema)}.${ident(name)}`;
