/**
 * Configuration that every chat reads (the LLM settings, provider rows and keys, agent roles), kept in
 * the tenant's sandbox context for CONFIG_TTL_MS: module globals are per tenant and node, so nothing
 * here reaches another tenant. An answer-only chat was otherwise four reads in series before the
 * model was asked (settings, then the provider row and key; the default role, then the role).
 *
 * Every write of that configuration through this module calls forgetConfig, so on one node a change
 * shows in the next call; another node (several nodes on REDIS_URL) sees it within CONFIG_TTL_MS. A
 * read that started before a write is never served after it (the generation check).
 */
import type { HandlerContext } from '../../../sdk';

export const CONFIG_TTL_MS = 5_000;

interface Entry {
  at: number;
  generation: number;
  value: Promise<unknown>;
}

let generation = 0;
const entries = new Map<string, Entry>();

export function configRead<T>(ctx: HandlerContext, key: string, load: () => Promise<T>): Promise<T> {
  const now = ctx.host.now();
  const hit = entries.get(key);
  if (hit && hit.generation === generation && now - hit.at < CONFIG_TTL_MS) return hit.value as Promise<T>;
  const entry: Entry = { at: now, generation, value: load() };
  entries.set(key, entry);
  // A failed read is not kept: the next call asks again.
  entry.value.catch(() => {
    if (entries.get(key) === entry) entries.delete(key);
  });
  return entry.value as Promise<T>;
}

/** Called after every write of settings, providers, keys and roles. */
export function forgetConfig(): void {
  generation++;
  entries.clear();
}
