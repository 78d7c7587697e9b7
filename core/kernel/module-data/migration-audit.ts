/**
 * What a module's migrations may leave in its schema. host.db statements run as the module role
 * but not inside a security-definer context, so anything module-written that PostgreSQL executes
 * during them (functions, triggers, rules, policies, domain checks, defaults or checks calling a
 * volatile built-in such as set_config) could switch back to the host's role. Such objects are
 * refused, which keeps the module role the only identity its code ever runs under.
 *
 * The audit runs in the transaction the migrations ran in, so it must not depend on anything they
 * could have set for the session: its SQL has no backslash in any literal (whose meaning
 * standard_conforming_strings changes), names every catalog object with its schema, pins
 * search_path first, passes its values as bound parameters, and reads the stored expression trees
 * in TypeScript rather than with SQL regular expressions.
 */
import type { AdminClient } from './admin-connection';

// Non-immutable built-ins a default or check may call: clocks, sequences, random values.
const ALLOWED_CALLS = ['now', 'nextval', 'gen_random_uuid', 'random', 'clock_timestamp', 'statement_timestamp', 'transaction_timestamp', 'timezone'];

const FORBIDDEN_OBJECTS = `
  WITH ns AS (SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = $1),
       rels AS (SELECT c.oid, c.relname, c.relkind FROM pg_catalog.pg_class c WHERE c.relnamespace = (SELECT oid FROM ns))
  SELECT 'function ' || p.oid::pg_catalog.regprocedure::text AS problem FROM pg_catalog.pg_proc p WHERE p.pronamespace = (SELECT oid FROM ns)
  UNION ALL SELECT 'operator ' || o.oid::pg_catalog.regoperator::text FROM pg_catalog.pg_operator o WHERE o.oprnamespace = (SELECT oid FROM ns)
  UNION ALL SELECT 'domain ' || t.typname FROM pg_catalog.pg_type t WHERE t.typnamespace = (SELECT oid FROM ns) AND t.typtype = 'd'
  UNION ALL SELECT 'trigger ' || t.tgname || ' on ' || r.relname FROM pg_catalog.pg_trigger t JOIN rels r ON r.oid = t.tgrelid WHERE NOT t.tgisinternal
  UNION ALL SELECT 'rule ' || w.rulename || ' on ' || r.relname FROM pg_catalog.pg_rewrite w JOIN rels r ON r.oid = w.ev_class WHERE w.rulename <> '_RETURN'
  UNION ALL SELECT 'policy ' || pol.polname || ' on ' || r.relname FROM pg_catalog.pg_policy pol JOIN rels r ON r.oid = pol.polrelid
  UNION ALL SELECT 'foreign table ' || r.relname FROM rels r WHERE r.relkind = 'f'`;

// Every stored expression PostgreSQL evaluates while a host.db statement runs: defaults (and
// generated columns), check constraints, index expressions and predicates.
const EXPRESSIONS = `
  WITH ns AS (SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = $1)
  SELECT 'default of ' || r.relname || '.' || a.attname AS place, d.adbin::text AS tree
    FROM pg_catalog.pg_attrdef d JOIN pg_catalog.pg_class r ON r.oid = d.adrelid
    JOIN pg_catalog.pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
   WHERE r.relnamespace = (SELECT oid FROM ns)
  UNION ALL SELECT 'constraint ' || c.conname, c.conbin::text FROM pg_catalog.pg_constraint c
   WHERE c.connamespace = (SELECT oid FROM ns) AND c.conbin IS NOT NULL
  UNION ALL SELECT 'index ' || ic.relname, coalesce(i.indexprs::text, '') || coalesce(i.indpred::text, '')
    FROM pg_catalog.pg_index i JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid
   WHERE ic.relnamespace = (SELECT oid FROM ns) AND (i.indexprs IS NOT NULL OR i.indpred IS NOT NULL)`;

const FUNCTIONS = `
  SELECT p.oid::text AS oid, p.oid::pg_catalog.regprocedure::text AS name,
         (p.pronamespace = $2::pg_catalog.regnamespace AND (p.provolatile = 'i' OR p.proname = ANY($3::text[]))) AS allowed
    FROM pg_catalog.pg_proc p WHERE p.oid = ANY($1::pg_catalog.oid[])`;

const OPERATOR_FUNCTIONS = `SELECT o.oid::text AS oid, o.oprcode::pg_catalog.oid::text AS fn FROM pg_catalog.pg_operator o WHERE o.oid = ANY($1::pg_catalog.oid[])`;

