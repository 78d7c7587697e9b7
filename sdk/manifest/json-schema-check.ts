/**
 * Checks the JSON schemas a manifest embeds (operation input/output, workflow node configSchema) at
 * load time, so a broken schema is reported against module.json instead of failing later in the bus.
 * Draft-07, with the standard formats, as the bus compiles them.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { type ManifestIssue } from './issues';

let ajv: Ajv | undefined;

function schemaAjv(): Ajv {
  if (!ajv) {
    ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
  }
  return ajv;
}

/** Problems with `schema` as a draft-07 JSON schema, located under `pointer`. */
export function jsonSchemaIssues(schema: unknown, pointer: string): ManifestIssue[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return [];
  const checker = schemaAjv();
  try {
    if (checker.validateSchema(schema)) return [];
  } catch (err) {
    return [{ pointer, message: `is not a usable JSON schema: ${(err as Error).message}` }];
  }
  // The meta-schema reports one mistake several ways (enum, type, anyOf): keep the first per place.
  const issues = new Map<string, ManifestIssue>();
  for (const e of checker.errors ?? []) {
    const at = pointer + e.instancePath;
    if (issues.has(at)) continue;
    const detail =
      e.keyword === 'enum'
        ? `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`
        : (e.message ?? 'invalid');
    issues.set(at, { pointer: at, message: `is not a valid JSON schema: ${detail}` });
  }
  return [...issues.values()];
}

/** Problems with `value` against `schema` (assumed valid), located under `pointer`. */
export function valueIssues(schema: object, value: unknown, pointer: string, what: string): ManifestIssue[] {
  let validate;
  try {
    validate = schemaAjv().compile(schema);
  } catch (err) {
    return [{ pointer, message: `cannot be checked: ${(err as Error).message}` }];
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => ({
    pointer: pointer + e.instancePath,
    message: `does not satisfy ${what}: ${e.message ?? 'invalid'}`,
  }));
}
