/** Speech providers (speech-to-text and text-to-speech), each made from a preset. */
import type { HandlerContext } from '../../../../sdk';
import { notConfigured, notFound } from '../errors';
import { apiKeyOf } from '../providers/credentials';
import { STT_PRESETS, TTS_PRESETS, type SpeechPreset } from '../providers/presets';
import { readSettings } from '../providers/settings';

export type SpeechKind = 'stt' | 'tts';

/** One speech provider's time before the fallback is asked: two tries fit the module's 60 s. */
export const SPEECH_TIMEOUT_MS = 25_000;

export interface SpeechProviderRow {
  id: string;
  kind: SpeechKind;
  preset: string;
  name: string;
  base_url: string;
  model: string | null;
  key_hint: string | null;
  key_set_at: string | null;
  created_at: string;
}

export const presetsOf = (kind: SpeechKind): SpeechPreset[] => (kind === 'stt' ? STT_PRESETS : TTS_PRESETS);
export const presetOf = (kind: SpeechKind, id: string) => presetsOf(kind).find((p) => p.id === id);

export async function findSpeechProvider(ctx: HandlerContext, kind: SpeechKind, id: string): Promise<SpeechProviderRow | null> {
  return ctx.host.db.findOne<SpeechProviderRow>('SpeechProvider', { where: { id, kind } });
}

export async function speechProvider(ctx: HandlerContext, kind: SpeechKind, id: string): Promise<SpeechProviderRow> {
  const row = await findSpeechProvider(ctx, kind, id);
  if (!row) throw notFound(kind === 'stt' ? 'Speech-to-text provider' : 'Text-to-speech provider', id);
  return row;
}

export function speechProviderView(row: SpeechProviderRow) {
  const preset = presetOf(row.kind, row.preset);
  return {
    id: row.id,
    preset: row.preset,
    name: row.name,
    base_url: row.base_url,
    models: preset?.models ?? [],
    model: row.model,
    has_credentials: row.key_set_at !== null,
    key_hint: row.key_hint,
    created_at: row.created_at,
  };
}

/** A provider ready to call. */
export interface SpeechConnection {
  provider: SpeechProviderRow;
  api_key: string;
  model: string;
}

/** The default provider then the fallback, each with its key; providers without a key are left out with a reason. */
export async function speechChain(ctx: HandlerContext, kind: SpeechKind): Promise<{ usable: SpeechConnection[]; skipped: Array<{ provider: string; reason: string }> }> {
  const settings = await readSettings(ctx, kind);
  const ids = [settings.default_provider, settings.fallback_provider].filter((id, i, all): id is string => !!id && all.indexOf(id) === i);
  if (ids.length === 0) throw notConfigured(`No ${kind === 'stt' ? 'speech-to-text' : 'text-to-speech'} provider is configured: add one from a preset (POST /ai/${kind}/providers), save its credentials and set it as default_provider (PUT /ai/${kind}/config).`);
  const usable: SpeechConnection[] = [];
  const skipped: Array<{ provider: string; reason: string }> = [];
  for (const id of ids) {
    const provider = await findSpeechProvider(ctx, kind, id);
    const key = provider ? await apiKeyOf(ctx, kind, id) : null;
    if (!provider) skipped.push({ provider: id, reason: 'the provider does not exist' });
    else if (!key) skipped.push({ provider: id, reason: `the provider has no credentials (PUT /ai/${kind}/providers/{id}/credentials)` });
    else usable.push({ provider, api_key: key, model: provider.model ?? presetOf(kind, provider.preset)?.models[0] ?? 'default' });
  }
  return { usable, skipped };
}
