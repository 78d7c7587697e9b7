/**
 * DESIGN.md Data ("A module reaches data only through host.db, scoped to its own schema"): an
 * insert or delete outside a transaction travels as one query string, an insert's rows as a JSON
 * literal (core/kernel/module-data/lone-write.ts). A module writes values made to end that literal and run
 * statements of their own, as the module role or after leaving it; each is stored as the text it is.
 */
import { installLoyalty, rejection, startHarness, type Harness } from '../module-data/support';

const ALIAS = 'md_literal';
const VICTIM = 'md_literal_victim';

const PAYLOADS = [
  `'::json); DROP TABLE ${VICTIM}.points; --`,
  `\\'::json); RESET ROLE; DELETE FROM ${VICTIM}.points; --`,
  `"}]'::json); SELECT pg_catalog.set_config('role', 'none', false); --`,
  `$$); DROP TABLE ${ALIAS}.points; $$`,
  `E'\\x27); DROP TABLE ${VICTIM}.points; --`,
  `\\\\'); TRUNCATE public.activity_log; --`,
];

describe('DESIGN.md Data (hostile): values cannot leave the one-string insert', () => {
  let h: Harness;

  beforeAll(() => {
    h = startHarness();
  });
  afterAll(() => h.close());

  test('create and bulkCreate store each payload as text; the other module, core and the role are untouched', async () => {
    const victim = await installLoyalty(h, VICTIM);
    const t = victim.id;
    await victim.bridge('seed')('create', ['Points', { customer: 'victim-row' }]);
    await h.sql(t, `INSERT INTO public.activity_log (action) VALUES ('core-row')`);
    const db = (await installLoyalty(h, ALIAS, t)).bridge('attack');

    for (const p of PAYLOADS) {
      const row = (await db('create', ['Points', { customer: 'attacker', note: p, meta: { [p]: p } }])) as { note: string; meta: Record<string, string> };
      expect([row.note, row.meta[p]]).toEqual([p, p]);
    }
    const bulk = (await db('bulkCreate', ['Points', PAYLOADS.map((p) => ({ customer: p.slice(0, 60), note: p }))])) as { note: string }[];
    expect(bulk.map((r) => r.note)).toEqual(PAYLOADS);
    // A payload naming a column is refused before any SQL.
    expect(await rejection(db('create', ['Points', { [`note" = 1; --`]: 'x' }]))).toMatchObject({ code: 'DB_INVALID_QUERY' });

    expect(await db('count', ['Points', {}])).toBe(PAYLOADS.length * 2);
    // The same payloads in a delete's where match only the rows that hold them.
    for (const p of PAYLOADS) expect(await db('destroy', ['Points', { where: { note: p, customer: 'attacker' } }])).toBe(1);
    expect(await db('count', ['Points', {}])).toBe(PAYLOADS.length);
    expect(await h.sql(t, `SELECT customer FROM ${VICTIM}.points`)).toEqual([{ customer: 'victim-row' }]);
    expect(await h.sql(t, `SELECT 1 AS one FROM public.activity_log WHERE action = 'core-row'`)).toEqual([{ one: 1 }]);
  }, 30_000);
});
