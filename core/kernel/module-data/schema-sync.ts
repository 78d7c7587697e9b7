/**
 * Additive sync of a module's declared models into its schema: creates what is missing (schema,
 * host tables, model tables, columns, indexes) and never drops or rewrites anything, so it is
 * idempotent and safe to repeat on upgrade. Changes beyond adding belong in migrations.
 */
import type { AdminClient } from './admin-connection';
import { addColumnSql, createIndexSql, createTableSql, formattedType, internalTablesSql } from './ddl';
import { dataErrors } from './db-errors';
import { grantSchemaAccess } from './module-role';
import { ident, qualified } from './names';
import type { CompiledModels, DataChangeReport } from './types';

interface Relation {
  relname: string;
  relkind: string;
  owner: string;
}

interface ColumnRow {
  relname: string;
  attname: string;
  type: string;
}

export type SyncReport = Omit<DataChangeReport, 'migrationsRun'> & { drift: string[] };

async function catalog(client: AdminClient, schema: string) {
  const rels = await client.query<Relation>(
    `SELECT c.relname, c.relkind, pg_get_userbyid(c.relowner) AS owner
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1`,
    [schema],
  );
  const cols = await client.query<ColumnRow>(
    `SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod) AS type
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped`,
    [schema],
  );
  const relations = new Map(rels.rows.map((r) => [r.relname, r]));
  const columns = new Map<string, Map<string, string>>();
  for (const c of cols.rows) {
    const byTable = columns.get(c.relname) ?? columns.set(c.relname, new Map()).get(c.relname)!;
    byTable.set(c.attname, c.type);
  }
  return { relations, columns };
}

/**
 * Brings the schema up to the declared models. With a role, model tables are created by (and
 * owned by) the module role, so its migrations may alter them; host tables stay the host's.
 */
export async function syncSchema(client: AdminClient, compiled: CompiledModels, role: string | null): Promise<SyncReport> {
  const schema = compiled.alias;
  const report: SyncReport = { schemaCreated: false, tablesCreated: [], columnsAdded: [], indexesCreated: [], drift: [] };
  const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  if (!exists.rowCount) {
    await client.query(`CREATE SCHEMA ${ident(schema)}`);
    report.schemaCreated = true;
  }
  for (const sql of internalTablesSql(schema)) await client.query(sql);
  if (role) await grantSchemaAccess(client, schema, role);

  const { relations, columns } = await catalog(client, schema);
  const ownership: string[] = [];
  const steps: Array<{ what: string; sql: string }> = [];
  for (const m of compiled.models.values()) {
    const rel = relations.get(m.table);
    if (!rel) {
      steps.push({ what: `table ${m.table}`, sql: createTableSql(schema, m) });
      report.tablesCreated.push(m.table);
    } else {
      if (rel.relkind !== 'r' && rel.relkind !== 'p') {
        throw dataErrors.notATable(schema, m.table, m.name);
      }
      // Tables made while roles were off belong to the host; the module role must own its tables.
      if (role && rel.owner !== role) ownership.push(`ALTER TABLE ${qualified(schema, m.table)} OWNER TO ${ident(role)}`);
      const have = columns.get(m.table) ?? new Map<string, string>();
      for (const c of m.columns.values()) {
        const type = have.get(c.name);
        if (type === undefined) {
          steps.push({ what: `column ${m.table}.${c.name}`, sql: addColumnSql(schema, m, c) });
          report.columnsAdded.push(`${m.table}.${c.name}`);
        } else if (type !== formattedType(c)) {
          report.drift.push(`${m.table}.${c.name} is ${type}, declared ${formattedType(c)}`);
        }
      }
    }
    for (const ix of m.indexes) {
      if (relations.has(ix.name)) continue;
      steps.push({ what: `index ${ix.name}`, sql: createIndexSql(schema, m, ix) });
      report.indexesCreated.push(ix.name);
    }
  }
  for (const sql of ownership) await client.query(sql);
  if (!steps.length) return report;
  if (role) await client.query(`SET LOCAL ROLE ${ident(role)}`);
  for (const step of steps) {
    try {
      await client.query(step.sql);
    } catch (err) {
      throw dataErrors.syncFailed(schema, step.what, (err as Error).message, (err as { code?: string }).code);
    }
  }
  if (role) await client.query('RESET ROLE');
  return report;
}
