/**
 * Translation and detection through the configured language model (spec 2, Endpoints AI:
 * Translation): temperature 0.1, the translation settings' provider (else the default, with the
 * tenant's fallback either way) and model override; the model answers JSON, parsed here.
 */
import type { HandlerContext } from '../../../../sdk';
import { badModelAnswer } from '../errors';
import { chat, type ChatResult } from '../llm';
import { readSettings } from '../providers/settings';
import { languageName } from './languages';
import { mask, unmask } from './protect';
import { modelJson } from './model-json';

export const TEMPERATURE = 0.1;
const CODE = /^[a-z]{2}$/;

async function ask(ctx: HandlerContext, system: string, user: string): Promise<ChatResult> {
  const settings = await readSettings(ctx, 'translation');
  return chat(ctx, {
    feature: 'translation',
    messages: [{ role: 'system', content: system }, { role: 'user', content: user }],
    temperature: TEMPERATURE,
    json: true,
    provider_id: settings.provider_id,
    ...(settings.model ? { model: settings.model } : {}),
  });
}

export function translationPrompt(target: string, source: string | undefined): string {
  const from = source ? `from ${languageName(source)} (${source})` : 'from the language it is written in';
  return [
    `You are a professional translator. Translate the user's text ${from} into ${languageName(target)} (ISO 639-1 "${target}").`,
    'Preserve exactly, without translating or changing them: order numbers and codes (e.g. ORD-000123), URLs, e-mail addresses, brand and product names, numbers and amounts, and markers such as ⟦1⟧.',
    'Keep the formatting: line breaks, lists, markdown and HTML tags stay where they are.',
    'Answer with JSON only: {"translated_text": "<the translation>", "source_language": "<ISO 639-1 code of the original>"}.',
  ].join('\n');
}

export async function translate(ctx: HandlerContext, text: string, target: string, source?: string) {
  const masked = mask(text);
  const result = await ask(ctx, translationPrompt(target, source), masked.text);
  const answer = modelJson(result.message.content);
  if (!answer || typeof answer.translated_text !== 'string') throw badModelAnswer(result.provider, 'expected JSON with translated_text');
  const translated = unmask(answer.translated_text, masked.tokens);
  if (translated === null) throw badModelAnswer(result.provider, 'the translation lost a protected part of the text (an order number, URL or placeholder)');
  const detected = typeof answer.source_language === 'string' && CODE.test(answer.source_language.toLowerCase()) ? answer.source_language.toLowerCase() : null;
  return {
    translated_text: translated,
    source_language: source ?? detected ?? 'und',
    target_language: target,
    provider: result.provider,
    model: result.model,
    usage: { input_tokens: result.usage.input_tokens, output_tokens: result.usage.output_tokens },
  };
}

export const DETECT_PROMPT = [
  'Identify the language of the user\'s text.',
  'Answer with JSON only: {"language": "<ISO 639-1 code>", "confidence": <a number from 0 to 1>}.',
].join('\n');

export async function detect(ctx: HandlerContext, text: string) {
  const result = await ask(ctx, DETECT_PROMPT, text);
  const answer = modelJson(result.message.content);
  const code = typeof answer?.language === 'string' ? answer.language.toLowerCase() : '';
  let confidence = typeof answer?.confidence === 'number' ? answer.confidence : Number.NaN;
  // A model that answers in percent (87) meant 0.87.
  if (confidence > 1 && confidence <= 100) confidence /= 100;
  if (!CODE.test(code) || !(confidence >= 0 && confidence <= 1)) throw badModelAnswer(result.provider, 'expected JSON with an ISO 639-1 language and a confidence from 0 to 1');
  return { language: code, language_name: languageName(code), confidence };
}
