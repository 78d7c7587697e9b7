/**
 * `host.call` typed by an operation map that `mandi module types <alias>` generated from the
 * consumed module's manifest: the operation name picks its input and output types, so a consumer
 * writes no copy of another module's types.
 *
 *   import type { OrdersOperations } from './generated/orders';
 *   const order = await typedCall<OrdersOperations>(ctx.host)('orders.get', { id });
 */
import type { Host } from './host';

/** Operation name → `{input, output}`; an interface such as the generated `OrdersOperations`. */
export type OperationMap<M> = { [N in keyof M]: { input: unknown; output: unknown } };

export type TypedCall<M extends OperationMap<M>> = <N extends keyof M & string>(operation: N, input: M[N]['input']) => Promise<M[N]['output']>;

export function typedCall<M extends OperationMap<M>>(host: Pick<Host, 'call'>): TypedCall<M> {
  return (operation, input) => host.call(operation, input);
}
