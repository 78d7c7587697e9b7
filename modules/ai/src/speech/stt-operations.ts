/**
 * POST /ai/stt/transcribe (not in the spec's tables; spec 2 needs voice transcription for the live
 * chat's voice input): multipart/form-data with the audio in `file` and an optional `language`
 * (BCP-47, default en-IN). The host refuses over 25 MB (413) before the module sees anything; the
 * module refuses other formats and audio over 5 minutes with 422. The upload is deleted afterwards.
 */
import { operation, Type } from '../../../../sdk';
import { VIEW } from '../permissions';
import { MAX_AUDIO_BYTES, STT_FORMATS, transcribe } from './stt';

export const sttOperations = {
  stt_transcribe: operation({
    description: `Transcribes an uploaded recording (at most 25 MB and 5 minutes; ${STT_FORMATS.join(', ')}) with the default speech-to-text provider or, when it fails, the fallback.`,
    permission: VIEW,
    input: Type.Object(
      {
        upload: Type.Object({ id: Type.String(), filename: Type.String(), size: Type.Integer(), content_type: Type.String() }),
        language: Type.Optional(Type.String({ pattern: '^[a-z]{2,3}(-[A-Z]{2})?$', description: 'BCP-47, e.g. hi-IN' })),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      data: Type.Object({
        text: Type.String(),
        confidence: Type.Nullable(Type.Number()),
        language: Type.String(),
        format: Type.String(),
        duration_ms: Type.Nullable(Type.Integer()),
        provider: Type.String(),
      }),
    }),
    http: { method: 'POST', path: '/ai/stt/transcribe', success_status: 200, upload: { field: 'file', max_bytes: MAX_AUDIO_BYTES } },
    async handler(input, ctx) {
      try {
        return { data: await transcribe(ctx, input.upload, input.language ?? 'en-IN') };
      } finally {
        // Done with it either way (the host also deletes it when the operation throws).
        await ctx.host.call('files.remove_upload', { upload_id: input.upload.id }).catch(() => undefined);
      }
    },
  }),
};
