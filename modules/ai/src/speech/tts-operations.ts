/**
 * Text-to-speech (spec 2, Endpoints AI: Text-to-speech synthesis): synthesize, its streamed variant,
 * voices, default voice. Permission ai.view for use and reads, ai.configure to set the default voice.
 */
import { operation, Type } from '../../../../sdk';
import { invalid } from '../errors';
import { CONFIGURE, VIEW } from '../permissions';
import { readSettings, writeSettings } from '../providers/settings';
import { presetOf, speechChain } from './store';
import { segments, synthesize, TTS_FORMATS } from './tts';

export const MAX_TTS_TEXT = 5000;
/** Base64 characters per `audio` event: under the host's 256 KB per stream piece, with room for the rest. */
const PART = 192_000;
const Format = Type.StringEnum(TTS_FORMATS, { description: 'wav (fastest), mp3, opus or flac' });
const Input = Type.Object(
  { text: Type.String({ minLength: 1, maxLength: MAX_TTS_TEXT }), format: Type.Optional(Format), voice_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) },
  { additionalProperties: false },
);
const Voice = Type.Object({ id: Type.String(), name: Type.String(), language: Type.String(), gender: Type.Optional(Type.String()) });

export const ttsOperations = {
  tts_synthesize_stream: operation({
    description:
      'Streamed synthesis as server-sent events: the text in sentence groups, each sent as soon as it is made as `audio` events {index, part, parts, audio_data, format, duration_ms} (the base64 of one whole file in `parts` pieces; files play in index order), then `done` {segments, duration_ms, provider}.',
    permission: VIEW,
    input: Input,
    output: Type.Object({ streamed: Type.Boolean() }),
    http: { method: 'POST', path: '/ai/tts/synthesize/stream', response: { kind: 'stream', timeout_s: 300 } },
    async handler(input, ctx) {
      const stream = ctx.stream!;
      const pieces = segments(input.text);
      let total = 0;
      let provider = '';
      for (const [index, piece] of pieces.entries()) {
        if (stream.closed) break;
        const s = await synthesize(ctx, piece, input.format ?? 'wav', input.voice_id);
        total += s.duration_ms;
        provider = s.provider;
        // A stream piece is at most 256 KB: a segment's base64 goes in parts (a multiple of 4 characters each).
        const parts = Math.max(1, Math.ceil(s.audio_data.length / PART));
        for (let part = 0; part < parts && !stream.closed; part++) {
          const audio = s.audio_data.slice(part * PART, (part + 1) * PART);
          await stream.event({ event: 'audio', data: { index, part, parts, audio_data: audio, format: s.format, duration_ms: s.duration_ms } });
        }
      }
      if (!stream.closed) await stream.event({ event: 'done', data: { segments: pieces.length, duration_ms: total, provider } });
      return { streamed: true };
    },
  }),

  tts_synthesize: operation({
    description: 'Synthesises speech: {audio_data (base64), format, duration_ms (read from the audio)}, from the default provider or, when it fails, the fallback.',
    permission: VIEW,
    input: Input,
    output: Type.Object({ audio_data: Type.String(), format: Format, duration_ms: Type.Integer({ minimum: 0 }), provider: Type.String(), voice_id: Type.String() }),
    http: { method: 'POST', path: '/ai/tts/synthesize', success_status: 200 },
    async handler(input, ctx) {
      return synthesize(ctx, input.text, input.format ?? 'wav', input.voice_id);
    },
  }),

  tts_list_voices: operation({
    description: "Voices of the current (default) text-to-speech provider, from its preset; ids are the provider's own.",
    permission: VIEW,
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ data: Type.Array(Voice), provider: Type.String() }),
    http: { method: 'GET', path: '/ai/tts/voices' },
    async handler(_input, ctx) {
      const { usable, skipped } = await speechChain(ctx, 'tts');
      const current = usable[0]?.provider;
      if (!current) throw invalid('default_provider', `The text-to-speech provider cannot be used: ${skipped.map((s) => `${s.provider}: ${s.reason}`).join('; ')}.`);
      return { data: presetOf('tts', current.preset)?.voices ?? [], provider: current.id };
    },
  }),

  tts_get_default_voice: operation({
    description: "The tenant's default voice (a provider-specific voice id; null until set).",
    permission: VIEW,
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ data: Type.Object({ voice_id: Type.Nullable(Type.String()) }) }),
    http: { method: 'GET', path: '/ai/tts/voice/default' },
    async handler(_input, ctx) {
      return { data: { voice_id: (await readSettings(ctx, 'tts')).default_voice } };
    },
  }),

  tts_set_default_voice: operation({
    description: "Sets the tenant's default voice (a provider-specific voice id), used when a synthesis names none.",
    permission: CONFIGURE,
    input: Type.Object({ voice_id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
    output: Type.Object({ data: Type.Object({ voice_id: Type.Nullable(Type.String()) }) }),
    http: { method: 'PUT', path: '/ai/tts/voice/default' },
    async handler(input, ctx) {
      return { data: { voice_id: (await writeSettings(ctx, 'tts', { default_voice: input.voice_id })).default_voice } };
    },
  }),
};
