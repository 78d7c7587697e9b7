/**
 * Text-to-speech through the json_base64 protocol, after Google Cloud Text-to-Speech:
 * POST {base_url}/v1/text:synthesize with `x-goog-api-key`, {input: {text}, voice: {languageCode,
 * name}, audioConfig: {audioEncoding}} → {audioContent: base64}. Formats map to encodings wav →
 * LINEAR16 (a WAV file), mp3 → MP3, opus → OGG_OPUS, flac → FLAC. The default provider first, the
 * fallback when it fails; duration_ms is read from the audio returned, which must be the format
 * asked for.
 */
import type { HandlerContext } from '../../../../sdk';
import { providersFailed } from '../errors';
import { scrub } from '../llm/vendor-error';
import { readSettings } from '../providers/settings';
import { fromBase64, toBase64 } from './base64';
import { durationMs, sniff } from './duration';
import { presetOf, SPEECH_TIMEOUT_MS, speechChain, type SpeechConnection } from './store';
import { azure, elevenlabs, openaiSpeech, type Fetched, type SpeechRequest } from './tts-vendors';
import { errorReason } from './vendor-answer';

/** The vendors that answer audio bytes, by their preset's protocol (./tts-vendors.ts). */
const BYTE_VENDORS = { openai_speech: openaiSpeech, elevenlabs, azure_ssml: azure } as const;

export const TTS_FORMATS = ['wav', 'mp3', 'opus', 'flac'] as const;
export type TtsFormat = (typeof TTS_FORMATS)[number];
const ENCODING: Record<TtsFormat, string> = { wav: 'LINEAR16', mp3: 'MP3', opus: 'OGG_OPUS', flac: 'FLAC' };

export interface Synthesis {
  audio_data: string;
  format: TtsFormat;
  duration_ms: number;
  provider: string;
  voice_id: string;
}

/** The voice to use: the one asked for, else the tenant's default voice, else the provider's first. */
async function voiceFor(ctx: HandlerContext, conn: SpeechConnection, asked: string | undefined): Promise<string> {
  if (asked) return asked;
  const settings = await readSettings(ctx, 'tts');
  return settings.default_voice ?? presetOf('tts', conn.provider.preset)?.voices?.[0]?.id ?? 'default';
}

/** "en-IN-Neural2-A" → "en-IN". */
const languageOf = (voice: string) => /^[a-z]{2,3}-[A-Z]{2}/.exec(voice)?.[0] ?? 'en-US';

/** Google's protocol: base64 audio inside JSON. */
async function google(ctx: HandlerContext, conn: SpeechConnection, { text, format, voice }: SpeechRequest): Promise<Fetched> {
  const url = `${conn.provider.base_url.replace(/\/+$/, '')}/v1/text:synthesize`;
  const body = { input: { text }, voice: { languageCode: languageOf(voice), name: voice }, audioConfig: { audioEncoding: ENCODING[format] }, model: conn.model };
  let res;
  try {
    res = await ctx.host.fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-goog-api-key': conn.api_key }, body: JSON.stringify(body), timeout_ms: SPEECH_TIMEOUT_MS });
  } catch (err) {
    return { ok: false, reason: scrub((err as Error).message, conn.api_key) };
  }
  if (res.status >= 400) return { ok: false, reason: errorReason(res.status, res.body, conn.api_key) };
  let content: unknown;
  try {
    content = (JSON.parse(res.body) as { audioContent?: unknown }).audioContent;
  } catch {
    return { ok: false, reason: 'unreadable answer: not JSON' };
  }
  const bytes = typeof content === 'string' ? fromBase64(content) : null;
  if (!bytes || bytes.length === 0) return { ok: false, reason: 'unreadable answer: no base64 audioContent' };
  return { ok: true, bytes };
}

async function once(ctx: HandlerContext, conn: SpeechConnection, text: string, format: TtsFormat, voice: string): Promise<{ ok: true; audio: string; duration: number } | { ok: false; reason: string }> {
  const protocol = presetOf('tts', conn.provider.preset)?.protocol;
  const vendor = protocol && protocol in BYTE_VENDORS ? BYTE_VENDORS[protocol as keyof typeof BYTE_VENDORS] : google;
  const got = await vendor(ctx, conn, { text, format, voice });
  if (!got.ok) return got;
  const bytes = got.bytes;
  if (bytes.length === 0) return { ok: false, reason: 'unreadable answer: no audio' };
  const found = sniff(bytes);
  if (found !== format) return { ok: false, reason: `the audio is ${found ?? 'of an unknown format'}, not ${format}` };
  const duration = durationMs(found, bytes, bytes, bytes.length);
  if (duration === null) return { ok: false, reason: `the ${format} audio does not say how long it is` };
  return { ok: true, audio: toBase64(bytes), duration };
}

export async function synthesize(ctx: HandlerContext, text: string, format: TtsFormat, voiceId?: string): Promise<Synthesis> {
  const { usable, skipped } = await speechChain(ctx, 'tts');
  const failures = [...skipped];
  for (const conn of usable) {
    const voice = await voiceFor(ctx, conn, voiceId);
    const result = await once(ctx, conn, text, format, voice);
    if (result.ok) return { audio_data: result.audio, format, duration_ms: result.duration, provider: conn.provider.id, voice_id: voice };
    failures.push({ provider: conn.provider.id, reason: result.reason });
    ctx.host.log.warn('TTS provider failed', { provider: conn.provider.id, reason: result.reason });
  }
  throw providersFailed(failures);
}

/** Sentences grouped into pieces of at most `max` characters (a longer sentence is cut at spaces). */
export function segments(text: string, max = 400): string[] {
  const sentences = text.match(/[^.!?।\n]+[.!?।]*\s*|\n+/g) ?? [text];
  const out: string[] = [];
  let current = '';
  for (const s of sentences) {
    if ((current + s).length > max && current.trim()) {
      out.push(current.trim());
      current = '';
    }
    current += s;
    while (current.length > max) {
      const cut = current.lastIndexOf(' ', max) > 0 ? current.lastIndexOf(' ', max) : max;
      out.push(current.slice(0, cut).trim());
      current = current.slice(cut);
    }
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
