/**
 * Settings by key (model Setting), each with its defaults: what GET answers before any PUT.
 *   llm          {default_provider, fallback_provider, tracking: {enabled}, timeout_ms}  (General settings)
 *   stt          {default_provider, fallback_provider}                           (STT settings)
 *   tts          {default_provider, fallback_provider, default_voice}            (TTS settings)
 *   translation  {provider_id, model}                                            (Translation settings)
 *   auto_response {enabled, business_hours, answer, message}                     (README, Assist: out-of-hours answer)
 */
import type { HandlerContext } from '../../../../sdk';
import { forgetConfig } from '../config-cache';

export interface LlmSettings {
  default_provider: string | null;
  fallback_provider: string | null;
  tracking: { enabled: boolean };
  /** How long one provider may take before the fallback is asked (two tries fit the module's 60 s). */
  timeout_ms: number;
}
export interface SpeechSettings {
  default_provider: string | null;
  fallback_provider: string | null;
}
export interface TtsSettings extends SpeechSettings {
  default_voice: string | null;
}
export interface TranslationSettings {
  provider_id: string | null;
  model: string | null;
}

export interface AutoResponseSettings {
  enabled: boolean;
  /** Spec 2's business hours object, checked by live chat (live_chat.business_hours_status). */
  business_hours: ({ timezone: string } & Record<string, unknown>) | null;
  /** `message`: the message as written; `ai`: the model answers the visitor's first message (the message when it cannot). */
  answer: 'message' | 'ai';
  message: string;
}

interface SettingsByKey {
  llm: LlmSettings;
  stt: SpeechSettings;
  tts: TtsSettings;
  translation: TranslationSettings;
  auto_response: AutoResponseSettings;
}

const DEFAULTS: SettingsByKey = {
  llm: { default_provider: null, fallback_provider: null, tracking: { enabled: true }, timeout_ms: 20_000 },
  stt: { default_provider: null, fallback_provider: null },
  tts: { default_provider: null, fallback_provider: null, default_voice: null },
  translation: { provider_id: null, model: null },
  auto_response: { enabled: false, business_hours: null, answer: 'message', message: 'Thanks for your message! We are closed right now and will answer as soon as we are back.' },
};

export async function readSettings<K extends keyof SettingsByKey>(ctx: HandlerContext, key: K): Promise<SettingsByKey[K]> {
  const row = await ctx.host.db.findOne<{ key: string; value: Partial<SettingsByKey[K]> }>('Setting', { where: { key } });
  return { ...DEFAULTS[key], ...(row?.value ?? {}) };
}

/** Merges `change` into the stored settings and answers the result. */
export async function writeSettings<K extends keyof SettingsByKey>(ctx: HandlerContext, key: K, change: Partial<SettingsByKey[K]>): Promise<SettingsByKey[K]> {
  const value = { ...(await readSettings(ctx, key)), ...change };
  await ctx.host.db.upsert('Setting', { key, value, updated_at: new Date(ctx.host.now()).toISOString() });
  forgetConfig();
  return value;
}
