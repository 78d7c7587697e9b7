/**
 * host.evaluate(expression, inputs): an expression run in a context of its own in the module's
 * isolate, made for it and thrown away after it (sandbox/README.md, The guest contract). The context
 * holds the language's built-ins and nothing else: no `host`, none of the module's globals, no
 * other tenant's, no earlier evaluation's; the inputs cross as JSON text and the value comes back
 * as JSON text. It shares the isolate, so the module's memory limit applies, and the call's
 * remaining time bounds it (Generation.evaluate). Guest code can break the context's evaluator, so
 * its answer is checked like any guest message.
 */
import type ivm from 'isolated-vm';
import { SandboxError } from './errors';
import { Status, type Evaluate, type WireError } from './protocol';

/** A checked request: the expression and its inputs as a JSON object's text. */
export interface Evaluation {
  expression: string;
  inputs: string;
}

/** Input names become the parameters of the expression's function: plain identifiers only. */
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const MAX_INPUTS = 256;

const invalid = (message: string) => new SandboxError('INVALID_REQUEST', message);

/** The guest's `[expression, inputs]`, checked. */
export function evaluationRequest(payload: unknown): Evaluation {
  if (!Array.isArray(payload) || typeof payload[0] !== 'string' || payload[0].trim() === '') {
    throw invalid('host.evaluate(expression, inputs) needs an expression');
  }
  const inputs: unknown = payload[1] ?? {};
  if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs)) throw invalid('host.evaluate inputs must be an object of named values');
  const names = Object.keys(inputs);
  if (names.length > MAX_INPUTS) throw invalid(`host.evaluate takes at most ${MAX_INPUTS} inputs`);
  const bad = names.find((n) => !IDENTIFIER.test(n));
  if (bad !== undefined) throw invalid(`host.evaluate input name ${JSON.stringify(bad)} is not an identifier`);
  return { expression: payload[0], inputs: JSON.stringify(inputs) };
}

/** Runs one evaluation in a new context; isolated-vm's own failures (time, memory, disposal) are thrown as they are. */
export async function runInOwnContext(isolate: ivm.Isolate, evaluator: ivm.Script, req: Evaluation, maxOutput: number, timeout: number): Promise<unknown> {
  const context = await isolate.createContext();
  let evaluate: ivm.Reference<Evaluate> | undefined;
  try {
    evaluate = (await evaluator.run(context, { reference: true, timeout })) as ivm.Reference<Evaluate>;
    return await evaluate.apply(undefined, [req.expression, req.inputs, maxOutput], { timeout });
  } finally {
    try {
      evaluate?.release();
      context.release();
    } catch {
      // Gone with its isolate.
    }
  }
}

/** The evaluator's answer (protocol.ts, `Evaluate`) as the value for the guest, or the error it is. */
export function evaluationAnswer(answer: unknown, maxOutput: number): unknown {
  let parsed: unknown;
  try {
    parsed = typeof answer === 'string' && answer.length <= maxOutput + 64 ? JSON.parse(answer) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed)) throw new SandboxError('EVALUATION_ERROR', 'the expression left no readable answer');
  switch (parsed[0]) {
    case Status.ok:
      return parsed[1];
    case Status.undefined:
      return undefined;
    case Status.tooLarge:
      throw new SandboxError('OUTPUT_TOO_LARGE', `the expression's value is at least ${String(parsed[1])} characters of JSON, over the limit of ${maxOutput}`, { limit: maxOutput });
    default: {
      const e = (parsed[1] ?? {}) as WireError;
      const name = typeof e.name === 'string' ? e.name : 'Error';
      const message = typeof e.message === 'string' ? e.message : 'the expression failed';
      throw new SandboxError('EVALUATION_ERROR', `${name}: ${message}`, { name });
    }
  }
}
