/**
 * Speech-to-text of an upload (spec 2, Limits: audio input at most 25 MB and 5 minutes, the listed
 * formats, 16 kHz mono): real multipart uploads through the platform, a json_base64 stand-in.
 */
import type { TestHost } from '../../../sdk/testing';
import { flac, mp3, opus, wav } from './support/audio-samples';
import { startAiHost } from './support/host';
import { startSpeechStandIn, type StandIn } from './support/vendor-standins';

// 148 s of 44.1 kHz stereo: 24.9 MB, under 25 MB and 5 minutes. Made before the platform starts:
// seconds of idle while it is built would let the server drop the client's kept-alive connection
// just as the upload begins on it.
const BIG_WAV = wav(148_000, { rate: 44100, channels: 2 });

let host: TestHost;
let main: StandIn;
let spare: StandIn;

beforeAll(async () => {
  [main, spare] = await Promise.all([startSpeechStandIn(), startSpeechStandIn()]);
  host = await startAiHost();
  for (const [stand, n] of [[main, 1], [spare, 2]] as const) {
    const made = await host.request('POST', '/ai/stt/providers', { preset: 'google_stt', base_url: stand.url });
    expect(made.status).toBe(201);
    await host.request('PUT', `/ai/stt/providers/${made.body.data.id}/credentials`, { api_key: `stt-key-${n}-0123456789` });
  }
  await host.request('PUT', '/ai/stt/config', { default_provider: 'google_stt', fallback_provider: 'google_stt-2' });
});
afterAll(async () => {
  await host?.close();
  await Promise.all([main?.close(), spare?.close()]);
});
beforeEach(() => {
  main.script();
  spare.script();
  main.requests.length = 0;
  spare.requests.length = 0;
});

async function upload(bytes: Buffer, filename: string, type: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), filename);
  const res = await fetch(`${host.url}/api/v1/ai/stt/transcribe`, { method: 'POST', headers: { authorization: `Bearer ${host.token}`, 'x-tenant': host.tenantId }, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Rows the module wrote (a refused request writes none). */
const usageRows = async () => (await host.sql<{ n: string }>('SELECT count(*)::text AS n FROM ai.usage'))[0]!.n;

describe('spec 2, Limits: audio input for speech-to-text', () => {
  it('transcribes a WAV, sent on as 16 kHz mono', async () => {
    main.script({ text: 'where is my order' });
    const res = await upload(wav(2000, { rate: 44100, channels: 2 }), 'voice.wav', 'audio/wav', { language: 'hi-IN' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ text: 'where is my order', confidence: 0.93, language: 'hi-IN', format: 'wav', duration_ms: 2000, provider: 'google_stt' });
    const sent = main.requests[0]!;
    expect(sent.path).toBe('/v1/speech:recognize');
    expect(sent.body.config).toMatchObject({ encoding: 'LINEAR16', sampleRateHertz: 16000, audioChannelCount: 1, languageCode: 'hi-IN' });
    const audio = Buffer.from(sent.body.audio.content, 'base64');
    // 2 s at 16 kHz mono 16-bit: 64,000 bytes of samples after the 44-byte header.
    expect([audio.readUInt32LE(24), audio.readUInt16LE(22), audio.length]).toEqual([16000, 1, 44 + 64000]);
  });

  it.each([
    ['mp3', mp3(100), 'audio/mpeg', 'MP3'],
    ['ogg', opus(3000), 'audio/ogg', 'OGG_OPUS'],
    ['flac', flac(3000), 'audio/flac', 'FLAC'],
  ])('takes %s', async (format, bytes, type, encoding) => {
    const res = await upload(bytes, `a.${format}`, type);
    expect(res.status).toBe(200);
    expect(res.body.data.format).toBe(format);
    expect(main.requests[0]!.body.config.encoding).toBe(encoding);
  });

  it('falls back to the second provider when the first answers 429', async () => {
    main.script({ status: 429 });
    spare.script({ text: 'hello' });
    const res = await upload(wav(500), 'v.wav', 'audio/wav');
    expect(res.body.data).toMatchObject({ text: 'hello', provider: 'google_stt-2' });
  });

  it('transcribes a 24 MB WAV: the host splices the upload into the request, byte for byte', async () => {
    main.script({ text: 'a long message' });
    const big = BIG_WAV;
    expect(big.length).toBeGreaterThan(24 * 1024 * 1024);
    const res = await upload(big, 'long.wav', 'audio/wav');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ text: 'a long message', format: 'wav', duration_ms: 148_000 });
    const sent = main.requests[0]!;
    expect(sent.body.config).toMatchObject({ encoding: 'LINEAR16', sampleRateHertz: 44100, audioChannelCount: 2, languageCode: 'en-IN' });
    expect(Buffer.from(sent.body.audio.content, 'base64').equals(big)).toBe(true);
  });

  it('transcribes a 7 MB FLAC the same way', async () => {
    const big = Buffer.concat([flac(3000), Buffer.alloc(7 * 1024 * 1024, 7)]);
    const res = await upload(big, 'big.flac', 'audio/flac');
    expect(res.status).toBe(200);
    expect(main.requests[0]!.body.config.encoding).toBe('FLAC');
    expect(Buffer.from(main.requests[0]!.body.audio.content, 'base64').equals(big)).toBe(true);
  });

  it('refuses an unsupported format with a clear 422 and sends nothing', async () => {
    const res = await upload(Buffer.from('this is plainly not audio at all, just text'), 'notes.txt', 'text/plain');
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/m4a, mp3, wav, webm, ogg, flac, mp4/);
    expect(main.requests).toHaveLength(0);
  });

  it('refuses audio over 5 minutes with 422', async () => {
    const res = await upload(flac(5 * 60 * 1000 + 1000), 'long.flac', 'audio/flac');
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/5 minutes/);
    expect(main.requests).toHaveLength(0);
  });

  it('refuses a 30 MB upload before the module runs (413) and writes nothing', async () => {
    const before = await usageRows();
    const res = await upload(Buffer.alloc(30 * 1024 * 1024, 1), 'big.wav', 'audio/wav');
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: expect.stringMatching(/limit of 26214400 bytes/), details: { max_bytes: 26214400 } });
    expect(main.requests).toHaveLength(0);
    expect(await usageRows()).toBe(before);
  });

  it('a request without a file gets 422', async () => {
    const form = new FormData();
    form.append('language', 'en-IN');
    const res = await fetch(`${host.url}/api/v1/ai/stt/transcribe`, { method: 'POST', headers: { authorization: `Bearer ${host.token}`, 'x-tenant': host.tenantId }, body: form });
    expect(res.status).toBe(422);
  });
});
