/**
 * RowOf (sdk/runtime/db.ts) types a row from its model as rowSchema (./row-schema.ts) describes it
 * at run time: the type assertions below are checked by `npm run typecheck`, the schema checks by jest
 * (ajv, as the bus validates outputs).
 */
import Ajv from 'ajv';
import type { Data } from '../manifest/manifest.types';
import type { RowOf } from './db';
import { rowSchema } from './row-schema';

const data = {
  models: {
    Note: {
      table: 'notes',
      columns: {
        id: { type: 'integer', primaryKey: true, autoIncrement: true },
        title: { type: 'string', nullable: false },
        body: { type: 'text' },
        amount: { type: 'decimal', nullable: false },
        pinned: { type: 'boolean', nullable: false, default: false },
        tags: { type: 'json', nullable: false },
        extra: { type: 'json' },
      },
    },
  },
} as const satisfies Data;

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Note = RowOf<typeof data.models.Note, { tags: string[]; extra: { color: string } }>;
const sameShape: Equal<Note, { id: number; title: string; body: string | null; amount: string; pinned: boolean; tags: string[]; extra: { color: string } | null }> = true;

describe('SDK guide section 4: a row typed from its model', () => {
  it('RowOf gives each column the type and nullability rowSchema checks at run time', () => {
    expect(sameShape).toBe(true);
    const check = new Ajv({ strict: false }).compile(rowSchema(data.models.Note));
    const note: Note = { id: 1, title: 't', body: null, amount: '1.50', pinned: false, tags: ['a'], extra: null };
    expect(check(note)).toBe(true);
    // What RowOf forbids rowSchema refuses: a null in a column that is not nullable, a number for a decimal.
    expect(check({ ...note, title: null })).toBe(false);
    expect(check({ ...note, amount: 1.5 })).toBe(false);
  });
});
