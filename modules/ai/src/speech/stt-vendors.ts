/**
 * Speech-to-text vendors whose audio travels as bytes (host.fetch binary bodies), beside the
 * json_base64 protocol of ./stt.ts:
 * - `openai_multipart` (OpenAI Whisper): POST {base_url}/audio/transcriptions, `Authorization:
 *   Bearer`, multipart `file` (the audio as it is), `model`, `language` (ISO 639-1, from the BCP-47
 *   tag), `response_format=json` → {text}.
 * - `deepgram_raw` (Deepgram): POST {base_url}/listen?model=…&language=…&smart_format=true,
 *   `Authorization: Token`, the audio as the raw body with its content type →
 *   {results: {channels: [{alternatives: [{transcript, confidence}]}]}}.
 * - `azure_short_audio` (Azure AI Speech, speech-to-text REST for short audio): POST
 *   {base_url}/speech/recognition/{model}/cognitiveservices/v1?language=…&format=simple (the model is
 *   the recognition mode: conversation, interactive, dictation), `Ocp-Apim-Subscription-Key`, the
 *   audio as the raw body: a WAV as `audio/wav; codecs=audio/pcm; samplerate=16000` (PCM16 made 16 kHz
 *   mono, the one WAV that API takes), Ogg Opus as `audio/ogg; codecs=opus`, no other format →
 *   {RecognitionStatus, DisplayText}; `NoMatch` and `InitialSilenceTimeout` are no speech (empty text),
 *   any other status a failure.
 */
import type { HandlerContext } from '../../../../sdk';
import { scrub } from '../llm/vendor-error';
import type { AudioFormat } from './duration';
import { TARGET_RATE, readWav, toMono16k, wavOf } from './pcm';
import { SPEECH_TIMEOUT_MS, type SpeechConnection } from './store';
import { errorReason } from './vendor-answer';

export type Recognized = { ok: true; text: string; confidence: number | null } | { ok: false; reason: string };

export interface RawAudio {
  bytes: Uint8Array;
  format: AudioFormat;
  /** BCP-47, e.g. en-IN. */
  language: string;
}

const MIME: Record<AudioFormat, string> = { wav: 'audio/wav', flac: 'audio/flac', opus: 'audio/ogg', ogg: 'audio/ogg', webm: 'audio/webm', mp3: 'audio/mpeg', m4a: 'audio/mp4', mp4: 'audio/mp4' };

const base = (conn: SpeechConnection) => conn.provider.base_url.replace(/\/+$/, '');

async function post(ctx: HandlerContext, conn: SpeechConnection, url: string, init: { headers: Record<string, string>; body: Uint8Array | { multipart: Array<{ name: string; value: string | { bytes: Uint8Array; filename: string; content_type: string } }> } }, read: (answer: unknown) => Recognized): Promise<Recognized> {
  let res;
  try {
    res = await ctx.host.fetch(url, { method: 'POST', ...init, timeout_ms: SPEECH_TIMEOUT_MS });
  } catch (err) {
    return { ok: false, reason: scrub((err as Error).message, conn.api_key) };
  }
  if (res.status >= 400) return { ok: false, reason: errorReason(res.status, res.body, conn.api_key) };
  let answer: unknown;
  try {
    answer = JSON.parse(res.body);
  } catch {
    return { ok: false, reason: 'unreadable answer: not JSON' };
  }
  return read(answer);
}

export function whisper(ctx: HandlerContext, conn: SpeechConnection, audio: RawAudio): Promise<Recognized> {
  const file = { bytes: audio.bytes, filename: `audio.${audio.format === 'opus' ? 'ogg' : audio.format}`, content_type: MIME[audio.format] };
  const multipart = [
    { name: 'file', value: file },
    { name: 'model', value: conn.model },
    { name: 'language', value: audio.language.split('-')[0].toLowerCase() },
    { name: 'response_format', value: 'json' },
  ];
  return post(ctx, conn, `${base(conn)}/audio/transcriptions`, { headers: { authorization: `Bearer ${conn.api_key}` }, body: { multipart } }, (answer) => {
    const text = (answer as { text?: unknown }).text;
    return typeof text === 'string' ? { ok: true, text: text.trim(), confidence: null } : { ok: false, reason: 'unreadable answer: no text' };
  });
}

export function deepgram(ctx: HandlerContext, conn: SpeechConnection, audio: RawAudio): Promise<Recognized> {
  // The isolate has no URLSearchParams.
  const query = `model=${encodeURIComponent(conn.model)}&language=${encodeURIComponent(audio.language)}&smart_format=true`;
  return post(ctx, conn, `${base(conn)}/listen?${query}`, { headers: { authorization: `Token ${conn.api_key}`, 'content-type': MIME[audio.format] }, body: audio.bytes }, (answer) => {
    const best = (answer as { results?: { channels?: Array<{ alternatives?: Array<{ transcript?: unknown; confidence?: unknown }> }> } }).results?.channels?.[0]?.alternatives?.[0];
    if (!best || typeof best.transcript !== 'string') return { ok: false, reason: 'unreadable answer: no transcript' };
    return { ok: true, text: best.transcript.trim(), confidence: typeof best.confidence === 'number' ? best.confidence : null };
  });
}

/** The audio as Azure's short-audio API takes it, or why it cannot. */
function azureAudio(audio: RawAudio): { bytes: Uint8Array; type: string } | { reason: string } {
  if (audio.format === 'opus' || audio.format === 'ogg') return { bytes: audio.bytes, type: 'audio/ogg; codecs=opus' };
  if (audio.format !== 'wav') return { reason: `Azure speech-to-text for short audio takes WAV or Ogg Opus, not ${audio.format}` };
  const pcm = readWav(audio.bytes);
  const mono = pcm && toMono16k(pcm);
  if (!mono) return { reason: 'Azure speech-to-text for short audio takes 16-bit PCM WAV only' };
  return { bytes: wavOf(mono), type: `audio/wav; codecs=audio/pcm; samplerate=${TARGET_RATE}` };
}

const AZURE_NO_SPEECH = ['NoMatch', 'InitialSilenceTimeout'];

export function azure(ctx: HandlerContext, conn: SpeechConnection, audio: RawAudio): Promise<Recognized> {
  const sent = azureAudio(audio);
  if ('reason' in sent) return Promise.resolve({ ok: false, reason: sent.reason });
  const url = `${base(conn)}/speech/recognition/${encodeURIComponent(conn.model)}/cognitiveservices/v1?language=${encodeURIComponent(audio.language)}&format=simple`;
  return post(ctx, conn, url, { headers: { 'ocp-apim-subscription-key': conn.api_key, 'content-type': sent.type, accept: 'application/json' }, body: sent.bytes }, (answer) => {
    const { RecognitionStatus: status, DisplayText: text } = answer as { RecognitionStatus?: unknown; DisplayText?: unknown };
    if (status === 'Success' && typeof text === 'string') return { ok: true, text: text.trim(), confidence: null };
    if (typeof status === 'string' && AZURE_NO_SPEECH.includes(status)) return { ok: true, text: '', confidence: null };
    return { ok: false, reason: typeof status === 'string' ? `recognition status ${status}` : 'unreadable answer: no RecognitionStatus' };
  });
}
