/**
 * Request bodies of core routes, declared as JSON Schema (the SDK's TypeBox builders, so the type of
 * the read value comes from the same schema) and checked by ajv through the compiled-validator cache
 * the bus uses, answering spec 1's 422 shape {message, errors: {field: [messages]}}.
 *
 * The forms these routes serve keep their conventions:
 * - a body that is not an object reads as {}; a string field sent as null or "" counts as absent;
 * - a field that fails its type reads as absent in `value`, so a route's own checks see only strings;
 * - a property may carry `errorMessage`: one sentence for every failure of that property and below,
 *   or {keyword: sentence} for chosen keywords (the form of ajv-errors, worded here without its plugin).
 */
import type { ErrorObject } from 'ajv';
import type { Static, TObject, TString } from '@sinclair/typebox/type';
import * as Type from '../../../sdk/runtime/schema';
import { phrase, SchemaValidators } from '../bus/schema-validators';
import { ValidationError, type FieldErrors } from '../errors';

/** Core's body schemas are module constants, so one cache for all of them never grows. */
const validators = new SchemaValidators();

/** Marks an email field: its value is read trimmed and lowercased once valid. */
const EMAIL = Symbol('email');

/** An email address as the accounts routes take it (at most 255 characters). */
export function Email(field = 'email'): TString {
  return Type.String({ maxLength: 255, pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', errorMessage: { pattern: `The ${field} must be a valid email address.` }, [EMAIL]: true });
}

type ErrorMessage = string | Record<string, string>;
type Node = { type?: unknown; properties?: Record<string, Node>; items?: Node; errorMessage?: ErrorMessage; [EMAIL]?: true };

const label = (path: string[]) => path.join('.').replace(/_/g, ' ');

export class BodyReader<S extends TObject> {
  readonly errors: FieldErrors = {};
  /** The fields as sent; before done() a field that failed its type reads as absent. */
  readonly value: Partial<Static<S>>;

  constructor(body: unknown, schema: S) {
    const root = schema as unknown as Node;
    const value: Record<string, unknown> = body && typeof body === 'object' && !Array.isArray(body) ? { ...(body as Record<string, unknown>) } : {};
    for (const [key, prop] of Object.entries(root.properties ?? {})) {
      if (prop.type === 'string' && (value[key] === null || value[key] === '')) delete value[key];
    }
    const problems = validators.problems(schema, value) ?? [];
    // A value of the wrong type is only told so, as the hand-written forms did: no length or enum advice.
    const mistyped = new Set(problems.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
    for (const e of problems) if (e.keyword === 'type' || !mistyped.has(e.instancePath)) this.report(root, e);
    for (const e of problems) if (e.keyword === 'type' && e.instancePath.split('/').length === 2) delete value[e.instancePath.slice(1)];
    for (const [key, prop] of Object.entries(root.properties ?? {})) {
      if (prop[EMAIL] && typeof value[key] === 'string') value[key] = value[key].trim().toLowerCase();
    }
    this.value = value as Partial<Static<S>>;
  }

  fail(field: string, message: string): void {
    const list = (this.errors[field] ??= []);
    if (!list.includes(message)) list.push(message);
  }

  /** Throws the 422 shape when any field failed; otherwise the body, valid by its schema. */
  done(): Static<S> {
    if (Object.keys(this.errors).length) throw new ValidationError(this.errors);
    return this.value as Static<S>;
  }

  /** One ajv error as a sentence, under the property that names its own message, else its path. */
  private report(root: Node, e: ErrorObject): void {
    const missing = (e.params as { missingProperty?: string }).missingProperty;
    const path = [...e.instancePath.split('/').slice(1), ...(missing ? [missing] : [])];
    let node: Node | undefined = root;
    for (let i = 0; i < path.length; i++) {
      node = /^\d+$/.test(path[i]!) ? node?.items : node?.properties?.[path[i]!];
      if (typeof node?.errorMessage === 'string') return this.fail(path.slice(0, i + 1).join('.'), node.errorMessage);
    }
    const own = typeof node?.errorMessage === 'object' ? node.errorMessage[e.keyword] : undefined;
    this.fail(path.join('.') || 'input', own ?? (missing ? `The ${label(path)} field is required.` : `The ${label(path)} ${phrase(e)}.`));
  }
}
