/**
 * POST /workflow-nodes/{identifier}/validate (spec 2, Node registry; Errors: "missing required config
 * key"): a node config checked against the entry's configSchema, as readable strings. String values
 * may hold placeholders such as `{{customer.email}}` (spec 2, Workflow: node config), resolved only at
 * run time, so a value holding one is not held to its property's type, format or pattern; required
 * keys and unknown keys are still checked.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { NodeEntry } from '../../../sdk/contracts/workflow-resources';

const PLACEHOLDER = /\{\{\s*[^{}]+?\s*\}\}/;

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const compiled = new WeakMap<object, ValidateFunction>();

function valueAt(root: unknown, pointer: string): unknown {
  if (!pointer) return root;
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((v, key) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), root);
}

const keyOf = (pointer: string, child?: string) => [...pointer.split('/').slice(1), ...(child ? [child] : [])].join('.');

function message(e: ErrorObject): string {
  const params = e.params as { missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[] };
  if (params.missingProperty) return `Missing required config key "${keyOf(e.instancePath, params.missingProperty)}".`;
  if (params.additionalProperty) return `Unknown config key "${keyOf(e.instancePath, params.additionalProperty)}".`;
  const where = e.instancePath ? `Config key "${keyOf(e.instancePath)}"` : 'The config';
  if (e.keyword === 'enum') return `${where} must be one of ${params.allowedValues!.map((v) => JSON.stringify(v)).join(', ')}.`;
  return `${where} ${e.message ?? 'is invalid'}.`;
}

/** The config's problems (empty when valid). */
export function validateNodeConfig(entry: NodeEntry, config: Record<string, unknown>): string[] {
  let validate = compiled.get(entry.configSchema);
  if (!validate) compiled.set(entry.configSchema, (validate = ajv.compile(entry.configSchema)));
  if (validate(config)) return [];
  const kept = (validate.errors ?? []).filter((e) => {
    const value = valueAt(config, e.instancePath);
    return !(typeof value === 'string' && PLACEHOLDER.test(value));
  });
  return [...new Set(kept.map(message))];
}
