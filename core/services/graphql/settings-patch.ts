/**
 * Reads a PATCH /graphql/settings body into a settings patch. The settings go by the spec's names
 * (`graphql.persisted_queries_only`, ...), so a body may nest them (`{graphql: {introspection: true}}`)
 * or name them with the dot (`{"graphql.introspection": true}`). A key that names no setting is a 422,
 * never silently ignored: a typo must not look like a setting that took effect.
 */
import { ValidationError, type FieldErrors } from '../../kernel/errors';
import { isObject } from '../../kernel/is-object';
import type { GatewaySettingsPatch } from './gateway-settings';

const NULLABLE = ['introspection', 'playground'] as const;
const GRAPHQL_KEYS = ['persisted_queries_only', ...NULLABLE];
const KNOWN = `The settings are ${GRAPHQL_KEYS.map((k) => `graphql.${k}`).join(', ')} and audit_mutations.`;

export function readSettingsPatch(body: unknown): GatewaySettingsPatch {
  const errors: FieldErrors = {};
  const patch: GatewaySettingsPatch = {};
  if (!isObject(body)) throw new ValidationError({ body: [`The body must be a JSON object. ${KNOWN}`] });

  const gql: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === 'graphql') {
      if (isObject(value)) Object.assign(gql, value);
      else errors.graphql = ['The graphql field must be an object.'];
    } else if (key.startsWith('graphql.')) gql[key.slice('graphql.'.length)] = value;
    else if (key !== 'audit_mutations') errors[key] = [`Unknown setting. ${KNOWN}`];
  }
  for (const [key, value] of Object.entries(gql)) {
    const field = `graphql.${key}`;
    if (key === 'persisted_queries_only') {
      if (typeof value === 'boolean') patch.persisted_queries_only = value;
      else errors[field] = ['The value must be true or false.'];
    } else if ((NULLABLE as readonly string[]).includes(key)) {
      if (value === null || typeof value === 'boolean') patch[key as (typeof NULLABLE)[number]] = value;
      else errors[field] = ['The value must be true, false or null.'];
    } else errors[field] = [`Unknown setting. ${KNOWN}`];
  }
  if (body.audit_mutations !== undefined) {
    if (typeof body.audit_mutations === 'boolean') patch.audit_mutations = body.audit_mutations;
    else errors.audit_mutations = ['The value must be true or false.'];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return patch;
}
