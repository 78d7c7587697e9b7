/**
 * The evaluator: run first in a context made for one host.evaluate (sandbox/evaluation.ts), where
 * nothing but the language's built-ins exists, and thrown away after it. Its value is `evaluate`
 * (protocol.ts, `Evaluate`): the expression becomes a strict function of the inputs' names, called
 * with their values, and its value leaves as measured JSON (wire-json.ts). The expression may
 * rewrite anything in this context; that only changes its own answer, which the host checks like
 * any guest message.
 */
import { Status, type Evaluate } from '../protocol';
import { apply, FunctionCtor, keysOf, parse } from './intrinsics';
import { removeEscapes } from './escapes';
import { errorJson, measured, measuredSize, overLimit } from './wire-json';

removeEscapes();

export const evaluate: Evaluate = (expression, inputs, maxOutput) => {
  let value;
  try {
    // Nothing of the expression has run yet: the built-ins used here are still the context's own.
    const given = parse(inputs) as Record<string, unknown>;
    const names = keysOf(given);
    const values: unknown[] = [];
    for (let i = 0; i < names.length; i++) values[i] = given[names[i]];
    const fn = new FunctionCtor(...names, '"use strict";\nreturn (' + expression + '\n);');
    value = apply(fn, undefined, values);
  } catch (e) {
    return '[' + Status.error + ',' + errorJson(e, maxOutput) + ']';
  }
  let json;
  try {
    json = measured(value, maxOutput);
  } catch (e) {
    return '[' + Status.error + ',' + errorJson(e, maxOutput, 'the result is not JSON-serialisable: ') + ']';
  }
  if (json === overLimit) return '[' + Status.tooLarge + ',' + measuredSize + ']';
  if (typeof json !== 'string') return '[' + Status.undefined + ']';
  if (json.length > maxOutput) return '[' + Status.tooLarge + ',' + json.length + ']';
  return '[' + Status.ok + ',' + json + ']';
};
