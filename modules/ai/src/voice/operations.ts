/**
 * The voice assistant (spec 2, Authentication 3: users without ai.view cannot reach it; "voice
 * transcription needs a speech-to-text provider; voice responses need a text-to-speech provider"):
 * POST /ai/voice, multipart `file` (a spoken question) → the tenant's speech-to-text → the agent
 * (the same loop, tools and memory as POST /ai/agent/chat, as the user) → text-to-speech of the
 * reply. One request answers the transcript, the agent's whole answer and the reply's audio.
 *
 * Both speech providers are checked before anything is spent: with either missing the request is
 * 422 AI_NOT_CONFIGURED naming it, and no transcription or model call is made. A question is short:
 * at most 5 MB (the host refuses more with 413 before the module sees it) and 60 seconds (422
 * AUDIO_REJECTED), so transcription, the agent and synthesis fit the module's 60-second limit.
 */
import { operation, Type } from '../../../../sdk';
import { ChatAnswerSchema, ROLE_ID } from '../agent/operations';
import { runChat } from '../agent/loop';
import { aiErrors, notConfigured } from '../errors';
import { VIEW } from '../permissions';
import { speechChain } from '../speech/store';
import { transcribe, type AudioLimits } from '../speech/stt';
import { MAX_TTS_TEXT } from '../speech/tts-operations';
import { synthesize, TTS_FORMATS } from '../speech/tts';

export const VOICE_LIMITS: AudioLimits = { max_bytes: 5 * 1024 * 1024, max_ms: 60_000 };

export const voiceOperations = {
  voice_ask: operation({
    description: 'The voice assistant: a recorded question (multipart `file`, at most 5 MB and 60 seconds) transcribed, answered by the agent as the user, and the answer spoken.',
    permission: VIEW,
    ai_tool: false,
    graphql_expose: false,
    input: Type.Object(
      {
        upload: Type.Object({ id: Type.String(), filename: Type.String(), size: Type.Integer(), content_type: Type.String() }),
        language: Type.Optional(Type.String({ pattern: '^[a-z]{2,3}(-[A-Z]{2})?$', description: 'BCP-47 of the question, e.g. hi-IN (default en-IN)' })),
        role: Type.Optional(ROLE_ID),
        conversation_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        format: Type.Optional(Type.StringEnum(TTS_FORMATS, { description: 'of the spoken reply: wav (default), mp3, opus or flac' })),
        voice_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      data: Type.Object({
        transcript: Type.String(),
        language: Type.String(),
        reply: ChatAnswerSchema,
        audio: Type.Object({ audio_data: Type.String(), format: Type.StringEnum(TTS_FORMATS), duration_ms: Type.Integer(), provider: Type.String(), voice_id: Type.String() }),
      }),
    }),
    http: { method: 'POST', path: '/ai/voice', success_status: 200, upload: { field: 'file', max_bytes: VOICE_LIMITS.max_bytes } },
    async handler(input, ctx) {
      try {
        // Both ends are needed: a question heard but never answered aloud would spend the STT and the model for nothing.
        for (const kind of ['stt', 'tts'] as const) {
          const { usable, skipped } = await speechChain(ctx, kind);
          if (usable.length === 0) {
            throw notConfigured(`No ${kind === 'stt' ? 'speech-to-text' : 'text-to-speech'} provider can be used: ${skipped.map((s) => `${s.provider}: ${s.reason}`).join('; ')}.`, { kind });
          }
        }
        const language = input.language ?? 'en-IN';
        const heard = await transcribe(ctx, input.upload, language, VOICE_LIMITS);
        if (!heard.text) throw aiErrors.noSpeech();
        const reply = await runChat(ctx, { message: heard.text, role: input.role, conversation_id: input.conversation_id }, null);
        const audio = await synthesize(ctx, reply.message.slice(0, MAX_TTS_TEXT) || '…', input.format ?? 'wav', input.voice_id);
        return { data: { transcript: heard.text, language, reply, audio } };
      } finally {
        await ctx.host.call('files.remove_upload', { upload_id: input.upload.id }).catch(() => undefined);
      }
    },
  }),
};
