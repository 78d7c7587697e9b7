/**
 * Text-to-speech vendors that answer audio bytes (host.fetch `response: 'bytes'`), beside the
 * json_base64 protocol of ./tts.ts:
 * - `openai_speech` (OpenAI TTS): POST {base_url}/audio/speech, `Authorization: Bearer`, JSON
 *   {model, input, voice, response_format: wav|mp3|opus|flac} → the audio.
 * - `elevenlabs`: POST {base_url}/text-to-speech/{voice}?output_format=…, `xi-api-key`, JSON {text,
 *   model_id} → the audio: mp3_44100_128, opus_48000_64, or for wav pcm_16000 (raw samples) put in
 *   a WAV file here; no flac.
 * - `azure_ssml` (Azure AI Speech REST): POST {base_url}/cognitiveservices/v1,
 *   `Ocp-Apim-Subscription-Key`, SSML in (`application/ssml+xml`, the voice and its language),
 *   `X-Microsoft-OutputFormat` riff-24khz-16bit-mono-pcm (a WAV file), audio-24khz-96kbitrate-mono-mp3
 *   or ogg-24khz-16bit-mono-opus → the audio; no flac.
 * A format the vendor cannot make is a provider failure, so the fallback answers.
 */
import type { HandlerContext } from '../../../../sdk';
import { scrub } from '../llm/vendor-error';
import { wavOf } from './pcm';
import { SPEECH_TIMEOUT_MS, type SpeechConnection } from './store';
import type { TtsFormat } from './tts';
import { errorReason } from './vendor-answer';

export type Fetched = { ok: true; bytes: Uint8Array } | { ok: false; reason: string };

export interface SpeechRequest {
  text: string;
  format: TtsFormat;
  voice: string;
}

const base = (conn: SpeechConnection) => conn.provider.base_url.replace(/\/+$/, '');

async function audioFrom(ctx: HandlerContext, conn: SpeechConnection, url: string, headers: Record<string, string>, body: string): Promise<Fetched> {
  let res;
  try {
    res = await ctx.host.fetch(url, { method: 'POST', headers, body, response: 'bytes', timeout_ms: SPEECH_TIMEOUT_MS });
  } catch (err) {
    return { ok: false, reason: scrub((err as Error).message, conn.api_key) };
  }
  if (res.status >= 400) return { ok: false, reason: errorReason(res.status, res.body, conn.api_key) };
  return { ok: true, bytes: res.bytes };
}

const cannot = (vendor: string, format: TtsFormat): Fetched => ({ ok: false, reason: `${vendor} does not make ${format} audio` });

export function openaiSpeech(ctx: HandlerContext, conn: SpeechConnection, r: SpeechRequest): Promise<Fetched> {
  const body = JSON.stringify({ model: conn.model, input: r.text, voice: r.voice, response_format: r.format });
  return audioFrom(ctx, conn, `${base(conn)}/audio/speech`, { authorization: `Bearer ${conn.api_key}`, 'content-type': 'application/json' }, body);
}

const ELEVENLABS_FORMAT: Partial<Record<TtsFormat, string>> = { mp3: 'mp3_44100_128', opus: 'opus_48000_64', wav: 'pcm_16000' };

export async function elevenlabs(ctx: HandlerContext, conn: SpeechConnection, r: SpeechRequest): Promise<Fetched> {
  const output = ELEVENLABS_FORMAT[r.format];
  if (!output) return cannot('ElevenLabs', r.format);
  const url = `${base(conn)}/text-to-speech/${encodeURIComponent(r.voice)}?output_format=${output}`;
  const got = await audioFrom(ctx, conn, url, { 'xi-api-key': conn.api_key, 'content-type': 'application/json', accept: 'audio/*' }, JSON.stringify({ text: r.text, model_id: conn.model }));
  if (!got.ok || r.format !== 'wav') return got;
  // pcm_16000 is bare 16-bit little-endian samples at 16 kHz, mono.
  const even = got.bytes.byteLength & ~1;
  const samples = new Int16Array(got.bytes.buffer.slice(got.bytes.byteOffset, got.bytes.byteOffset + even));
  return { ok: true, bytes: wavOf(samples) };
}

const AZURE_FORMAT: Partial<Record<TtsFormat, string>> = { wav: 'riff-24khz-16bit-mono-pcm', mp3: 'audio-24khz-96kbitrate-mono-mp3', opus: 'ogg-24khz-16bit-mono-opus' };

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

export function azure(ctx: HandlerContext, conn: SpeechConnection, r: SpeechRequest): Promise<Fetched> {
  const output = AZURE_FORMAT[r.format];
  if (!output) return Promise.resolve(cannot('Azure AI Speech', r.format));
  const language = /^[a-z]{2,3}-[A-Z]{2}/.exec(r.voice)?.[0] ?? 'en-US';
  const ssml = `<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="${xml(language)}"><voice name="${xml(r.voice)}">${xml(r.text)}</voice></speak>`;
  const headers = { 'ocp-apim-subscription-key': conn.api_key, 'content-type': 'application/ssml+xml', 'x-microsoft-outputformat': output, 'user-agent': 'mandi-ai' };
  return audioFrom(ctx, conn, `${base(conn)}/cognitiveservices/v1`, headers, ssml);
}
