/**
 * The resolver map a module ships as `graphql.resolvers` (or a provider's `resolvers`): a JSON file
 * mapping "Type.field" to how the field resolves. Resolvers are data, not code, because they always
 * go through the bus (spec 1, GraphQL rule 3):
 *
 *   "Query.item": "catalog.get_item"                      the field calls that operation
 *   "Item.supplier": { "operation": "suppliers.get",      input built from the parent and the
 *                      "input": { "id": "$parent.supplier_id" } }   arguments ($args, $args.x, $parent.x)
 *   "Item.cost": { "permission": "catalog.costs" }         a plain field, shown only with the permission
 *
 * An operation field without `input` passes its arguments as the input, or the value of its one
 * argument when that argument is called `input` (as derived fields do). `permission` is checked
 * before anything runs (rule 4); the operation's own permission is checked by the bus as well.
 */
import { graphqlErrors } from './errors';

export interface FieldBinding {
  /** Bus operation that resolves the field; none: the field reads the parent's property. */
  operation?: string;
  /** Permission the user needs to see the field. */
  permission?: string;
  /** Input template; strings "$args", "$args.<path>", "$parent", "$parent.<path>" are substituted. */
  input?: Record<string, unknown>;
}

const FIELD_KEY = /^[_A-Za-z][_0-9A-Za-z]*\.[_A-Za-z][_0-9A-Za-z]*$/;
const OPERATION = /^[a-z][a-z0-9_]{1,49}\.[a-zA-Z][a-zA-Z0-9_]{0,99}$/;
const PERMISSION = /^[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+$/;

/** Parses and checks a resolver map; every problem is named by its key. */
export function parseFieldBindings(text: string, file: string): Map<string, FieldBinding> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw graphqlErrors.resolversInvalid(file, [`not valid JSON (${(err as Error).message})`]);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw graphqlErrors.resolversInvalid(file, ['must be an object mapping "Type.field" to an operation']);
  const problems: string[] = [];
  const out = new Map<string, FieldBinding>();
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!FIELD_KEY.test(key)) {
      problems.push(`"${key}" is not "Type.field"`);
      continue;
    }
    const binding: FieldBinding | undefined = typeof value === 'string' ? { operation: value } : value && typeof value === 'object' && !Array.isArray(value) ? (value as FieldBinding) : undefined;
    if (!binding) {
      problems.push(`"${key}" must be an operation name or {operation?, permission?, input?}`);
      continue;
    }
    const { operation, permission, input } = binding;
    const unknownKeys = Object.keys(binding).filter((k) => !['operation', 'permission', 'input'].includes(k));
    if (unknownKeys.length) problems.push(`"${key}" has unknown keys ${unknownKeys.join(', ')}`);
    if (operation !== undefined && (typeof operation !== 'string' || !OPERATION.test(operation))) problems.push(`"${key}": operation must look like "orders.get"`);
    if (permission !== undefined && (typeof permission !== 'string' || !PERMISSION.test(permission))) problems.push(`"${key}": permission must look like "orders.view"`);
    if (input !== undefined && (!input || typeof input !== 'object' || Array.isArray(input))) problems.push(`"${key}": input must be an object`);
    if (operation === undefined && permission === undefined) problems.push(`"${key}" needs an operation or a permission`);
    out.set(key, { operation, permission, input });
  }
  if (problems.length) throw graphqlErrors.resolversInvalid(file, problems);
  return out;
}

/** The bus input of a field: the template filled in, or the arguments (see the header). */
export function fieldInput(binding: FieldBinding, parent: unknown, args: Record<string, unknown>): unknown {
  if (binding.input) return fill(binding.input, parent, args);
  const names = Object.keys(args);
  if (names.length === 1 && names[0] === 'input') return args.input ?? {};
  return args;
}

function fill(template: unknown, parent: unknown, args: Record<string, unknown>): unknown {
  if (typeof template === 'string') {
    const m = /^\$(args|parent)(?:\.(.+))?$/.exec(template);
    if (!m) return template;
    const root = m[1] === 'args' ? args : parent;
    return m[2] ? pick(root, m[2].split('.')) : root;
  }
  if (Array.isArray(template)) return template.map((t) => fill(t, parent, args));
  if (template && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fill(v, parent, args)]));
  }
  return template;
}

function pick(value: unknown, path: string[]): unknown {
  let at = value;
  for (const key of path) {
    if (!at || typeof at !== 'object' || !Object.prototype.hasOwnProperty.call(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}
