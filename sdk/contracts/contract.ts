/**
 * Provider contracts (DESIGN.md, Host capabilities for modules): a set of operations several modules
 * can implement, named once here, so a consumer calls `payment.createLink` and the bus routes it to
 * the implementation the tenant chose. A contract is plain data (names and TypeBox schemas, which
 * are JSON Schema), so the same object types a provider's handlers, a consumer's calls and the
 * host's checks, and it bundles into module code.
 */
import type { Static, TSchema } from '@sinclair/typebox/type';

/** One operation of a contract: what every implementation accepts at least and returns at least. */
export interface ContractOperation<I extends TSchema = TSchema, O extends TSchema = TSchema> {
  description: string;
  input: I;
  output: O;
}

export interface Contract<Ops extends Record<string, ContractOperation> = Record<string, ContractOperation>> {
  /** The name consumers call it by (`payment` in `payment.createLink`); no module may take it as its alias. */
  name: string;
  /** Major version: a breaking change is a new contract (`payment@2`), implemented beside the old one. */
  version: number;
  /** What a provider lists in api.implements: `<name>@<version>`. */
  id: string;
  operations: Ops;
}

export function defineContract<const Ops extends Record<string, ContractOperation>>(name: string, version: number, operations: Ops): Contract<Ops> {
  return { name, version, id: `${name}@${version}`, operations };
}

/**
 * A contract's operations as an operation map for `typedCall` (sdk/runtime/typed-call.ts):
 *   const pay = typedCall<ContractOperations<typeof payment>>(ctx.host);
 *   const link = await pay('payment.createLink', {...});
 */
export type ContractOperations<C extends Contract> = {
  [K in keyof C['operations'] & string as `${C['name']}.${K}`]: { input: Static<C['operations'][K]['input']>; output: Static<C['operations'][K]['output']> };
};
