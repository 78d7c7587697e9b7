/**
 * A node's input: its config with placeholders resolved against the run's values (spec 2, Workflow:
 * "placeholders like {{customer.email}} are allowed in string values"), except in code. A top-level
 * config string whose schema says `contentMediaType: "text/javascript"` (the code node's
 * `expression`) is code: interpolating trigger data into it would let whoever sends a webhook write
 * code. It goes to the node as written, and the values of its placeholders go beside it as
 * `placeholders` (path → value, null when it resolves to nothing) for the node to hand its code as
 * data (modules/workflows README, The code node's data model).
 */
import { pathValue, placeholderPaths, resolvePlaceholders } from '../contributions/placeholders';
import type { NodeEntry } from '../../../sdk/contracts/workflow-resources';
import { isObject } from '../../kernel/is-object';

const CODE_MEDIA_TYPE = 'text/javascript';

/** The config keys the node's schema declares as code. */
function codeKeys(entry: NodeEntry | undefined): string[] {
  if (!entry) return [];
  return Object.entries(entry.configSchema.properties)
    .filter(([, schema]) => isObject(schema) && schema.contentMediaType === CODE_MEDIA_TYPE)
    .map(([key]) => key);
}

export function nodeInput(config: Record<string, unknown>, values: Record<string, unknown>, entry: NodeEntry | undefined): unknown {
  const code = codeKeys(entry).filter((key) => typeof config[key] === 'string');
  if (code.length === 0) return resolvePlaceholders(config, values);
  const data = { ...config };
  for (const key of code) delete data[key];
  const input = resolvePlaceholders(data, values) as Record<string, unknown>;
  const placeholders = new Map<string, unknown>();
  for (const key of code) {
    const text = config[key] as string;
    input[key] = text;
    for (const path of placeholderPaths(text)) placeholders.set(path, pathValue(values, path) ?? null);
  }
  // fromEntries defines each path as an own key, so even a path named __proto__ stays data.
  if (placeholders.size > 0) input.placeholders = Object.fromEntries(placeholders);
  return input;
}
