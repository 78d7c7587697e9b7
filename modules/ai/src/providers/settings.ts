/**
 * Settings by key (model Setting), each with its defaults: what GET answers before any PUT.
 *   llm          {default_provider, fallback_provider, tracking: {enabled}, timeout_ms}  (General settings)
 *   stt          {default_provider, fallback_provider}                           (STT settings)
 *   tts          {default_provider, fallback_provider, default_voice}            (TTS settings)
 *   translation  {provider_id, model}                                            (Translation settings)
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

interface SettingsByKey {
  llm: LlmSettings;
  stt: SpeechSettings;
  tts: TtsSettings;
  translation: TranslationSettings;
}

const DEFAULTS: SettingsByKey = {
  llm: { default_provider: null, fallback_provider: null, tracking: { enabled: true }, timeout_ms: 20_000 },
  stt: { default_provider: null, fallback_provider: null },
  tts: { default_provider: null, fallback_provider: null, default_voice: null },
  translation: { provider_id: null, model: null },
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
