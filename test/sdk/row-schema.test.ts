/**
 * rowSchema / columnSchema: an operation's output described from its model (SDK guide, docs/guides/04-data.md,
 * "Rows in outputs"), checked with the validators the bus checks outputs with.
 */
import { SchemaValidators } from '../../core/kernel/bus/schema-validators';
import { columnSchema, rowSchema, Type, type Model } from '../../sdk';

const validators = new SchemaValidators();
const model: Model = {
  table: 'things',
  columns: {
    id: { type: 'integer', primaryKey: true, autoIncrement: true },
    name: { type: 'string', length: 50, nullable: false },
    price: { type: 'decimal', precision: 10, scale: 2, nullable: false },
    note: { type: 'text' },
    tags: { type: 'json', nullable: false },
    extra: { type: 'json' },
    seen_at: { type: 'datetime' },
  },
};
const good = { id: 1, name: 'a', price: '1.50', note: null, tags: ['x'], extra: null, seen_at: '2026-01-01T00:00:00.000Z' };

describe('SDK guide section 4: row schemas from data models', () => {
  const schema = rowSchema(model, { tags: Type.Array(Type.String()) }, { owner: Type.String() });

  it('accepts a row as host.db returns it, extra keys included', () => {
    expect(validators.validateOutput(schema, { ...good, owner: 'u', joined: true })).toBeUndefined();
  });

  it('refuses a missing column, a wrong type, null in a not-null column, and a json column off its shape', () => {
    const { note: _note, ...noNote } = good;
    expect(validators.validateOutput(schema, { ...noNote, owner: 'u' })).toHaveProperty(['/note']);
    expect(validators.validateOutput(schema, { ...good, owner: 'u', price: 1.5 })).toHaveProperty(['/price']);
    expect(validators.validateOutput(schema, { ...good, owner: 'u', name: null })).toHaveProperty(['/name']);
    expect(validators.validateOutput(schema, { ...good, owner: 'u', tags: [1] })).toHaveProperty(['/tags/0']);
    expect(validators.validateOutput(schema, good)).toBeDefined();
  });

  it('a shaped nullable json column still takes null; an unshaped one takes any JSON value', () => {
    const shaped = columnSchema(model.columns.extra, Type.Object({ a: Type.Integer() }));
    expect(validators.validateOutput(shaped, null)).toBeUndefined();
    expect(validators.validateOutput(shaped, { a: 'x' })).toBeDefined();
    expect(validators.validateOutput(columnSchema(model.columns.extra), { anything: [1, 'two'] })).toBeUndefined();
  });
});
