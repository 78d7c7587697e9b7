/**
 * `Type`: the schema builders a module declares its operations with. They are TypeBox's
 * (@sinclair/typebox), chosen because a TypeBox schema IS a JSON Schema object: the build writes it
 * into module.json unchanged and the bus compiles it with ajv as it is, while `Static<typeof S>`
 * gives the TypeScript type of the same schema, so a handler's input and output types are inferred
 * and never written a second time. (TypeBox 1.x, its successor, ships as ES modules only, which the
 * project's CommonJS tools cannot load; 0.34 is maintained and has the same builders.)
 *
 * Re-exported one by one from the `type` entry, so a bundle carries only the builders it uses (the
 * whole `Type` object of TypeBox adds about 100 KB to every sandbox bundle; esbuild drops the unused
 * members of this namespace).
 */
import { Unsafe, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox/type';

export {
  Any,
  Array,
  Boolean,
  Composite,
  Const,
  Integer,
  Intersect,
  Literal,
  Null,
  Number,
  Object,
  Omit,
  Optional,
  Partial,
  Pick,
  Record,
  Ref,
  String,
  Union,
  Unknown,
  Unsafe,
} from '@sinclair/typebox/type';

/**
 * The schema, or null. Written as `"type": ["string", "null"]` where the schema has a single type
 * and no enum (the form hand-written manifests use, so nothing changes for consumers), else as
 * `anyOf: [schema, {type: "null"}]`.
 */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  // Only the JSON keys: TypeBox's own symbol-keyed markers say "not nullable".
  const json: Record<string, unknown> = globalThis.Object.fromEntries(globalThis.Object.entries(schema));
  if (typeof json.type === 'string' && json.enum === undefined && json.const === undefined) {
    return Unsafe<Static<T> | null>({ ...json, type: [json.type, 'null'] });
  }
  return Unsafe<Static<T> | null>({ anyOf: [json, { type: 'null' }] });
}

/** One of the given strings, written as `{"type": "string", "enum": [...]}` (TypeBox's own unions write anyOf of consts). */
export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}): TUnsafe<T[number]> {
  return Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });
}
