/**
 * Input validation by each operation's JSON schema, compiled once per schema object. Two ajv
 * instances: a strict one for calls between code, and one that coerces strings for the HTTP edge
 * (query strings and path parameters are always strings).
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
  const out: FieldErrors = {};
  for (const e of errors ?? []) {
    const missing = (e.params as { missingProperty?: string }).missingProperty;
    const extra = (e.params as { additionalProperty?: string }).additionalProperty;
    const path = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const field = [path, missing ?? extra].filter(Boolean).join('.') || 'input';
    const message = missing ? `The ${missing} field is required.` : extra ? `The ${extra} field is not allowed.` : `The ${field} ${e.message}.`;
    (out[field] ??= []).push(message);
  }
  return out;
}

export class SchemaValidators {
  private readonly strict = makeAjv(false);
  private readonly coercing = makeAjv(true);
  private readonly compiled = new WeakMap<object, { strict?: ValidateFunction; coercing?: ValidateFunction }>();

  /** Returns undefined when valid, otherwise the field errors. `coerce` may rewrite `value` in place. */
  validate(schema: object, value: unknown, coerce = false): FieldErrors | undefined {
    let entry = this.compiled.get(schema);
    if (!entry) this.compiled.set(schema, (entry = {}));
    const fn = coerce ? (entry.coercing ??= this.coercing.compile(schema)) : (entry.strict ??= this.strict.compile(schema));
    return fn(value) ? undefined : toFieldErrors(fn.errors);
  }
}