// PostgreSQL records what an expression uses in pg_depend, except the objects initdb created
// ("pinned": every built-in). So any function or operator found here is not a built-in: refused
// for defaults, checks and indexes, and for views too, which rewrite rules (_RETURN) carry.
const NON_BUILTIN_DEPENDENCIES = `
  WITH ns AS (SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = $1),
  owners AS (
    SELECT 'pg_catalog.pg_attrdef'::pg_catalog.regclass AS classid, d.oid AS objid, 'default of ' || r.relname || '.' || a.attname AS place
      FROM pg_catalog.pg_attrdef d JOIN pg_catalog.pg_class r ON r.oid = d.adrelid
      JOIN pg_catalog.pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
     WHERE r.relnamespace = (SELECT oid FROM ns)
    UNION ALL SELECT 'pg_catalog.pg_constraint'::pg_catalog.regclass, c.oid, 'constraint ' || c.conname
      FROM pg_catalog.pg_constraint c WHERE c.connamespace = (SELECT oid FROM ns)
    UNION ALL SELECT 'pg_catalog.pg_class'::pg_catalog.regclass, c.oid, 'index ' || c.relname
      FROM pg_catalog.pg_class c WHERE c.relnamespace = (SELECT oid FROM ns) AND c.relkind IN ('i', 'I')
    UNION ALL SELECT 'pg_catalog.pg_rewrite'::pg_catalog.regclass, w.oid, 'view ' || r.relname
      FROM pg_catalog.pg_rewrite w JOIN pg_catalog.pg_class r ON r.oid = w.ev_class WHERE r.relnamespace = (SELECT oid FROM ns)
  )
  SELECT DISTINCT o.place || ' calls ' || CASE
           WHEN d.refclassid = 'pg_catalog.pg_proc'::pg_catalog.regclass THEN d.refobjid::pg_catalog.regprocedure::text
           ELSE 'operator ' || d.refobjid::pg_catalog.regoperator::text END AS problem
    FROM owners o JOIN pg_catalog.pg_depend d ON d.classid = o.classid AND d.objid = o.objid
   WHERE d.refclassid IN ('pg_catalog.pg_proc'::pg_catalog.regclass, 'pg_catalog.pg_operator'::pg_catalog.regclass)`;

const NOT_TABLES = `
  SELECT t.name || CASE WHEN c.oid IS NULL THEN ' is missing' ELSE ' is no longer a table' END AS problem
    FROM pg_catalog.unnest($2::text[]) AS t(name)
    LEFT JOIN pg_catalog.pg_class c ON c.relname = t.name AND c.relnamespace = (SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = $1)
   WHERE (c.oid IS NULL AND NOT $3) OR c.relkind NOT IN ('r', 'p')`;

// Stored expression trees (nodeToString text) name the functions they call as :funcid,
// :opfuncid, :hashfuncid, :negfuncid, :aggfnoid or :winfnoid N, and the operators as :opno N or
// :opnos (o N …); constants are stored as bytes, so their text cannot fake or hide either.
const FUNCTION_FIELD = /:(?:[a-z]*funcid|aggfnoid|winfnoid) (\d+)/g;
const OPERATOR_FIELD = /:opno (\d+)/g;
const OPERATOR_LIST_FIELD = /:opnos \(o([\d ]*)\)/g;

interface Calls {
  functions: Set<string>;
  operators: Set<string>;
}

/** The functions and operators one stored expression tree calls, by OID. */
function callsIn(tree: string): Calls {
  const functions = new Set<string>();
  const operators = new Set<string>();
  for (const m of tree.matchAll(FUNCTION_FIELD)) functions.add(m[1]);
  for (const m of tree.matchAll(OPERATOR_FIELD)) operators.add(m[1]);
  for (const m of tree.matchAll(OPERATOR_LIST_FIELD)) for (const oid of m[1].split(' ').filter(Boolean)) operators.add(oid);
  functions.delete('0');
  return { functions, operators };
}

/** Calls of built-ins that are neither immutable nor on the allowed list, named per expression. */
async function unsafeCalls(client: AdminClient, schema: string): Promise<string[]> {
  const { rows: exprs } = await client.query<{ place: string; tree: string }>(EXPRESSIONS, [schema]);
  const perPlace = exprs.map((e) => ({ place: e.place, ...callsIn(e.tree) }));
  const operators = [...new Set(perPlace.flatMap((p) => [...p.operators]))];
  const { rows: ops } = await client.query<{ oid: string; fn: string }>(OPERATOR_FUNCTIONS, [operators]);
  const opFunction = new Map(ops.map((o) => [o.oid, o.fn]));
  for (const p of perPlace) for (const op of p.operators) p.functions.add(opFunction.get(op) ?? `operator ${op}`);
  const oids = [...new Set(perPlace.flatMap((p) => [...p.functions]))].filter((f) => /^\d+$/.test(f));
  const { rows: fns } = await client.query<{ oid: string; name: string; allowed: boolean }>(FUNCTIONS, [oids, 'pg_catalog', ALLOWED_CALLS]);
  const byOid = new Map(fns.map((f) => [f.oid, f]));
  const problems = new Set<string>();
  for (const p of perPlace) {
    for (const fn of p.functions) {
      const found = byOid.get(fn);
      if (!found?.allowed) problems.add(`${p.place} calls ${found?.name ?? fn}`);
    }
  }
  return [...problems];
}

/**
 * Problems in the schema after migrations, empty when it is safe. Declared model tables must be
 * tables, never views (host.db queries them); after a rollback they may be missing. Pins
 * search_path for the rest of the caller's transaction.
 */
export async function auditSchema(client: AdminClient, schema: string, modelTables: string[], allowMissing = false): Promise<string[]> {
  await client.query('SELECT pg_catalog.set_config($1, $2, true)', ['search_path', 'pg_catalog, pg_temp']);
  const objects = await client.query<{ problem: string }>(FORBIDDEN_OBJECTS, [schema]);
  const calls = await unsafeCalls(client, schema);
  const dependencies = await client.query<{ problem: string }>(NON_BUILTIN_DEPENDENCIES, [schema]);
  const tables = await client.query<{ problem: string }>(NOT_TABLES, [schema, modelTables, allowMissing]);
  return [...new Set([...objects.rows.map((r) => r.problem), ...calls, ...dependencies.rows.map((r) => r.problem), ...tables.rows.map((r) => r.problem)])];
}
