/**
 * The voice assistant (spec 2, Authentication 3; Which provider is needed: voice transcription needs
 * a speech-to-text provider, voice responses a text-to-speech provider): POST /ai/voice, speech in →
 * the tenant's STT → the agent → TTS, against a Google-style speech stand-in and the stand-in model.
 */
import type { TestHost } from '../../../sdk/testing';
import type { LlmStandIn } from './agent-support';
import { wav } from './support/audio-samples';
import type { StandIn } from './support/vendor-standins';
import { ask, startVoiceHost, useSpeech } from './voice.support';

let host: TestHost;
let llm: LlmStandIn;
let speech: StandIn;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ host, llm, speech, close } = await startVoiceHost());
}, 240_000);
afterAll(() => close?.());

const chatCalls = () => llm.requests.filter((r) => r.url.endsWith('/chat/completions')).length;

describe('spec 2: the voice assistant (POST /ai/voice)', () => {
  it('without a speech-to-text provider: 422 AI_NOT_CONFIGURED, nothing transcribed, the model not asked', async () => {
    const before = chatCalls();
    const res = await ask(host, wav(1500));
    expect([res.status, res.body.code]).toEqual([422, 'AI_NOT_CONFIGURED']);
    expect(res.body.message).toContain('speech-to-text');
    expect(speech.requests).toHaveLength(0);
    expect(chatCalls()).toBe(before);
  });

  it('with speech-to-text but no text-to-speech: 422 naming text-to-speech, before anything is transcribed', async () => {
    await useSpeech(host, speech, 'stt');
    const res = await ask(host, wav(1500));
    expect([res.status, res.body.code]).toEqual([422, 'AI_NOT_CONFIGURED']);
    expect(res.body.message).toContain('text-to-speech');
    expect(speech.requests).toHaveLength(0);
  });

  it('transcribes the question, has the agent answer it and speaks the answer', async () => {
    await useSpeech(host, speech, 'tts');
    speech.script({ text: 'how many orders today' });
    llm.script({ content: 'You have 12 orders today.' });
    const res = await ask(host, wav(2000, { rate: 44100, channels: 2 }), { language: 'hi-IN', role: 'analytics' });
    expect(res.status).toBe(200);
    const { data } = res.body;
    expect(data).toMatchObject({ transcript: 'how many orders today', language: 'hi-IN', reply: { message: 'You have 12 orders today.', role: 'analytics', stop_reason: 'answered' } });
    expect(data.audio).toMatchObject({ format: 'wav', provider: 'google_tts', duration_ms: 'You have 12 orders today.'.length * 100 });
    expect(Buffer.from(data.audio.audio_data, 'base64').subarray(0, 4).toString()).toBe('RIFF');
    // The model heard the transcript; the speech provider was asked to say the reply.
    expect(JSON.stringify(llm.requests.at(-1)!.body.messages)).toContain('how many orders today');
    expect(speech.requests.map((r) => r.path)).toEqual(['/v1/speech:recognize', '/v1/text:synthesize']);
    expect(speech.requests[1]!.body.input.text).toBe('You have 12 orders today.');
    // The conversation is the user's chat memory: a typed follow-up continues it.
    const follow = await host.request('POST', '/ai/agent/chat', { message: 'and yesterday?', conversation_id: data.reply.conversation_id });
    expect(follow.status).toBe(200);
    expect(JSON.stringify(llm.requests.at(-1)!.body.messages)).toContain('how many orders today');
  });

  it('a recording with no speech in it is 422 NO_SPEECH and the model is not asked', async () => {
    speech.script({ text: ' ' });
    const before = chatCalls();
    const res = await ask(host, wav(800));
    expect([res.status, res.body.code]).toEqual([422, 'NO_SPEECH']);
    expect(chatCalls()).toBe(before);
  });
});
