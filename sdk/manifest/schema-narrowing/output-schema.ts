/**
 * Whether a new output JSON schema promises callers less than the old one (DESIGN.md, Rings and the
 * registry: promotion refuses a breaking change without a major bump). The mirror of input
 * narrowing: a consumer reads what the old schema promised, so a field removed or no longer always
 * present, a type changed, null or a new enum value now possible, or a bound loosened can break it.
 * A new property (required or not) only adds to the promise and passes. As for inputs, this errs on
 * the side of breaking: a combinator (anyOf, oneOf, allOf, not, $ref, if) that changed at all counts.
 */
import { COMBINATORS, obj, same, types, type Schema } from './schema-parts';

/** `{type: [t, "null"]}` and `{anyOf: [s, {type: "null"}]}` (sdk Nullable's two forms) as the schema without null, and whether null is allowed. */
function withoutNull(s: Record<string, unknown>): { schema: Record<string, unknown>; nullable: boolean } {
  const t = types(s);
  if (t?.has('null')) {
    const rest = [...t].filter((x) => x !== 'null');
    return { schema: { ...s, type: rest.length === 1 ? rest[0] : rest }, nullable: true };
  }
  const branches = s.anyOf;
  if (Array.isArray(branches) && branches.length === 2) {
    const i = branches.findIndex((b) => same(b, { type: 'null' }));
    if (i >= 0) {
      const { anyOf: _anyOf, ...rest } = s;
      return { schema: { ...rest, ...obj(branches[1 - i] as Schema) }, nullable: true };
    }
  }
  return { schema: s, nullable: false };
}

const listed = (t: Set<string>) => [...t].join(' or ');

/** Every way a value valid under `after` may break a consumer of `before`, each as "<pointer>: <what>". */
export function outputNarrowings(before: Schema, after: Schema, pointer = ''): string[] {
  const at = pointer || '(root)';
  // No output schema (or `true`, or `false`) before: nothing was promised, nothing can break.
  if (before === undefined || typeof before === 'boolean') return [];
  if (after === undefined || after === true) return [`${at}: no longer declared, so any value may come back`];
  if (after === false) return [];
  const { schema: a, nullable: nullableBefore } = withoutNull(obj(before));
  const { schema: b, nullable: nullableAfter } = withoutNull(obj(after));
  const out: string[] = [];
  const say = (what: string) => out.push(`${at}: ${what}`);

  if (nullableAfter && !nullableBefore) say('may now be null');
  const ta = types(a);
  const tb = types(b);
  if (ta) {
    if (!tb) say(`may now be any type, not only ${listed(ta)}`);
    else if ([...tb].some((t) => !ta.has(t) && !(t === 'integer' && ta.has('number')))) say(`type changed from ${listed(ta)} to ${listed(tb)}`);
  }
  if (a.enum !== undefined) {
    const known = (a.enum as unknown[]).map((v) => JSON.stringify(v));
    const added = b.enum === undefined ? ['any value'] : (b.enum as unknown[]).map((v) => JSON.stringify(v)).filter((v) => !known.includes(v));
    if (added.length) say(`enum value ${added.join(', ')} added`);
  }
  if (a.const !== undefined && !same(a.const, b.const)) say(`constant ${b.const === undefined ? 'removed' : 'changed'}`);

  const loosened = (k: string, how: 'lowered' | 'raised') => {
    if (typeof a[k] !== 'number') return;
    if (typeof b[k] !== 'number') say(`${k} removed`);
    else if (how === 'lowered' ? b[k] < a[k] : b[k] > a[k]) say(`${k} ${how} to ${String(b[k])}`);
  };
  for (const k of ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']) loosened(k, 'lowered');
  for (const k of ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']) loosened(k, 'raised');
  for (const k of ['multipleOf', 'pattern', 'format']) {
    if (a[k] !== undefined && !same(a[k], b[k])) say(`${k} ${b[k] === undefined ? 'removed' : 'changed'} (was ${JSON.stringify(a[k])})`);
  }
  if (a.uniqueItems === true && b.uniqueItems !== true) say('items may now repeat');
  for (const k of COMBINATORS) {
    if ((a[k] !== undefined || b[k] !== undefined) && !same(a[k], b[k])) say(`${k} ${a[k] === undefined ? 'added' : b[k] === undefined ? 'removed' : 'changed'}`);
  }

  const propsA = obj(a.properties as Schema);
  const propsB = obj(b.properties as Schema);
  const requiredAfter = new Set((b.required as string[] | undefined) ?? []);
  for (const r of (a.required as string[] | undefined) ?? []) {
    if (!requiredAfter.has(r) && (r in propsB || !(r in propsA))) say(`"${r}" is no longer always present`);
  }
  for (const [name, schema] of Object.entries(propsA)) {
    if (name in propsB) out.push(...outputNarrowings(schema as Schema, propsB[name] as Schema, `${pointer}/properties/${name}`));
    else say(`"${name}" removed`);
  }
  if (typeof a.additionalProperties === 'object') out.push(...outputNarrowings(a.additionalProperties as Schema, b.additionalProperties as Schema, `${pointer}/additionalProperties`));
  if (a.items !== undefined && !same(a.items, b.items)) {
    if (Array.isArray(a.items) || Array.isArray(b.items)) say('items changed');
    else out.push(...outputNarrowings(a.items as Schema, b.items as Schema, `${pointer}/items`));
  }
  return out;
}
