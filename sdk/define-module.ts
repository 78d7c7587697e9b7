/**
 * defineModule and operation: how a module declares what it offers, beside the code that does it.
 *
 * `defineModule({name, version, ..., operations: {get: operation({input, output, handler, ...})}})`
 * is the declared form: `mandi module build` writes module.json from it, and the bundle exports the
 * handlers for the sandbox. `defineModule({operations: {get(input, ctx) {...}}})` (handlers only)
 * still serves a module that ships a hand-written module.json.
 */
import type { TSchema } from '@sinclair/typebox/type';
import type { ModuleDefinition, OperationHandler } from './runtime/context';
import type {
  AnyDeclaredOperation,
  DeclaredModule,
  DeclaredOperation,
  ModuleDeclaration,
  OperationDeclaration,
} from './runtime/declaration';

export function defineModule<const Ops extends Record<string, AnyDeclaredOperation>>(declaration: ModuleDeclaration<Ops>): DeclaredModule<Ops>;
export function defineModule<const D extends ModuleDefinition>(definition: D): D;
export function defineModule(value: ModuleDefinition | ModuleDeclaration<Record<string, AnyDeclaredOperation>>) {
  if (!isDeclaration(value)) return value;
  const operations: Record<string, OperationHandler> = {};
  for (const [method, op] of Object.entries(value.operations)) operations[method] = op.handler;
  return { operations, events: { ...value.events?.subscribes }, declaration: value };
}

/**
 * Declares one operation; its handler's input and output types are inferred from `input` and
 * `output`. (Given a bare handler, it only types that handler, for modules with a hand-written
 * module.json.)
 */
export function operation<I extends TSchema, O extends TSchema>(declaration: OperationDeclaration<I, O>): DeclaredOperation<I, O>;
export function operation<I, O>(handler: OperationHandler<I, O>): OperationHandler<I, O>;
export function operation(value: unknown) {
  return value;
}

function isDeclaration(value: object): value is ModuleDeclaration<Record<string, AnyDeclaredOperation>> {
  return typeof (value as { name?: unknown }).name === 'string';
}

/** Input type of a handler, e.g. `OperationInput<typeof mod.operations.get>`. */
export type OperationInput<H> = H extends OperationHandler<infer I, unknown> ? I : never;

/** Output type of a handler, promises unwrapped. */
export type OperationOutput<H> = H extends (...args: never[]) => infer R ? Awaited<R> : never;
