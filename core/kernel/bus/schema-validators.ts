/**
 * Input and output validation by each operation's JSON schemas, compiled once per schema object. Two
 * ajv instances: a strict one for calls between code (and every output), and one that coerces strings
 * for the HTTP edge (query strings and path parameters are always strings).
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FieldErrors } from '../errors';

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: coerce, useDefaults: coerce });
  addFormats(ajv);
  return ajv;
}

/** Ajv errors as the spec's field map: {"items.0.qty": ["must be >= 1"]}. */
export function toFieldErrors(errors: ErrorObject[] | null | undefined): FieldErrors {
  // No prototype: a field named "__proto__" or "constructor" (a hostile body's) is a key like any other.
  const out: FieldErrors = Object.create(null) as FieldErrors;
  for (const e of errors ?? []) {
    const missing = (e.params as { missingProperty?: string }).missingProperty;
    const extra = (e.params as { additionalProperty?: string }).additionalProperty;
    const path = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const field = [path, missing ?? extra].filter(Boolean).join('.') || 'input';
    const message = missing ? `The ${missing} field is required.` : extra ? `The ${extra} field is not allowed.` : `The ${field} ${phrase(e)}.`;
    (out[field] ??= []).push(message);
  }
  return out;
}

/** JSON pointer reference token (RFC 6901): `~` and `/` escaped. */
const token = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');

/** Ajv errors keyed by the JSON pointer of the value at fault: {"/items/0/qty": ["must be an integer"]}. */
export function toPointerErrors(errors: ErrorObject[] | null | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const e of errors ?? []) {
    const missing = (e.params as { missingProperty?: string }).missingProperty;
    const extra = (e.params as { additionalProperty?: string }).additionalProperty;
    const name = missing ?? extra;
    const pointer = name === undefined ? e.instancePath : `${e.instancePath}/${token(name)}`;
    const message = missing ? 'is required' : extra ? 'is not allowed' : phrase(e);
    (out[pointer] ??= []).push(message);
  }
  return out;
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Ajv's terse wording ("must NOT have fewer than 1 items") as a sentence a client can show. */
export function phrase(e: ErrorObject): string {
  const p = e.params as { type?: string; allowedValues?: unknown[]; limit?: number; format?: string };
  switch (e.keyword) {
    case 'type':
      return `must be ${String(p.type).split(',').map(article).join(' or ')}`;
    case 'enum':
      return `must be one of the allowed values: ${(p.allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'minItems':
      return `must have at least ${plural(p.limit!, 'item')}`;
    case 'maxItems':
      return `may not have more than ${plural(p.limit!, 'item')}`;
    case 'minLength':
      return `must be at least ${plural(p.limit!, 'character')}`;
    case 'maxLength':
      return `may not be greater than ${plural(p.limit!, 'character')}`;
    case 'format':
      return `must be a valid ${p.format}`;
    default:
      return e.message ?? 'is invalid';
  }
}

export class SchemaValidators {
  private readonly strict = makeAjv(false);
  private readonly coercing = makeAjv(true);
  private readonly compiled = new WeakMap<object, { strict?: ValidateFunction; coercing?: ValidateFunction }>();

  /** Returns undefined when valid, otherwise the field errors. `coerce` may rewrite `value` in place. */
  validate(schema: object, value: unknown, coerce = false): FieldErrors | undefined {
    const errors = this.problems(schema, value, coerce);
    return errors && toFieldErrors(errors);
  }

  /** Ajv's own error objects, for callers that word the messages themselves (core/kernel/http/validate-body.ts). */
  problems(schema: object, value: unknown, coerce = false): ErrorObject[] | undefined {
    const fn = this.compile(schema, coerce);
    return fn(value) ? undefined : (fn.errors ?? []);
  }

  /** An operation's result against its output schema: undefined when valid, else errors by JSON pointer. Never rewrites `value`. */
  validateOutput(schema: object, value: unknown): Record<string, string[]> | undefined {
    const fn = this.compile(schema, false);
    return fn(value) ? undefined : toPointerErrors(fn.errors);
  }

  private compile(schema: object, coerce: boolean): ValidateFunction {
    let entry = this.compiled.get(schema);
    if (!entry) this.compiled.set(schema, (entry = {}));
    return coerce ? (entry.coercing ??= this.coercing.compile(schema)) : (entry.strict ??= this.strict.compile(schema));
  }
}
