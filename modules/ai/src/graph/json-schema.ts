/**
 * The JSON Schema subset graph flows use for their input data and human input, and the assist
 * features for a model's answer (object, properties, required, additionalProperties false, type incl.
 * arrays of types, enum, minLength, maxLength, minimum, maximum, pattern, items, maxItems), checked in
 * the sandbox before anything is written. Errors come keyed by field, the platform's 422 shape.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  items?: JsonSchema;
  maxItems?: number;
  description?: string;
}

const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);
const fits = (t: string, v: unknown) => t === typeOf(v) || (t === 'number' && typeof v === 'number');

function checkValue(schema: JsonSchema, v: unknown, field: string, errors: Record<string, string[]>): void {
  const add = (m: string): void => {
    (errors[field] ??= []).push(m);
  };
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => fits(t, v))) {
      add(`must be ${types.join(' or ')}`);
      return;
    }
  }
  if (schema.enum && !schema.enum.includes(v)) {
    add(`must be one of ${schema.enum.join(', ')}`);
    return;
  }
  if (typeof v === 'string') {
    if (schema.minLength !== undefined && v.length < schema.minLength) add(`must have at least ${schema.minLength} characters`);
    if (schema.maxLength !== undefined && v.length > schema.maxLength) add(`must have at most ${schema.maxLength} characters`);
    if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(v)) add(`must match ${schema.pattern}`);
  }
  if (typeof v === 'number') {
    if (schema.minimum !== undefined && v < schema.minimum) add(`must be at least ${schema.minimum}`);
    if (schema.maximum !== undefined && v > schema.maximum) add(`must be at most ${schema.maximum}`);
  }
  if (Array.isArray(v)) {
    if (schema.maxItems !== undefined && v.length > schema.maxItems) add(`must have at most ${schema.maxItems} items`);
    else if (schema.items) v.forEach((item, i) => checkValue(schema.items!, item, `${field}.${i}`, errors));
  }
  if (schema.properties && typeOf(v) === 'object') checkObject(schema, v as Record<string, unknown>, `${field}.`, errors);
}

function checkObject(schema: JsonSchema, value: Record<string, unknown>, prefix: string, errors: Record<string, string[]>): void {
  for (const key of schema.required ?? []) if (value[key] === undefined) (errors[`${prefix}${key}`] ??= []).push('is required');
  for (const [key, v] of Object.entries(value)) {
    const prop = schema.properties?.[key];
    if (!prop) {
      if (schema.additionalProperties === false) (errors[`${prefix}${key}`] ??= []).push('is not allowed');
      continue;
    }
    if (v !== undefined) checkValue(prop, v, `${prefix}${key}`, errors);
  }
}

/** Problems of `value` against `schema`, by field path under `root`; null when it fits. */
export function schemaErrors(schema: JsonSchema, value: unknown, root: string): Record<string, string[]> | null {
  const errors: Record<string, string[]> = {};
  if (typeOf(value) !== 'object') errors[root] = ['must be an object'];
  else checkObject(schema, value as Record<string, unknown>, `${root}.`, errors);
  return Object.keys(errors).length > 0 ? errors : null;
}
