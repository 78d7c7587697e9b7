/**
 * The modules one tenant has installed, indexed for the bus: which module provides an operation,
 * which modules subscribe to an event, which implement a provider contract, and a fingerprint of
 * alias@version pairs for per-ring caches.
 */
import { createHash } from 'node:crypto';
import type { Contract } from '../../../sdk/contracts';
import { CONTRACTS } from '../../../sdk/contracts';
import type { Operation } from '../../../sdk/manifest';
import type { LoadedModule } from './loaded-module';

/** A provider's operation reached through its contract: the contract's schemas apply, the provider's permission. */
export interface ContractTarget {
  module: LoadedModule;
  def: Pick<Operation, 'input' | 'output' | 'permission'>;
  /** `payment.createLink` and the alias serving it, for audit records and errors. */
  contract: { op: string; provider: string };
}

export class TenantModules {
  readonly byAlias: ReadonlyMap<string, LoadedModule>;
  private readonly ops = new Map<string, { module: LoadedModule; def: Operation }>();
  private readonly subscribers = new Map<string, LoadedModule[]>();
  /** Contract name (`payment`) → the installed modules implementing it, by alias order. */
  private readonly implementers = new Map<string, LoadedModule[]>();
  /** Contract of each implementing module's operation: `payment_razorpay.createLink` → payment@1. */
  private readonly contractOf = new Map<string, Contract>();
  /** Made on first use, once per set: the bus resolves a contract call without allocating. */
  private readonly contractTargets = new Map<string, ContractTarget>();
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
      for (const id of m.manifest.api?.implements ?? []) {
        const contract = CONTRACTS.get(id);
        if (!contract) continue; // refused at install; a manifest from elsewhere implements nothing here
        const mods = this.implementers.get(contract.name) ?? [];
        mods.push(m);
        this.implementers.set(contract.name, mods);
        for (const method of Object.keys(contract.operations)) this.contractOf.set(`${m.alias}.${method}`, contract);
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

  /** The installed modules that implement the contract named `name` (`payment`). */
  implementersOf(name: string): readonly LoadedModule[] {
    return this.implementers.get(name) ?? [];
  }

  /**
   * `provider`'s operation `method` as the contract's: `payment_razorpay` + `createLink` under
   * `payment`. Undefined when the provider does not implement the contract or lacks the operation.
   */
  contractTarget(contract: Contract, method: string, provider: string): ContractTarget | undefined {
    const name = `${provider}.${method}`;
    let target = this.contractTargets.get(name);
    if (target) return target;
    const own = this.ops.get(name);
    const def = contract.operations[method];
    if (!own || !def || this.contractOf.get(name) !== contract) return undefined;
    target = { module: own.module, def: { input: def.input, output: def.output, permission: own.def.permission }, contract: { op: `${contract.name}.${method}`, provider } };
    this.contractTargets.set(name, target);
    return target;
  }

  /** A provider's own operation (`payment_razorpay.refund`) as its contract's, when it is one. */
  contractTargetOf(op: string): ContractTarget | undefined {
    const contract = this.contractOf.get(op);
    if (!contract) return undefined;
    const dot = op.indexOf('.');
    return this.contractTarget(contract, op.slice(dot + 1), op.slice(0, dot));
  }
}
