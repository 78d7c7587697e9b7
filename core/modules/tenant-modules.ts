/**
 * The modules one tenant has installed, indexed for the bus: which module provides an operation,
 * which modules subscribe to an event, and a fingerprint of alias@version pairs for per-ring caches.
 */
import { createHash } from 'node:crypto';
import type { Operation } from '../../sdk/manifest';
import type { LoadedModule } from './loaded-module';

export class TenantModules {
  readonly byAlias: ReadonlyMap<string, LoadedModule>;
  private readonly ops = new Map<string, { module: LoadedModule; def: Operation }>();
  private readonly subscribers = new Map<string, LoadedModule[]>();
  readonly fingerprint: string;

  constructor(readonly list: readonly LoadedModule[]) {
    this.byAlias = new Map(list.map((m) => [m.alias, m]));
    for (const m of list) {
      for (const [name, def] of m.operations) this.ops.set(name, { module: m, def });
      for (const event of m.manifest.events?.subscribes ?? []) {
        const subs = this.subscribers.get(event) ?? [];
        subs.push(m);
        this.subscribers.set(event, subs);
      }
    }
    const pairs = list.map((m) => m.key).sort();
    this.fingerprint = createHash('sha256').update(pairs.join(',')).digest('hex').slice(0, 16);
  }

  operation(name: string): { module: LoadedModule; def: Operation } | undefined {
    return this.ops.get(name);
  }

  subscribersOf(event: string): readonly LoadedModule[] {
    return this.subscribers.get(event) ?? [];
  }
}
