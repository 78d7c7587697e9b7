/** Shapes shared by the module data layer: compiled models, packages, reports and the bridge. */
import type { Column, Manifest, Model } from '../../../sdk/manifest/manifest.types';

export type ColumnType = Column['type'];

/**
 * MODULE_DB_ROLES: 'required' refuses module migrations when the database user cannot create
 * per-module roles; 'fallback-for-development' runs them as that user instead (host checks only).
 */
export const MODULE_DB_ROLES = ['required', 'fallback-for-development'] as const;
export type ModuleDbRoles = (typeof MODULE_DB_ROLES)[number];
export type ManifestModels = Record<string, Model>;

export interface CompiledColumn {
  name: string;
  type: ColumnType;
  nullable: boolean;
  primaryKey: boolean;
  autoIncrement: boolean;
  unique: boolean;
  length?: number;
  precision?: number;
  scale?: number;
  /** The manifest default: a JSON value, or {$fn: 'now' | 'uuid'}. Absent means none. */
  default?: unknown;
  hasDefault: boolean;
}

export interface CompiledIndex {
  name: string;
  fields: string[];
  unique: boolean;
}

export interface CompiledModel {
  /** The name host.db uses. */
  name: string;
  table: string;
  columns: ReadonlyMap<string, CompiledColumn>;
  primaryKey: string[];
  indexes: CompiledIndex[];
}

/** A module version's `data.models`, checked and normalised once. */
export interface CompiledModels {
  alias: string;
  /** Changes whenever the declared models change; keys cached ORM definitions. */
  fingerprint: string;
  models: ReadonlyMap<string, CompiledModel>;
}

/**
 * A module version as the data layer needs it: the manifest and a reader for the package's files
 * (migration SQL). Either `readFile` or `files.read` (core's LoadedModule) is accepted.
 */
export interface ModulePackage {
  manifest: Manifest;
  readFile?(path: string): Promise<string>;
  files?: { read(path: string): Promise<string> };
}

/** What install/upgrade changed; all empty when there was nothing to do. */
export interface DataChangeReport {
  schemaCreated: boolean;
  tablesCreated: string[];
  /** "table.column" */
  columnsAdded: string[];
  indexesCreated: string[];
  migrationsRun: string[];
}

export interface RollbackReport {
  rolledBack: string[];
}

/** The function the sandbox host bridge calls for `host.db.*`. */
export type DbBridge = (method: string, args: unknown[], txId?: string) => Promise<unknown>;

export interface ModuleDataOptions {
  /** Largest `limit` a query may ask for (default 1000). */
  maxLimit?: number;
  /** `limit` of `find` when the query sets none (default 100). */
  defaultLimit?: number;
  /** Most rows one bulkCreate may insert (default 1000). */
  maxBulkRows?: number;
  /** Most values in one $in / $notIn list (default 1000). */
  maxInList?: number;
  /** An explicit transaction still open after this is rolled back (default 30 s). */
  txTimeoutMs?: number;
  /** Per-statement limit for schema work: sync and each migration file (default 10 min). */
  migrationTimeoutMs?: number;
  /** Per-statement limit for host.db queries (default 10 s). */
  statementTimeoutMs?: number;
  /** Transactions one owner (invocation) may hold open at once (default 4). */
  maxOpenTransactionsPerOwner?: number;
  /**
   * Per-module PostgreSQL roles are used whenever the connecting user may create roles. Without
   * that right, 'required' (default) refuses migrations and 'fallback-for-development' runs them
   * as the connecting user; either way one warning is logged.
   */
  roles?: ModuleDbRoles;
}
