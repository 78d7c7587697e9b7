/**
 * Issue 4 item 4: what counts as breaking callers (input narrowed, output narrowed, GraphQL breaking
 * changes) and what a major bump is. The end-to-end refusal is in test/rings/promotion-refusals.test.ts.
 */
import { graphqlBreakingChanges, inputNarrowings, isMajorBump, outputNarrowings } from '.';

describe('input schema narrowing', () => {
  const base = {
    type: 'object',
    required: ['sku'],
    properties: { sku: { type: 'string', maxLength: 40 }, qty: { type: 'integer', minimum: 0 }, tags: { type: 'array', items: { type: 'string' } } },
  };
  const changed = (patch: (s: any) => void) => { // eslint-disable-line @typescript-eslint/no-explicit-any
    const s = structuredClone(base);
    patch(s);
    return inputNarrowings(base, s);
  };

  test('widening or adding an optional property is not narrowing', () => {
    expect(inputNarrowings(base, base)).toEqual([]);
    expect(changed((s) => (s.properties.note = { type: 'string' }))).toEqual([]);
    expect(changed((s) => (s.properties.sku.maxLength = 80))).toEqual([]);
    expect(changed((s) => (s.properties.qty.type = 'number'))).toEqual([]);
    expect(changed((s) => (s.required = []))).toEqual([]);
    expect(inputNarrowings(undefined, undefined)).toEqual([]);
  });

  test('every restriction is reported with where it is', () => {
    expect(changed((s) => s.required.push('qty'))).toEqual(['(root): now requires "qty"']);
    expect(changed((s) => (s.properties.sku.maxLength = 10))).toEqual(['/properties/sku: maxLength lowered to 10']);
    expect(changed((s) => (s.properties.qty.minimum = 1))).toEqual(['/properties/qty: minimum raised to 1']);
    expect(changed((s) => (s.properties.qty.type = 'string'))).toEqual(['/properties/qty: no longer accepts integer']);
    expect(changed((s) => (s.properties.sku.pattern = '^[A-Z]+$'))).toEqual(['/properties/sku: pattern added ("^[A-Z]+$")']);
    expect(changed((s) => (s.properties.tags.items = { type: 'string', enum: ['a'] }))).toEqual(['/properties/tags/items: enum no longer accepts values outside the new enum']);
    expect(changed((s) => (s.additionalProperties = false))).toEqual(['(root): no longer accepts properties it does not list']);
    expect(changed((s) => delete s.properties.qty)).toEqual([]);
    expect(changed((s) => { delete s.properties.qty; s.additionalProperties = false; })).toEqual([
      '(root): no longer accepts properties it does not list',
      '(root): no longer accepts "qty"',
    ]);
    expect(changed((s) => (s.properties.sku = { anyOf: [{ type: 'string' }] }))).toEqual(['/properties/sku: anyOf added']);
    expect(inputNarrowings(undefined, { type: 'object' })).toEqual(['(root): no longer accepts any type']);
    expect(inputNarrowings({ type: 'object' }, false)).toEqual(['(root): accepts nothing any more']);
  });
});

