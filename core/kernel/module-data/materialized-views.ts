/**
 * Materialized views of a module (spec 3 analytics: mv_daily_order_stats, mv_order_source_stats).
 * A module creates them in a migration (in its own schema, owned by its role: the migration audit
 * accepts materialized views, whose only rewrite rule is the internal `_RETURN`). host.db reaches
 * declared tables only and has no raw SQL, so two public bus operations serve module callers, each
 * only on the caller's OWN schema, running as the module's role:
 *  - `data.refresh_view {view}`: REFRESH MATERIALIZED VIEW CONCURRENTLY (readers are never blocked;
 *    the view needs a unique index, as PostgreSQL requires) — or a plain refresh while the view has
 *    never been populated (CONCURRENTLY refuses that case);
 *  - `data.read_view {view, range?, aggregate?, order_by?, limit?}`: rows of the view, optionally
 *    within a column range, or (`aggregate`) its rows summed up in PostgreSQL: `group_by` columns and
 *    `sum`, `min`, `max`, `count_distinct` of columns, answered as `sum_<col>`, `min_<col>`, …,
 *    `count_distinct_<col>` (so a distinct count over millions of rows is one number, not millions
 *    of rows read). `order_by` names columns (or those answer names), `-` first for descending.
 *    Names are checked against the view's columns, values are bound.
 */
import { dataReadView, dataRefreshView } from '../../../sdk/contracts/platform';
import type { Bus } from '../bus/bus';
import { defineCoreOperation } from '../bus/core-operation';
import { dataErrors } from './db-errors';
import type { ModuleDataService } from './module-data-service';
import { ident } from './names';

/** Aggregate functions of `data.read_view`, each answered as `<key>_<column>`. */
const FUNCTIONS = [
  ['sum', (c: string) => `SUM(${c})`],
  ['min', (c: string) => `MIN(${c})`],
  ['max', (c: string) => `MAX(${c})`],
  ['count_distinct', (c: string) => `COUNT(DISTINCT ${c})`],
] as const;
const AGGREGATE_KEYS = ['group_by', ...FUNCTIONS.map(([k]) => k)] as const;

function callerAlias(caller: { kind: string; alias?: string }): string {
  if (caller.kind !== 'module' || !caller.alias) throw dataErrors.viewsModuleOnly();
  return caller.alias;
}

async function viewInfo(client: { query: ModuleDataServiceClient['query'] }, schema: string, view: string): Promise<{ populated: boolean; columns: Set<string> }> {
  const found = await client.query('SELECT ispopulated FROM pg_matviews WHERE schemaname = $1 AND matviewname = $2', [schema, view]);
  if (!found.rows.length) throw dataErrors.viewNotFound(view, schema);
  const cols = await client.query(
    `SELECT a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relname = $2 AND a.attnum > 0 AND NOT a.attisdropped`,
    [schema, view],
  );
  return { populated: (found.rows[0] as { ispopulated: boolean }).ispopulated, columns: new Set(cols.rows.map((r) => (r as { attname: string }).attname)) };
}

type ModuleDataServiceClient = Parameters<Parameters<ModuleDataService['asModule']>[2]>[0];

export function registerViewOperations(bus: Bus, data: ModuleDataService): void {
  bus.registerCore(defineCoreOperation(dataRefreshView, async (input, ctx, caller) => {
    const schema = callerAlias(caller);
    const started = performance.now();
    const concurrently = await data.asModule(ctx.tenantId, schema, async (client) => {
      const info = await viewInfo(client, schema, input.view);
      await client.query(`REFRESH MATERIALIZED VIEW ${info.populated ? 'CONCURRENTLY ' : ''}${ident(schema)}.${ident(input.view)}`);
      return info.populated;
    }, { temporaryTables: true });
    return { view: input.view, concurrently, duration_ms: Math.round(performance.now() - started) };
  }));

  bus.registerCore(defineCoreOperation(dataReadView, async (input, ctx, caller) => {
    const schema = callerAlias(caller);
    return data.asModule(
      ctx.tenantId,
      schema,
      async (client) => {
        const info = await viewInfo(client, schema, input.view);
        const agg = input.aggregate;
        const noColumn = (c: string) => dataErrors.viewColumnMissing(input.view, c);
        for (const c of [input.range?.column, ...AGGREGATE_KEYS.flatMap((k) => agg?.[k] ?? [])]) if (c && !info.columns.has(c)) throw noColumn(c);
        // What the answer's rows hold, and so what may order them.
        const answered = agg ? new Set(['count', ...(agg.group_by ?? []), ...FUNCTIONS.flatMap(([k]) => (agg[k] ?? []).map((c) => `${k}_${c}`))]) : info.columns;
        const order = (typeof input.order_by === 'string' ? [input.order_by] : input.order_by ?? []).map((o) => ({ column: o.replace(/^-/, ''), desc: o.startsWith('-') }));
        for (const o of order) if (!answered.has(o.column)) throw noColumn(o.column);
        if (!info.populated) return { rows: [], populated: false };
        const where: string[] = [];
        const bind: unknown[] = [];
        if (input.range?.from !== undefined) where.push(`${ident(input.range.column)} >= $${bind.push(input.range.from)}`);
        if (input.range?.to !== undefined) where.push(`${ident(input.range!.column)} <= $${bind.push(input.range.to)}`);
        const select = agg
          ? [...(agg.group_by ?? []).map(ident), ...FUNCTIONS.flatMap(([k, fn]) => (agg[k] ?? []).map((c) => `${fn(ident(c))} AS ${ident(`${k}_${c}`)}`))].join(', ') || 'COUNT(*) AS count'
          : '*';
        const sql =
          `SELECT ${select} FROM ${ident(schema)}.${ident(input.view)}` +
          (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
          (agg?.group_by?.length ? ` GROUP BY ${agg.group_by.map(ident).join(', ')}` : '') +
          (order.length ? ` ORDER BY ${order.map((o) => `${ident(o.column)}${o.desc ? ' DESC' : ''}`).join(', ')}` : '') +
          ` LIMIT ${Math.floor(input.limit ?? 10_000)}`;
        const res = await client.query(sql, bind);
        return { rows: res.rows, populated: true };
      },
      { timeoutMs: 30_000 },
    );
  }));
}
