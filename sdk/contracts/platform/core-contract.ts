/**
 * Core operations (DESIGN.md, Bus: operations the host itself serves, such as notifications.send),
 * each declared once here as plain data with TypeBox schemas (which are JSON Schema): the host
 * registers its handler against it (core/kernel/bus/core-operation.ts) and validates calls by its schemas,
 * and the SDK's runtime wrappers (sdk/runtime/secrets.ts, jobs.ts, …) take their argument and result
 * types from it with `import type`, so no schema builder reaches a module's bundle.
 */
import type { Static, TSchema } from '@sinclair/typebox/type';

export interface CoreContract<I extends TSchema = TSchema, O extends TSchema | undefined = TSchema | undefined> {
  name: string;
  description: string;
  input: I;
  /** Absent: the bus checks nothing of the answer. */
  output?: O;
  /** Needed by edge callers acting for a user (GraphQL, workflows, AI tools). */
  permission?: string;
  /** Any module may call it without listing it in api.consumes (spec 1: sending a notification). */
  public?: boolean;
}

export function coreContract<I extends TSchema, O extends TSchema | undefined = undefined>(contract: CoreContract<I, O>): CoreContract<I, O> {
  return contract;
}

/** What a caller passes. */
export type CoreInput<C extends CoreContract> = Static<C['input']>;

/** What the operation answers; unknown when the contract declares no output. */
export type CoreOutput<C extends CoreContract> = [Exclude<C['output'], undefined>] extends [never] ? unknown : Static<Exclude<C['output'], undefined>>;
