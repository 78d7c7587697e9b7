/**
 * What the flows' nodes share: tool nodes call orders through `tools.call` as the user who started
 * the run (caller edge `ai`, with that user's permissions as they are now, through the run's acting
 * grant), bounded by the permissions of whoever resumed it last (their grant as `bound_by`); agent
 * nodes ask the tenant's language model for a JSON object at temperature 0.1 (spec 2: graph flows
 * need a language-model provider).
 */
import type { HandlerContext } from '../../../../../sdk';
import { aiErrors } from '../../errors';
import { chat } from '../../llm';
import type { Json, NodeOutcome, RunView } from '../engine';

export const callTool = <T>(ctx: HandlerContext, run: RunView, name: string, input: unknown): Promise<T> =>
  ctx.host.call<T>('tools.call', { name, input, ...(run.grant ? { grant: run.grant } : {}), ...(run.bound ? { bound_by: run.bound } : {}) });

/** One model call answering a JSON object; the outcome carries its usage. */
export async function askJson(ctx: HandlerContext, system: string, facts: Json): Promise<{ answer: Json; usage: NonNullable<NodeOutcome['usage']> }> {
  const result = await chat(ctx, {
    feature: 'graph',
    json: true,
    temperature: 0.1,
    messages: [
      { role: 'system', content: `${system} Answer with one JSON object only.` },
      { role: 'user', content: JSON.stringify(facts) },
    ],
  });
  let answer: unknown;
  try {
    answer = JSON.parse((result.message.content ?? '').trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    answer = undefined;
  }
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    throw aiErrors.badAnswer(`The model (${result.provider}, ${result.model}) did not answer a JSON object.`, { provider: result.provider });
  }
  return { answer: answer as Json, usage: { total_tokens: result.usage.total_tokens, cost: result.usage.cost } };
}

/** A number the model gave as 0–1 or as a percentage, as 0–1; NaN when it gave none. */
export function fraction(v: unknown): number {
  const n = typeof v === 'string' ? Number(v) : typeof v === 'number' ? v : NaN;
  return n > 1 ? n / 100 : n;
}

export function oneOf<T extends string>(v: unknown, values: readonly T[], what: string): T {
  const s = typeof v === 'string' ? v.toUpperCase() : '';
  if (!(values as readonly string[]).includes(s)) throw aiErrors.badAnswer(`The model answered ${JSON.stringify(v)} as ${what}; expected one of ${values.join(', ')}.`);
  return s as T;
}
