/**
 * Text-to-speech: providers from presets, config with fallback, synthesis with the duration read
 * from the audio, the streamed variant, voices and the default voice. Real platform and sandbox,
 * a json_base64 speech stand-in on 127.0.0.1.
 */
import type { TestHost } from '../../../sdk/testing';
import { wav } from './support/audio-samples';
import { startAiHost } from './support/host';
import { startSpeechStandIn, type StandIn } from './support/vendor-standins';

const KEY = 'goog-tts-SECRET-key-000111222';
let host: TestHost;
let main: StandIn;
let spare: StandIn;

beforeAll(async () => {
  [main, spare] = await Promise.all([startSpeechStandIn(), startSpeechStandIn()]);
  host = await startAiHost({ captureLogs: true });
});
afterAll(async () => {
  await host?.close();
  await Promise.all([main?.close(), spare?.close()]);
});
beforeEach(() => {
  main.script();
  spare.script();
});

describe('spec 2, Endpoints AI: text-to-speech providers from presets', () => {
  it('lists four presets with base URL and models', async () => {
    const res = await host.request('GET', '/ai/tts/presets');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(4);
    for (const p of res.body.data) expect(p).toMatchObject({ id: expect.any(String), base_url: expect.stringMatching(/^https:\/\//), models: expect.arrayContaining([expect.any(String)]) });
    expect((await host.request('GET', '/ai/stt/presets')).body.data.map((p: { id: string }) => p.id)).toEqual(['google_stt', 'openai_whisper', 'deepgram', 'azure_stt']);
  });

  it('adds providers from a preset (answering the new id), saves credentials as a hint only, sets default and fallback', async () => {
    const first = await host.request('POST', '/ai/tts/providers', { preset: 'google_tts', base_url: main.url });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ id: 'google_tts', preset: 'google_tts', base_url: main.url, has_credentials: false });
    const second = await host.request('POST', '/ai/tts/providers', { preset: 'google_tts', base_url: spare.url });
    expect(second.body.data.id).toBe('google_tts-2');
    for (const id of ['google_tts', 'google_tts-2']) {
      const creds = await host.request('PUT', `/ai/tts/providers/${id}/credentials`, { api_key: KEY, model: 'neural2' });
      expect(creds.status).toBe(200);
      expect(creds.body.data).toMatchObject({ has_credentials: true, key_hint: '…1222', model: 'neural2' });
      expect(JSON.stringify(creds.body)).not.toContain('SECRET');
    }
    const config = await host.request('PUT', '/ai/tts/config', { default_provider: 'google_tts', fallback_provider: 'google_tts-2' });
    expect(config.body.data).toEqual({ default_provider: 'google_tts', fallback_provider: 'google_tts-2', default_voice: null });
    expect((await host.request('GET', '/modules/fetch-origins')).body.fetch_origins).toEqual(expect.arrayContaining([{ origin: main.origin, module: 'ai' }, { origin: spare.origin, module: 'ai' }]));
  });

  it('refuses an unknown preset with 422, writing nothing', async () => {
    const unknown = await host.request('POST', '/ai/tts/providers', { preset: 'nope' });
    expect([unknown.status, unknown.body.errors.preset[0]]).toEqual([422, expect.stringContaining('google_tts')]);
    expect((await host.request('GET', '/ai/tts/providers')).body.data.map((p: { id: string }) => p.id)).toEqual(['google_tts', 'google_tts-2']);
  });
});

describe('spec 2, Endpoints AI: POST /ai/tts/synthesize', () => {
  it('answers {audio_data, format, duration_ms} with the duration read from a known WAV', async () => {
    // 1.5 s of 22.05 kHz stereo 16-bit PCM: 264,600 bytes of data.
    main.script({ audio: wav(1500, { rate: 22050, channels: 2 }) });
    const res = await host.request('POST', '/ai/tts/synthesize', { text: 'Namaste', format: 'wav', voice_id: 'hi-IN-Neural2-A' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ format: 'wav', duration_ms: 1500, provider: 'google_tts', voice_id: 'hi-IN-Neural2-A' });
    expect(Buffer.from(res.body.audio_data, 'base64').equals(wav(1500, { rate: 22050, channels: 2 }))).toBe(true);
    const sent = main.requests[main.requests.length - 1]!;
    expect(sent).toMatchObject({ path: '/v1/text:synthesize', body: { input: { text: 'Namaste' }, voice: { languageCode: 'hi-IN', name: 'hi-IN-Neural2-A' }, audioConfig: { audioEncoding: 'LINEAR16' } } });
    expect(sent.headers['x-goog-api-key']).toBe(KEY);
  });

  it.each([
    ['mp3', 'MP3'],
    ['opus', 'OGG_OPUS'],
    ['flac', 'FLAC'],
  ])('reads the duration of %s audio (the stand-in makes 100 ms per character)', async (format, encoding) => {
    const res = await host.request('POST', '/ai/tts/synthesize', { text: 'x'.repeat(25), format });
    expect(res.status).toBe(200);
    expect(main.requests[main.requests.length - 1]!.body.audioConfig.audioEncoding).toBe(encoding);
    expect(res.body.format).toBe(format);
    expect(Math.abs(res.body.duration_ms - 2500)).toBeLessThanOrEqual(30);
  });

  it('falls back when the default fails (429, 500, or audio in the wrong format)', async () => {
    main.script({ status: 429 });
    expect((await host.request('POST', '/ai/tts/synthesize', { text: 'Hello', format: 'wav' })).body).toMatchObject({ provider: 'google_tts-2', duration_ms: 500 });
    main.script({ status: 500 });
    expect((await host.request('POST', '/ai/tts/synthesize', { text: 'Hello', format: 'wav' })).body.provider).toBe('google_tts-2');
    main.script({ audio: wav(100) });
    expect((await host.request('POST', '/ai/tts/synthesize', { text: 'Hello', format: 'mp3' })).body.provider).toBe('google_tts-2');
  });

  it('both failing: 502 with both reasons', async () => {
    main.script({ status: 500, error: 'boom' });
    spare.script({ status: 429 });
    const res = await host.request('POST', '/ai/tts/synthesize', { text: 'Hello' });
    expect(res.status).toBe(502);
    expect(res.body.details.attempts).toEqual([
      { provider: 'google_tts', reason: 'HTTP 500: boom' },
      { provider: 'google_tts-2', reason: expect.stringContaining('429') },
    ]);
  });

  it('refuses an unsupported format, empty text and text over 5000 characters with 422', async () => {
    const before = main.requests.length;
    for (const body of [{ text: 'Hi', format: 'aac' }, { text: '' }, { text: 'x'.repeat(5001) }]) {
      const res = await host.request('POST', '/ai/tts/synthesize', body);
      expect(res.status).toBe(422);
    }
    expect(main.requests.length).toBe(before);
  });
});

describe('spec 2, Endpoints AI: streamed synthesis, voices, default voice', () => {
  it('streams one audio event per sentence group as it is made, then done with the total duration', async () => {
    const text = `${'First sentence here. '.repeat(15)}${'Second part follows now. '.repeat(15)}`;
    const res = await fetch(`${host.url}/api/v1/ai/tts/synthesize/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token}`, 'x-tenant': host.tenantId },
      body: JSON.stringify({ text, format: 'wav' }),
    });
    if (res.status !== 200) throw new Error(await res.text());
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = res.body!.getReader();
    let raw = '';
    let reads = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      reads++;
      raw += new TextDecoder().decode(value);
    }
    const events = raw.split('\n\n').filter((e) => e.includes('data:')).map((e) => ({ event: /event: (\w+)/.exec(e)?.[1], data: JSON.parse(/data: (.*)/.exec(e)![1]!) }));
    const parts = events.filter((e) => e.event === 'audio');
    expect(reads).toBeGreaterThanOrEqual(2);
    // Each segment's file arrives in parts (no stream piece over 256 KB); joined, each is a whole WAV.
    const audio = [...new Set(parts.map((e) => e.data.index))].map((index) => {
      const mine = parts.filter((e) => e.data.index === index);
      expect(mine.map((e) => e.data.part)).toEqual(mine.map((_, i) => i));
      expect(mine.every((e) => e.data.parts === mine.length)).toBe(true);
      const bytes = Buffer.from(mine.map((e) => e.data.audio_data).join(''), 'base64');
      expect(bytes.subarray(0, 4).toString()).toBe('RIFF');
      return { index, data: mine[0]!.data, bytes };
    });
    expect(audio.length).toBeGreaterThanOrEqual(2);
    expect(parts.length).toBeGreaterThan(audio.length);
    expect(audio.map((e) => e.index)).toEqual(audio.map((_, i) => i));
    const done = events[events.length - 1]!;
    expect(done).toMatchObject({ event: 'done', data: { segments: audio.length, provider: 'google_tts' } });
    expect(done.data.duration_ms).toBe(audio.reduce((sum, e) => sum + e.data.duration_ms, 0));
  });

  it('lists the voices of the current provider and keeps a default voice used when none is named', async () => {
    const voices = await host.request('GET', '/ai/tts/voices');
    expect(voices.body).toMatchObject({ provider: 'google_tts', data: expect.arrayContaining([expect.objectContaining({ id: 'en-IN-Neural2-A' })]) });
    expect((await host.request('GET', '/ai/tts/voice/default')).body).toEqual({ data: { voice_id: null } });
    expect((await host.request('PUT', '/ai/tts/voice/default', { voice_id: 'en-IN-Neural2-B' })).body).toEqual({ data: { voice_id: 'en-IN-Neural2-B' } });
    expect((await host.request('GET', '/ai/tts/voice/default')).body).toEqual({ data: { voice_id: 'en-IN-Neural2-B' } });
    const res = await host.request('POST', '/ai/tts/synthesize', { text: 'Hi' });
    expect(res.body.voice_id).toBe('en-IN-Neural2-B');
  });

  it('ai.view may synthesise and read voices, not set the default voice or add providers', async () => {
    const token = await host.memberWith('tts-viewer', ['ai.view']);
    expect((await host.requestAs(token, 'POST', '/ai/tts/synthesize', { text: 'Hi' })).status).toBe(200);
    expect((await host.requestAs(token, 'PUT', '/ai/tts/voice/default', { voice_id: 'x' })).status).toBe(403);
    expect((await host.requestAs(token, 'POST', '/ai/tts/providers', { preset: 'google_tts' })).status).toBe(403);
  });

  it('deletes a provider only while no setting names it', async () => {
    expect((await host.request('DELETE', '/ai/tts/providers/google_tts-2')).status).toBe(409);
    await host.request('PUT', '/ai/tts/config', { fallback_provider: null });
    expect((await host.request('DELETE', '/ai/tts/providers/google_tts-2')).body).toEqual({ data: { id: 'google_tts-2', deleted: true } });
    expect((await host.request('DELETE', '/ai/tts/providers/google_tts-2')).status).toBe(404);
    // An STT id is not a TTS provider.
    expect((await host.request('DELETE', '/ai/stt/providers/google_tts')).status).toBe(404);
  });

  it('no key in logs or audit rows', async () => {
    expect(host.logLines().filter((l) => l.includes(KEY) || l.includes('SECRET'))).toEqual([]);
    expect(JSON.stringify(await host.auditRows())).not.toContain(KEY);
  });
});
