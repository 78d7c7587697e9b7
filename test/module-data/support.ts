/**
 * Shared setup of the module-data suites: a TenantDatabases on the test PostgreSQL server (see
 * test/support/global-setup.mjs), tenants with uniquely named databases, module packages held in
 * memory, and a superuser client for looking behind the host's back.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { databaseUrl } from '../../core/kernel/data/pg-admin';
import { TenantDatabases, tenantDbName } from '../../core/kernel/data/tenant-databases';
import { createLogger } from '../../core/kernel/logger';
import { ModuleDataService, type DbBridge, type ModuleDataOptions, type ModulePackage } from '../../core/kernel/module-data';
import type { Data, Manifest } from '../../sdk/manifest/manifest.types';
import { testServerUrl } from '../support/test-platform';

export interface Harness {
  dbs: TenantDatabases;
  data: ModuleDataService;
  /** A new tenant database (core tables included), dropped by close(). */
  tenant(): Promise<string>;
  /** Runs SQL in a tenant database as the server's superuser. */
  sql<R = Record<string, unknown>>(tenantId: string, text: string, params?: unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

export const randomTenantId = () => Array.from(randomBytes(8), (b) => String.fromCharCode(97 + (b % 26))).join('');

export function startHarness(options: ModuleDataOptions = {}): Harness {
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const dbs = new TenantDatabases({ serverUrl: testServerUrl(), maxTotal: 200, maxPerTenant: 20, idleMs: 60_000, logger });
  const data = new ModuleDataService(dbs, logger, options);
  const tenants: string[] = [];
  return {
    dbs,
    data,
    async tenant() {
      const id = randomTenantId();
      tenants.push(id);
      await dbs.create(id);
      return id;
    },
    async sql<R>(tenantId: string, text: string, params: unknown[] = []) {
      const client = new Client({ connectionString: databaseUrl(testServerUrl(), tenantDbName(tenantId)) });
      await client.connect();
      try {
        return (await client.query(text, params)).rows as R[];
      } finally {
        await client.end();
      }
    },
    async close() {
      await data.close();
      for (const id of tenants) await dbs.drop(id);
      await dbs.close();
    },
  };
}

/** Runs SQL on the server's maintenance database as the superuser (cluster-wide chores). */
export async function serverSql(text: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl(testServerUrl(), 'postgres') });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A module package in memory: its manifest and the files under migrations/. */
export function modulePackage(name: string, data: Data, files: Record<string, string> = {}, version = '1.0.0'): ModulePackage {
  const manifest: Manifest = { name, version, compatibility: { platform: '^2.0.0' }, data };
  return {
    manifest,
    async readFile(path: string) {
      if (!Object.hasOwn(files, path)) throw new Error(`no file ${path}`);
      return files[path];
    },
  };
}

/** Loyalty points: a model of every column type, indexes, and a model named in CamelCase. */
export const LOYALTY_MODELS: NonNullable<Data['models']> = {
  Points: {
    table: 'points',
    columns: {
      id: { type: 'bigint', primaryKey: true, autoIncrement: true },
      customer: { type: 'string', length: 64, nullable: false },
      amount: { type: 'decimal', precision: 12, scale: 2, nullable: false, default: '0.00' },
      note: { type: 'text' },
      active: { type: 'boolean', default: true },
      earned_on: { type: 'date' },
      created_at: { type: 'datetime', default: { $fn: 'now' } },
      meta: { type: 'json' },
      ref: { type: 'uuid', default: { $fn: 'uuid' } },
      level: { type: 'integer', default: 1 },
    },
    indexes: [{ fields: ['customer', 'created_at'] }, { name: 'points_ref_unique', fields: ['ref'], unique: true }],
  },
  Reward: {
    columns: {
      code: { type: 'string', length: 32, primaryKey: true },
      title: { type: 'string', nullable: false },
      cost: { type: 'decimal', precision: 10, scale: 2 },
    },
  },
};

export interface LoyaltyTenant {
  id: string;
  /** host.db of the module for one invocation (transactions belong to the invocation that began them). */
  bridge(invocation: string): DbBridge;
}

/** The loyalty models installed as module `alias` in a tenant: a new one unless tenantId is given. */
export async function installLoyalty(h: Harness, alias: string, tenantId?: string): Promise<LoyaltyTenant> {
  const id = tenantId ?? (await h.tenant());
  await h.data.install(id, modulePackage(alias, { models: LOYALTY_MODELS }));
  return { id, bridge: (invocation) => h.data.bridge(id, alias, LOYALTY_MODELS, invocation) };
}

/** Expects a promise to reject with a MandiError-like {code, message}. */
export async function rejection(p: Promise<unknown>): Promise<{ code: string; message: string; status: number; details?: Record<string, unknown> }> {
  try {
    await p;
  } catch (err) {
    return err as { code: string; message: string; status: number; details?: Record<string, unknown> };
  }
  throw new Error('expected a rejection');
}

/** What the pg driver is sent while fn runs: a pass-through spy on the driver (not on project code). */
export async function sentDuring(fn: () => Promise<unknown>): Promise<string[]> {
  const original = Client.prototype.query;
  const sent: string[] = [];
  const spy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
    if (typeof args[0] === 'string') sent.push(args[0]);
    return original.apply(this, args as never) as never;
  });
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return sent;
}
