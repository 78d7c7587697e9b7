/**
 * What a module's migrations may leave in its schema. host.db statements run as the module role
 * but not inside a security-definer context, so anything module-written that PostgreSQL executes
 * during them (functions, triggers, rules, policies, domain checks, defaults or checks calling a
 * volatile built-in such as set_config) could switch back to the host's role. Such objects are
 * refused, which keeps the module role the only identity its code ever runs under.
 */
import type { AdminClient } from './admin-connection';

// Non-immutable built-ins a default or check may call: clocks, sequences, random values.
const ALLOWED_CALLS = ['now', 'nextval', 'gen_random_uuid', 'random', 'clock_timestamp', 'statement_timestamp', 'transaction_timestamp', 'timezone'];

const FORBIDDEN_OBJECTS = `
  WITH ns AS (SELECT oid FROM pg_namespace WHERE nspname = $1),
       rels AS (SELECT c.oid, c.relname, c.relkind FROM pg_class c WHERE c.relnamespace = (SELECT oid FROM ns))
  SELECT 'function ' || p.oid::regprocedure::text AS problem FROM pg_proc p WHERE p.pronamespace = (SELECT oid FROM ns)
  UNION ALL SELECT 'operator ' || o.oid::regoperator::text FROM pg_operator o WHERE o.oprnamespace = (SELECT oid FROM ns)
  UNION ALL SELECT 'domain ' || t.typname FROM pg_type t WHERE t.typnamespace = (SELECT oid FROM ns) AND t.typtype = 'd'
  UNION ALL SELECT 'trigger ' || t.tgname || ' on ' || r.relname FROM pg_trigger t JOIN rels r ON r.oid = t.tgrelid WHERE NOT t.tgisinternal
  UNION ALL SELECT 'rule ' || w.rulename || ' on ' || r.relname FROM pg_rewrite w JOIN rels r ON r.oid = w.ev_class WHERE w.rulename <> '_RETURN'
  UNION ALL SELECT 'policy ' || pol.polname || ' on ' || r.relname FROM pg_policy pol JOIN rels r ON r.oid = pol.polrelid
  UNION ALL SELECT 'foreign table ' || r.relname FROM rels r WHERE r.relkind = 'f'`;

// Stored expression trees (nodeToString text) name the functions they call as :…funcid N and the
// operators as :opno N; constants are stored as bytes, so their text cannot fake either.
const UNSAFE_CALLS = `
  WITH ns AS (SELECT oid FROM pg_namespace WHERE nspname = $1),
  exprs AS (
    SELECT 'default of ' || r.relname || '.' || a.attname AS place, d.adbin::text AS tree
      FROM pg_attrdef d JOIN pg_class r ON r.oid = d.adrelid
      JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
     WHERE r.relnamespace = (SELECT oid FROM ns)
    UNION ALL SELECT 'constraint ' || c.conname, c.conbin::text FROM pg_constraint c
     WHERE c.connamespace = (SELECT oid FROM ns) AND c.conbin IS NOT NULL
    UNION ALL SELECT 'index ' || ic.relname, coalesce(i.indexprs::text, '') || coalesce(i.indpred::text, '')
      FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
     WHERE ic.relnamespace = (SELECT oid FROM ns) AND (i.indexprs IS NOT NULL OR i.indpred IS NOT NULL)
  ),
  calls AS (
    SELECT e.place, m.g[1]::oid AS fn FROM exprs e, LATERAL regexp_matches(e.tree, ':[a-z]*funcid (\\d+)', 'g') AS m(g)
    UNION ALL SELECT e.place, o.oprcode::oid FROM exprs e, LATERAL regexp_matches(e.tree, ':opno (\\d+)', 'g') AS m(g)
      JOIN pg_operator o ON o.oid = m.g[1]::oid
  )
  SELECT DISTINCT c.place || ' calls ' || coalesce(p.oid::regprocedure::text, c.fn::text) AS problem
    FROM calls c LEFT JOIN pg_proc p ON p.oid = c.fn
   WHERE c.fn <> 0
     AND (p.oid IS NULL OR p.pronamespace <> 'pg_catalog'::regnamespace OR NOT (p.provolatile = 'i' OR p.proname = ANY($2::text[])))`;

const NOT_TABLES = `
  SELECT t.name || CASE WHEN c.oid IS NULL THEN ' is missing' ELSE ' is no longer a table' END AS problem
    FROM unnest($2::text[]) AS t(name)
    LEFT JOIN pg_class c ON c.relname = t.name AND c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = $1)
   WHERE (c.oid IS NULL AND NOT $3) OR c.relkind NOT IN ('r', 'p')`;

/**
 * Problems in the schema after migrations, empty when it is safe. Declared model tables must be
 * tables, never views (host.db queries them); after a rollback they may be missing.
 */
export async function auditSchema(client: AdminClient, schema: string, modelTables: string[], allowMissing = false): Promise<string[]> {
  const objects = await client.query<{ problem: string }>(FORBIDDEN_OBJECTS, [schema]);
  const calls = await client.query<{ problem: string }>(UNSAFE_CALLS, [schema, ALLOWED_CALLS]);
  const tables = await client.query<{ problem: string }>(NOT_TABLES, [schema, modelTables, allowMissing]);
  return [...objects.rows, ...calls.rows, ...tables.rows].map((r) => r.problem);
}
