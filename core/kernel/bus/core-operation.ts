/**
 * A core operation: a contract (sdk/contracts/platform) and the host's handler for it. The handler's
 * input and answer are the contract's schemas' types, so no interface re-types them; the bus
 * validates every call's input by the same schema before the handler sees it (DESIGN.md, Bus).
 */
import type { CoreContract, CoreInput, CoreOutput } from '../../../sdk/contracts/platform';
import type { Caller, CallContext, CoreOperation } from './types';

export type CoreHandler<C extends CoreContract> = (input: CoreInput<C>, ctx: CallContext, caller: Caller) => Promise<CoreOutput<C>>;

export function defineCoreOperation<C extends CoreContract>(contract: C, handler: CoreHandler<C>): CoreOperation {
  // The bus hands the handler only input its contract's schema accepted: the one widening to unknown.
  return { ...contract, handler: handler as CoreOperation['handler'] };
}
