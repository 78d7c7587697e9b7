/**
 * Issue 4 item 4: what counts as breaking callers (input narrowed, GraphQL breaking changes) and
 * what a major bump is. The end-to-end refusal is in test/rings/promotion-refusals.test.ts.
 */
import { graphqlBreakingChanges, inputNarrowings, isMajorBump } from '.';

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
