/**
 * Speech-to-text of an upload (spec 2, Limits: audio input at most 25 MB and 5 minutes, formats m4a,
 * mp3, wav, webm, ogg, flac, mp4, 16 kHz mono), through the json_base64 protocol after Google Cloud
 * Speech-to-Text: POST {base_url}/v1/speech:recognize with `x-goog-api-key`, {config: {encoding,
 * sampleRateHertz, audioChannelCount, languageCode, model}, audio: {content: base64}} →
 * {results: [{alternatives: [{transcript, confidence}]}]}. The host keeps the file (files.read_upload
 * hands it over in pieces); its format is read from its bytes, its duration from its container.
 * Up to 5 MB the audio is read into the module (WAV made 16 kHz mono) and sent inline; a larger
 * file, up to the spec's 25 MB, never crosses into the sandbox: the request names the upload in
 * host.fetch `body_parts` and the host splices its base64 into the JSON (34 MB would not fit one
 * crossing, nor the module's memory), a WAV then going with its own rate and channels.
 */
import type { HandlerContext } from '../../../../sdk';
import { aiErrors, invalid, providersFailed } from '../errors';
import { scrub } from '../llm/vendor-error';
import { fromBase64, toBase64 } from './base64';
import { durationMs, sniff, type AudioFormat } from './duration';
import { readWav, TARGET_RATE, toMono16k, wavOf } from './pcm';
import { presetOf, SPEECH_TIMEOUT_MS, speechChain, type SpeechConnection } from './store';
import { azure, deepgram, whisper, type RawAudio, type Recognized } from './stt-vendors';
import { errorReason } from './vendor-answer';
import type { SpeechProtocol } from '../providers/presets';

export const STT_FORMATS = ['m4a', 'mp3', 'wav', 'webm', 'ogg', 'flac', 'mp4'] as const;
export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;
export const MAX_AUDIO_MS = 5 * 60 * 1000;
export const MAX_INLINE_BYTES = 5 * 1024 * 1024;
const PIECE = 1024 * 1024;
const PROBE = 64 * 1024;

export interface UploadRef {
  id: string;
  filename: string;
  size: number;
  content_type: string;
}

/** What the spec lists a container as (Ogg Opus is "ogg"). */
const listedAs = (f: AudioFormat): (typeof STT_FORMATS)[number] => (f === 'opus' ? 'ogg' : f);
const ENCODING: Record<AudioFormat, string> = { wav: 'LINEAR16', flac: 'FLAC', opus: 'OGG_OPUS', ogg: 'OGG_OPUS', webm: 'WEBM_OPUS', mp3: 'MP3', m4a: 'MP4', mp4: 'MP4' };

async function read(ctx: HandlerContext, id: string, offset: number, length: number): Promise<Uint8Array> {
  const piece = await ctx.host.call<{ data: string }>('files.read_upload', { upload_id: id, offset, length });
  return fromBase64(piece.data) ?? new Uint8Array(0);
}

async function readAll(ctx: HandlerContext, upload: UploadRef): Promise<Uint8Array> {
  const out = new Uint8Array(upload.size);
  for (let offset = 0; offset < upload.size; offset += PIECE) out.set(await read(ctx, upload.id, offset, Math.min(PIECE, upload.size - offset)), offset);
  return out;
}

const unprocessable = aiErrors.audioRejected;

