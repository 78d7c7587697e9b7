/**
 * A model's answer for the assist features (order extraction, replies, descriptions): one JSON
 * object, checked against the feature's JSON schema before anything reads it. The model's output
 * is untrusted (it saw customer text): an answer off the schema is refused with 502 AI_BAD_ANSWER
 * and its problems by field, and nothing is written.
 */
import type { HandlerContext } from '../../../../sdk';
import { aiErrors } from '../errors';
import { schemaErrors, type JsonSchema } from '../graph/json-schema';
import { chat, type ChatResult } from '../llm';
import { modelJson } from '../translate/model-json';

export interface JsonAsk {
  feature: string;
  system: string;
  /** The untrusted text (customer message, conversation, product record), sent as the user turn. */
  user: string;
  schema: JsonSchema;
  temperature: number;
  max_tokens: number;
}

export async function askSchema<T>(ctx: HandlerContext, ask: JsonAsk): Promise<{ answer: T; result: ChatResult }> {
  const result = await chat(ctx, {
    feature: ask.feature,
    json: true,
    temperature: ask.temperature,
    max_tokens: ask.max_tokens,
    messages: [
      { role: 'system', content: `${ask.system}\nAnswer with one JSON object only, following this JSON schema: ${JSON.stringify(ask.schema)}` },
      { role: 'user', content: ask.user },
    ],
  });
  const answer = modelJson(result.message.content);
  const errors = answer ? schemaErrors(ask.schema, answer, 'answer') : { answer: ['must be a JSON object'] };
  if (errors) {
    throw aiErrors.badAnswer(`The model of provider ${result.provider} answered outside the expected schema.`, { provider: result.provider, errors });
  }
  return { answer: answer as T, result };
}

/** What a feature reports about the model call. */
export const modelOf = (r: ChatResult) => ({ provider: r.provider, model: r.model, usage: { input_tokens: r.usage.input_tokens, output_tokens: r.usage.output_tokens } });

/** An operation of another module run as the user of this request (tools.call: the bus checks the user's permission). */
export const asUser = <T>(ctx: HandlerContext, name: string, input: unknown): Promise<T> => ctx.host.call<T>('tools.call', { name, input });
