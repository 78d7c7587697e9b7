/**
 * The voice assistant's tests (module and hostile): the ai host with the stand-in model and a
 * Google-style speech stand-in, and a multipart POST /ai/voice as any user.
 */
import type { TestHost } from '../../../sdk/testing';
import { startAiHost, type LlmStandIn } from './agent-support';
import { startSpeechStandIn, type StandIn } from './support/vendor-standins';

export async function startVoiceHost(): Promise<{ host: TestHost; llm: LlmStandIn; speech: StandIn; close(): Promise<void> }> {
  const speech = await startSpeechStandIn();
  const { host, llm, close } = await startAiHost();
  return { host, llm, speech, close: async () => { await close(); await speech.close(); } };
}

/** Adds the speech stand-in as the tenant's default provider of `kind`, as an admin would. */
export async function useSpeech(host: TestHost, speech: StandIn, kind: 'stt' | 'tts'): Promise<void> {
  const made = await host.request('POST', `/ai/${kind}/providers`, { preset: `google_${kind}`, base_url: speech.url });
  if (made.status !== 201) throw new Error(`POST /ai/${kind}/providers: ${made.status} ${JSON.stringify(made.body)}`);
  await host.request('PUT', `/ai/${kind}/providers/${made.body.data.id}/credentials`, { api_key: `${kind}-key-0123456789` });
  await host.request('PUT', `/ai/${kind}/config`, { default_provider: made.body.data.id });
}

/** POST /ai/voice with `bytes` as the recording; `token` another user's (default the owner's). */
export async function ask(host: TestHost, bytes: Buffer, fields: Record<string, string> = {}, token = host.token) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'audio/wav' }), 'question.wav');
  const res = await fetch(`${host.url}/api/v1/ai/voice`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'x-tenant': host.tenantId }, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