/** How long a recording may be: the spec's 5 minutes, or less for a caller with tighter limits (the voice assistant). */
export interface AudioLimits {
  max_bytes: number;
  max_ms: number;
}
/** The protocols whose audio is sent as bytes (./stt-vendors.ts); any other is json_base64. */
const BYTE_VENDORS: Partial<Record<SpeechProtocol, typeof whisper>> = { openai_multipart: whisper, deepgram_raw: deepgram, azure_short_audio: azure };
const SPEC_LIMITS: AudioLimits = { max_bytes: MAX_AUDIO_BYTES, max_ms: MAX_AUDIO_MS };
const seconds = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}` : `${ms / 1000} seconds`);

/** Checks the limits from the file's own bytes; answers its format and duration (null when the container does not say). */
export async function inspect(ctx: HandlerContext, upload: UploadRef, limits: AudioLimits = SPEC_LIMITS): Promise<{ format: AudioFormat; duration_ms: number | null }> {
  if (upload.size > limits.max_bytes) throw unprocessable('file', `The audio file is ${upload.size} bytes; the most is ${limits.max_bytes / (1024 * 1024)} MB.`, { max_bytes: limits.max_bytes });
  const head = await read(ctx, upload.id, 0, Math.min(PROBE, upload.size));
  const format = sniff(head);
  if (!format) throw unprocessable('file', `"${upload.filename}" is not audio in a supported format; send one of ${STT_FORMATS.join(', ')}.`, { formats: STT_FORMATS });
  const tail = upload.size > PROBE ? await read(ctx, upload.id, upload.size - PROBE, PROBE) : head;
  const duration = durationMs(format, head, tail, upload.size);
  if (duration !== null && duration > limits.max_ms) throw unprocessable('file', `The audio is ${Math.round(duration / 1000)} seconds long; the most is ${seconds(limits.max_ms)}.`, { duration_ms: duration, max_ms: limits.max_ms });
  return { format, duration_ms: duration };
}

/** The audio to send: bytes the module holds, or an upload the host reads into the request. */
type Audio = { bytes: Uint8Array } | { upload: string };

/** The request's JSON with the audio's base64 where `content` goes. */
function requestBody(config: Record<string, unknown>, audio: Audio): { body: string } | { body_parts: Array<string | { upload_base64: string }> } {
  if ('bytes' in audio) return { body: JSON.stringify({ config, audio: { content: toBase64(audio.bytes) } }) };
  const [before, after] = JSON.stringify({ config, audio: { content: '' } }).split('"content":""');
  return { body_parts: [`${before}"content":"`, { upload_base64: audio.upload }, `"${after}`] };
}

async function recognize(ctx: HandlerContext, conn: SpeechConnection, audio: Audio, config: Record<string, unknown>): Promise<Recognized> {
  const url = `${conn.provider.base_url.replace(/\/+$/, '')}/v1/speech:recognize`;
  let res;
  try {
    res = await ctx.host.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': conn.api_key },
      ...requestBody({ ...config, model: conn.model }, audio),
      timeout_ms: SPEECH_TIMEOUT_MS,
    });
  } catch (err) {
    return { ok: false, reason: scrub((err as Error).message, conn.api_key) };
  }
  if (res.status >= 400) return { ok: false, reason: errorReason(res.status, res.body, conn.api_key) };
  try {
    const results = (JSON.parse(res.body) as { results?: Array<{ alternatives?: Array<{ transcript?: string; confidence?: number }> }> }).results ?? [];
    const best = results.map((r) => r.alternatives?.[0]).filter((a) => a && typeof a.transcript === 'string');
    const confidences = best.map((a) => a!.confidence).filter((c): c is number => typeof c === 'number');
    return { ok: true, text: best.map((a) => a!.transcript!.trim()).join(' ').trim(), confidence: confidences.length ? confidences.reduce((x, y) => x + y, 0) / confidences.length : null };
  } catch {
    return { ok: false, reason: 'unreadable answer: not JSON' };
  }
}

export async function transcribe(ctx: HandlerContext, upload: UploadRef, language: string, limits: AudioLimits = SPEC_LIMITS) {
  const { format, duration_ms } = await inspect(ctx, upload, limits);
  const { usable, skipped } = await speechChain(ctx, 'stt');
  // Each protocol's audio is made once, when a provider first needs it.
  let google: Prepared | undefined;
  let raw: RawAudio | undefined;
  const failures = [...skipped];
  for (const conn of usable) {
    const protocol = presetOf('stt', conn.provider.preset)?.protocol;
    let result: Recognized;
    const byteVendor = protocol && BYTE_VENDORS[protocol];
    if (byteVendor) {
      // The file as it is, read into the module (at most 25 MB): these vendors take bytes, not base64.
      raw ??= { bytes: await readAll(ctx, upload), format, language };
      result = await byteVendor(ctx, conn, raw);
    } else {
      google ??= upload.size > MAX_INLINE_BYTES ? await byReference(ctx, upload, format, language) : await inline(ctx, upload, format, language);
      result = await recognize(ctx, conn, google.audio, google.config);
    }
    if (result.ok) return { text: result.text, confidence: result.confidence, language, format: listedAs(format), duration_ms, provider: conn.provider.id };
    failures.push({ provider: conn.provider.id, reason: result.reason });
    ctx.host.log.warn('STT provider failed', { provider: conn.provider.id, reason: result.reason });
  }
  throw providersFailed(failures);
}

type Prepared = { audio: Audio; config: Record<string, unknown> };

/** Read into the module; a PCM16 WAV made 16 kHz mono. */
async function inline(ctx: HandlerContext, upload: UploadRef, format: AudioFormat, language: string): Promise<Prepared> {
  const bytes = await readAll(ctx, upload);
  const config = { encoding: ENCODING[format], languageCode: language };
  if (format !== 'wav') return { audio: { bytes }, config };
  const pcm = readWav(bytes);
  if (!pcm) throw invalid('file', 'The WAV file has no fmt or data chunk.');
  const mono = toMono16k(pcm);
  if (mono) return { audio: { bytes: wavOf(mono) }, config: { ...config, sampleRateHertz: TARGET_RATE, audioChannelCount: 1 } };
  return { audio: { bytes }, config: { ...config, sampleRateHertz: pcm.rate, audioChannelCount: pcm.channels } };
}

/** Left in the host: the vendor gets the file as it is, a WAV with the rate and channels of its header. */
async function byReference(ctx: HandlerContext, upload: UploadRef, format: AudioFormat, language: string): Promise<Prepared> {
  const config: Record<string, unknown> = { encoding: ENCODING[format], languageCode: language };
  if (format === 'wav') {
    const pcm = readWav(await read(ctx, upload.id, 0, Math.min(PROBE, upload.size)));
    if (!pcm) throw invalid('file', 'The WAV file has no fmt or data chunk.');
    config.sampleRateHertz = pcm.rate;
    config.audioChannelCount = pcm.channels;
  }
  return { audio: { upload: upload.id }, config };
}
