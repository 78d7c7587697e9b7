/**
 * Per-key state kept separately for each policy (`points:seconds`): the same key under two policies
 * is two entries. Callers such as the bus pass one policy object on every call, so the map is also
 * found by that object, without building an id string per call.
 */
import type { RateLimitPolicy } from './types';

export class PerPolicy<T> {
  private readonly byId = new Map<string, Map<string, T>>();
  /** The map seen last for a policy object, with the numbers it had then (objects may change). */
  private readonly byObject = new WeakMap<RateLimitPolicy, { points: number; durationSeconds: number; entries: Map<string, T> }>();

  of(policy: RateLimitPolicy): Map<string, T> {
    const seen = this.byObject.get(policy);
    if (seen !== undefined && seen.points === policy.points && seen.durationSeconds === policy.durationSeconds) return seen.entries;
    const id = `${policy.points}:${policy.durationSeconds}`;
    let entries = this.byId.get(id);
    if (entries === undefined) this.byId.set(id, (entries = new Map()));
    this.byObject.set(policy, { points: policy.points, durationSeconds: policy.durationSeconds, entries });
    return entries;
  }

  maps(): IterableIterator<Map<string, T>> {
    return this.byId.values();
  }
}
