/**
 * Attacks on the voice assistant (spec 2, Authentication 3: users without ai.view cannot reach the
 * voice assistant; Limits: audio input): a member without the permission, a recording too large for
 * the host to take, one too long for a question, and another user's conversation.
 */
import type { TestHost } from '../../sdk/testing';
import type { LlmStandIn } from '../../modules/ai/test/agent-support';
import { wav } from '../../modules/ai/test/support/audio-samples';
import type { StandIn } from '../../modules/ai/test/support/vendor-standins';
import { ask, startVoiceHost, useSpeech } from '../../modules/ai/test/voice.support';

describe('hostile: the voice assistant (spec 2, Authentication 3; Limits: audio input)', () => {
  let host: TestHost;
  let llm: LlmStandIn;
  let speech: StandIn;
  let close: () => Promise<void>;
  let outsider: string;
  let colleague: string;
  const chatCalls = () => llm.requests.filter((r) => r.url.endsWith('/chat/completions')).length;

  beforeAll(async () => {
    ({ host, llm, speech, close } = await startVoiceHost());
    await useSpeech(host, speech, 'stt');
    await useSpeech(host, speech, 'tts');
    outsider = await host.memberWith('no-ai', ['orders.view']);
    colleague = await host.memberWith('ai-user', ['ai.view']);
  }, 240_000);
  afterAll(() => close?.());
  beforeEach(() => void (speech.requests.length = 0));

  test('a member without ai.view is refused with 403 and nothing is transcribed', async () => {
    const res = await ask(host, wav(1000), {}, outsider);
    expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
    expect(speech.requests).toHaveLength(0);
  });

  test('a recording over 5 MB is refused by the host with 413 before the module reads it', async () => {
    const res = await ask(host, wav(170_000)); // 16 kHz mono PCM16: 5.4 MB
    expect([res.status, res.body.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(speech.requests).toHaveLength(0);
  });

  test('a question longer than 60 seconds is 422 AUDIO_REJECTED; no provider, no model called', async () => {
    const before = chatCalls();
    const res = await ask(host, wav(61_000));
    expect([res.status, res.body.code]).toEqual([422, 'AUDIO_REJECTED']);
    expect(res.body.errors.file[0]).toContain('the most is 1 minute');
    expect(speech.requests).toHaveLength(0);
    expect(chatCalls()).toBe(before);
  });

  test("another user's conversation is 404: a voice question cannot read someone else's chat memory", async () => {
    speech.script({ text: 'my secret order note' });
    llm.script({ content: 'Noted.' });
    const mine = await ask(host, wav(1000));
    expect(mine.status).toBe(200);
    speech.script({ text: 'what did they say before?' });
    const before = chatCalls();
    const theirs = await ask(host, wav(1000), { conversation_id: mine.body.data.reply.conversation_id }, colleague);
    expect([theirs.status, theirs.body.code]).toEqual([404, 'NOT_FOUND']);
    expect(chatCalls()).toBe(before);
  });
});
