/**
 * A module's materialized views (core/kernel/module-data/materialized-views.ts): refreshed and read only
 * in the calling module's own schema.
 */
import * as Type from '../../runtime/schema';
import { coreContract } from './core-contract';

const NAME = '^[a-z_][a-z0-9_]{0,62}$';
const ORDER = '^-?[a-z_][a-z0-9_]{0,62}$';

const Columns = Type.Optional(Type.Array(Type.String({ pattern: NAME }), { maxItems: 20, uniqueItems: true }));

export const dataRefreshView = coreContract({
  name: 'data.refresh_view',
  description: "Refreshes one of the calling module's materialized views concurrently (reads are not blocked).",
  input: Type.Object({ view: Type.String({ pattern: NAME }) }, { additionalProperties: false }),
  output: Type.Object({
    view: Type.String(),
    concurrently: Type.Boolean({ description: 'false for the first refresh of a view never populated (a plain REFRESH)' }),
    duration_ms: Type.Integer({ minimum: 0 }),
  }),
  public: true,
});

export const dataReadView = coreContract({
  name: 'data.read_view',
  description: "Rows of one of the calling module's materialized views, optionally within a column range.",
  input: Type.Object(
    {
      view: Type.String({ pattern: NAME }),
      range: Type.Optional(
        Type.Object(
          { column: Type.String({ pattern: NAME }), from: Type.Optional(Type.String({ maxLength: 40 })), to: Type.Optional(Type.String({ maxLength: 40 })) },
          { additionalProperties: false },
        ),
      ),
      aggregate: Type.Optional(
        Type.Object({ group_by: Columns, sum: Columns, min: Columns, max: Columns, count_distinct: Columns }, { additionalProperties: false }),
      ),
      order_by: Type.Optional(
        Type.Unsafe<string | string[]>({
          oneOf: [
            { type: 'string', pattern: ORDER },
            { type: 'array', minItems: 1, maxItems: 10, items: { type: 'string', pattern: ORDER } },
          ],
        }),
      ),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 10_000 })),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    rows: Type.Array(Type.Record(Type.String(), Type.Unknown())),
    populated: Type.Boolean({ description: 'false until the view was refreshed once (rows is then empty)' }),
  }),
  public: true,
});
