/**
 * Whether a new input JSON schema accepts less than the old one (issue 4 item 4: "its input schema
 * narrowed"). Exact subset checking of JSON schemas is undecidable in general, so this errs on the
 * side of calling a change breaking: every keyword that can only restrict is compared, and a
 * combinator (anyOf, oneOf, allOf, not, $ref, if) that changed at all counts as narrowing. Adding an
 * optional property is not narrowing: callers that never sent it are unaffected.
 */
import { COMBINATORS, obj, same, types, type Schema } from './schema-parts';

/** Every way `after` refuses input `before` accepted, each as "<pointer>: <what>". */
export function inputNarrowings(before: Schema, after: Schema, pointer = ''): string[] {
  const at = pointer || '(root)';
  if (after === false && before !== false) return [`${at}: accepts nothing any more`];
  if (before === false) return [];
  const a = obj(before);
  const b = obj(after);
  const out: string[] = [];
  const say = (what: string) => out.push(`${at}: ${what}`);

  const ta = types(a);
  const tb = types(b);
  if (tb) {
    const lost = ta ? [...ta].filter((t) => !tb.has(t) && !(t === 'integer' && tb.has('number'))) : ['any type'];
    if (lost.length) say(`no longer accepts ${lost.join(', ')}`);
  }
  if (b.enum !== undefined) {
    const allowed = (b.enum as unknown[]).map((v) => JSON.stringify(v));
    const lost = a.enum === undefined ? ['values outside the new enum'] : (a.enum as unknown[]).filter((v) => !allowed.includes(JSON.stringify(v))).map((v) => JSON.stringify(v));
    if (lost.length) say(`enum no longer accepts ${lost.join(', ')}`);
  }
  if (b.const !== undefined && !same(a.const, b.const)) say('now requires a constant value');

  const lower = (k: string) => {
    if (typeof b[k] === 'number' && (typeof a[k] !== 'number' || (b[k] as number) > (a[k] as number))) say(`${k} raised to ${String(b[k])}`);
  };
  const upper = (k: string) => {
    if (typeof b[k] === 'number' && (typeof a[k] !== 'number' || (b[k] as number) < (a[k] as number))) say(`${k} lowered to ${String(b[k])}`);
  };
  ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'].forEach(lower);
  ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'].forEach(upper);
  for (const k of ['multipleOf', 'pattern', 'format']) {
    if (b[k] !== undefined && !same(a[k], b[k])) say(`${k} ${a[k] === undefined ? 'added' : 'changed'} (${JSON.stringify(b[k])})`);
  }
  if (b.uniqueItems === true && a.uniqueItems !== true) say('items must now be unique');
  for (const k of COMBINATORS) {
    if (b[k] !== undefined && !same(a[k], b[k])) say(`${k} ${a[k] === undefined ? 'added' : 'changed'}`);
  }

  const requiredBefore = new Set((a.required as string[] | undefined) ?? []);
  const newlyRequired = ((b.required as string[] | undefined) ?? []).filter((r) => !requiredBefore.has(r));
  if (newlyRequired.length) say(`now requires ${newlyRequired.map((r) => `"${r}"`).join(', ')}`);

  const propsA = obj(a.properties as Schema);
  const propsB = obj(b.properties as Schema);
  const closed = b.additionalProperties === false;
  if (closed && a.additionalProperties !== false) say('no longer accepts properties it does not list');
  for (const [name, schema] of Object.entries(propsA)) {
    if (name in propsB) out.push(...inputNarrowings(schema as Schema, propsB[name] as Schema, `${pointer}/properties/${name}`));
    else if (closed) say(`no longer accepts "${name}"`);
    else if (b.additionalProperties !== undefined && b.additionalProperties !== true) {
      out.push(...inputNarrowings(schema as Schema, b.additionalProperties as Schema, `${pointer}/properties/${name}`));
    }
  }
  if (a.additionalProperties !== false && typeof b.additionalProperties === 'object' && !same(a.additionalProperties, b.additionalProperties)) {
    out.push(...inputNarrowings(a.additionalProperties as Schema, b.additionalProperties as Schema, `${pointer}/additionalProperties`));
  }
  if (b.items !== undefined && !same(a.items, b.items)) {
    if (Array.isArray(a.items) || Array.isArray(b.items)) say('items changed');
    else out.push(...inputNarrowings(a.items as Schema, b.items as Schema, `${pointer}/items`));
  }
  return out;
}
