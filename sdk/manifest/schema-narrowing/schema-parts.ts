/** What the input and output comparisons of JSON schemas both read. */
export type Schema = Record<string, unknown> | boolean | undefined;

/** Keywords whose effect is not compared piece by piece: any change to one counts as breaking. */
export const COMBINATORS = ['anyOf', 'oneOf', 'allOf', 'not', '$ref', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'propertyNames', 'patternProperties', 'contains'];

export const obj = (s: Schema): Record<string, unknown> => (s && typeof s === 'object' ? s : {});
export const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function types(s: Record<string, unknown>): Set<string> | undefined {
  const t = s.type;
  if (t === undefined) return undefined;
  return new Set(Array.isArray(t) ? (t as string[]) : [t as string]);
}
