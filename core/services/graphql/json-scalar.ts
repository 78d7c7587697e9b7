/**
 * The `JSON` scalar: bus operations take and return JSON, so derived fields (spec 1, GraphQL rule 6)
 * are `(input: JSON): JSON`. Values pass through unchanged; literals in the query become plain JSON.
 */
import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';

type Variables = { readonly [name: string]: unknown } | null | undefined;

function fromLiteral(node: ValueNode, variables: Variables): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
    case Kind.ENUM:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((v) => fromLiteral(v, variables));
    case Kind.OBJECT:
      // Object.fromEntries defines own properties, so a "__proto__" key stays data.
      return Object.fromEntries(node.fields.map((f) => [f.name.value, fromLiteral(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[node.name.value];
  }
}

export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value: what a module operation takes or returns.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (node, variables) => fromLiteral(node, variables),
});

/** Deterministic JSON (object keys sorted): equal inputs give equal strings, for cache keys. */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const entries = Object.keys(value)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}
