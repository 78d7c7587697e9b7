/**
 * defineModule: returns its argument unchanged. It exists for the types: handlers get their context
 * typed without annotations, and the result keeps each handler's own input and output types.
 */
import type { ModuleDefinition, OperationHandler } from './runtime/context';

export function defineModule<const D extends ModuleDefinition>(definition: D): D {
  return definition;
}

/** Types one handler's input and output where the surrounding object cannot (e.g. shared helpers). */
export function operation<I, O>(handler: OperationHandler<I, O>): OperationHandler<I, O> {
  return handler;
}

/** Input type of a handler, e.g. `OperationInput<typeof mod.operations.get>`. */
export type OperationInput<H> = H extends OperationHandler<infer I, unknown> ? I : never;

/** Output type of a handler, promises unwrapped. */
export type OperationOutput<H> = H extends (...args: never[]) => infer R ? Awaited<R> : never;