describe('output schema narrowing (what a consumer was promised)', () => {
  const base = {
    type: 'object',
    required: ['customer', 'points'],
    properties: {
      customer: { type: 'string' },
      points: { type: 'integer', minimum: 0 },
      tier: { type: 'string', enum: ['silver', 'gold'] },
      history: { type: 'array', items: { type: 'object', properties: { delta: { type: 'integer' } } } },
    },
    additionalProperties: false,
  };
  const changed = (patch: (s: any) => void) => { // eslint-disable-line @typescript-eslint/no-explicit-any
    const s = structuredClone(base);
    patch(s);
    return outputNarrowings(base, s);
  };

  test('a new property, a tighter bound or an enum value fewer only adds to the promise', () => {
    expect(outputNarrowings(base, base)).toEqual([]);
    expect(changed((s) => (s.properties.note = { type: 'string' }))).toEqual([]);
    expect(changed((s) => { s.properties.since = { type: 'string' }; s.required.push('since'); })).toEqual([]);
    expect(changed((s) => delete s.additionalProperties)).toEqual([]);
    expect(changed((s) => (s.properties.points.minimum = 10))).toEqual([]);
    expect(changed((s) => (s.properties.tier.enum = ['gold']))).toEqual([]);
    expect(changed((s) => (s.properties.points.type = 'integer'))).toEqual([]);
    expect(outputNarrowings(undefined, base)).toEqual([]);
  });

  test('a field removed, a type changed, nullable added, an enum value added are each reported with where', () => {
    expect(changed((s) => { delete s.properties.points; s.required = ['customer']; })).toEqual(['(root): "points" removed']);
    expect(changed((s) => delete s.properties.tier)).toEqual(['(root): "tier" removed']);
    expect(changed((s) => (s.required = ['customer']))).toEqual(['(root): "points" is no longer always present']);
    expect(changed((s) => (s.properties.points.type = 'string'))).toEqual(['/properties/points: type changed from integer to string']);
    expect(changed((s) => (s.properties.points.type = 'number'))).toEqual(['/properties/points: type changed from integer to number']);
    expect(changed((s) => (s.properties.customer.type = ['string', 'null']))).toEqual(['/properties/customer: may now be null']);
    expect(changed((s) => (s.properties.customer = { anyOf: [{ type: 'string' }, { type: 'null' }] }))).toEqual(['/properties/customer: may now be null']);
    expect(changed((s) => s.properties.tier.enum.push('platinum'))).toEqual(['/properties/tier: enum value "platinum" added']);
    expect(changed((s) => (s.properties.points.minimum = -5))).toEqual(['/properties/points: minimum lowered to -5']);
    expect(changed((s) => (s.properties.history.items.properties.delta.type = 'string'))).toEqual([
      '/properties/history/items/properties/delta: type changed from integer to string',
    ]);
    expect(outputNarrowings(base, undefined)).toEqual(['(root): no longer declared, so any value may come back']);
  });

  test('a nullable field staying nullable in the other form is not a change', () => {
    const before = { type: 'object', properties: { email: { type: ['string', 'null'] } } };
    expect(outputNarrowings(before, { type: 'object', properties: { email: { anyOf: [{ type: 'string' }, { type: 'null' }] } } })).toEqual([]);
  });
});

describe('GraphQL breaking changes (graphql-js findBreakingChanges on the module fragment)', () => {
  const v1 = 'type Item { sku: String! price: Money } extend type Query { item(sku: String!): Item }';
  test('a removed field, a type change and a new required argument are breaking; additions are not', () => {
    expect(graphqlBreakingChanges(v1, `${v1} extend type Item { name: String }`)).toEqual([]);
    expect(graphqlBreakingChanges(v1, 'type Item { sku: String! price: Money } extend type Query { item(sku: String!, at: Int!): Item }')).toEqual([
      'GraphQL: A required arg at on Query.item was added. (REQUIRED_ARG_ADDED)',
    ]);
    expect(graphqlBreakingChanges(v1, 'type Item { sku: Int! price: Money } extend type Query { item(sku: String!): Item }')).toEqual([
      'GraphQL: Item.sku changed type from String! to Int!. (FIELD_CHANGED_KIND)',
    ]);
    expect(graphqlBreakingChanges(v1, 'type Item { sku: String! } extend type Query { item(sku: String!): Item }')).toEqual(['GraphQL: Item.price was removed. (FIELD_REMOVED)']);
    expect(graphqlBreakingChanges(v1, undefined)).toEqual(['the GraphQL schema was removed']);
    expect(graphqlBreakingChanges(undefined, v1)).toEqual([]);
  });
});

test('a major bump is one outside ^previous (SemVer: 0.x minors count)', () => {
  expect(isMajorBump('1.4.2', '2.0.0')).toBe(true);
  expect(isMajorBump('1.4.2', '1.9.0')).toBe(false);
  expect(isMajorBump('0.1.0', '0.2.0')).toBe(true);
  expect(isMajorBump('2.0.0', '1.0.0')).toBe(false);
});
