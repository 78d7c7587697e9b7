/**
 * The provider contracts the platform defines (DESIGN.md, Host capabilities for modules). A
 * contract's name is reserved: no module takes it as its alias, so `payment.createLink` can only
 * mean "the tenant's payment provider".
 */
import type { Contract } from './contract';
import { payment } from './payment';
import { shipping } from './shipping';

export { defineContract, type Contract, type ContractOperation, type ContractOperations } from './contract';
export { payment } from './payment';
export { shipping } from './shipping';

/** Every contract, by id (`payment@1`). */
export const CONTRACTS: ReadonlyMap<string, Contract> = new Map([payment, shipping].map((c) => [c.id, c as Contract]));

/** Contract names (`payment`): reserved module aliases, and the first part of a routed operation name. */
export const CONTRACT_NAMES: ReadonlySet<string> = new Set([...CONTRACTS.values()].map((c) => c.name));

/** The contract a routed operation name (`payment.createLink`) belongs to, with that operation; undefined when it names none. */
export function contractOperation(op: string): { contract: Contract; method: string } | undefined {
  const dot = op.indexOf('.');
  if (dot < 0) return undefined;
  const name = op.slice(0, dot);
  const method = op.slice(dot + 1);
  for (const contract of CONTRACTS.values()) {
    if (contract.name === name && Object.hasOwn(contract.operations, method)) return { contract, method };
  }
  return undefined;
}
