/**
 * What every order create reads and almost never changes (the custom field definitions, the GST
 * configurations, the seller's state), kept for a short time so a create does not spend a database
 * round trip on each of them.
 *
 * The module's code runs in one sandbox context per tenant, so this module-level map is one
 * tenant's. Writes through this module (settings, tax configurations, custom fields) drop the
 * entries of this node at once; a write made through another node of the deployment is seen here
 * within TTL_MS at the latest (documented in the module README). An entry read while a write was
 * committing cannot outlive that write: the drop comes after the write and empties the map.
 */
import type { HandlerContext } from '../../../sdk';

export const DEFINITION_TTL_MS = 2000;

export type DefinitionKind = 'custom_fields' | 'tax_configs' | 'seller_state';

type Entry = { until: number; value: Promise<unknown> };

const entries = new Map<DefinitionKind, Entry>();

/** The cached value of `kind`, loaded by `load` when missing, stale or dropped since. */
export function cachedDefinition<T>(ctx: HandlerContext, kind: DefinitionKind, load: () => Promise<T>): Promise<T> {
  const now = ctx.host.now();
  const hit = entries.get(kind);
  if (hit && hit.until > now) return hit.value as Promise<T>;
  const entry: Entry = { until: now + DEFINITION_TTL_MS, value: load() };
  entries.set(kind, entry);
  // A failed read is not remembered.
  entry.value.catch(() => {
    if (entries.get(kind) === entry) entries.delete(kind);
  });
  return entry.value as Promise<T>;
}

/** Runs a write of definitions; whether it committed or not, every later read goes to the database. */
export async function changingDefinitions<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } finally {
    entries.clear();
  }
}
