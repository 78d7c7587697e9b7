/**
 * The speech presets whose audio travels as bytes (spec 2, AI configuration: three speech-to-text
 * and four text-to-speech offerings), each against a stand-in on 127.0.0.1 that speaks its vendor's
 * protocol and keeps what it received: Whisper (multipart), Deepgram (raw audio, `Token`), OpenAI
 * TTS and ElevenLabs (JSON in, audio out), Azure (SSML in, audio out), through the module's own
 * endpoints (POST /ai/stt/transcribe, POST /ai/tts/synthesize).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestHost } from '../../../sdk/testing';
import { wav } from './support/audio-samples';
import { startAiHost } from './support/host';

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Answers each vendor's path the way that vendor does; records every request's raw bytes. */
async function vendors() {
  const got: Received[] = [];
  const speech = wav(300, { rate: 24000 });
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = req.url ?? '/';
    got.push({ method: req.method ?? '', path, headers: req.headers, body: Buffer.concat(chunks) });
    const json = (v: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(v));
    if (path === '/v1/audio/transcriptions') return void json({ text: ' hello from whisper ' });
    if (path.startsWith('/v1/listen?')) return void json({ results: { channels: [{ alternatives: [{ transcript: 'hello from deepgram', confidence: 0.93 }] }] } });
    if (path === '/v1/audio/speech' || path === '/cognitiveservices/v1') return void res.writeHead(200, { 'content-type': 'audio/wav' }).end(speech);
    // ElevenLabs pcm_16000: bare samples, 250 ms of them.
    if (path.startsWith('/v1/text-to-speech/')) return void res.writeHead(200, { 'content-type': 'audio/pcm' }).end(Buffer.alloc(16000 / 2, 1));
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { got, url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let host: TestHost;
let v: Awaited<ReturnType<typeof vendors>>;
const KEY = 'vendor-key-SECRET-0123456789';

beforeAll(async () => {
  [host, v] = await Promise.all([startAiHost(), vendors()]);
});
afterAll(async () => {
  await host?.close();
  await v?.close();
});
beforeEach(() => void (v.got.length = 0));

async function useProvider(kind: 'stt' | 'tts', preset: string, path = '/v1') {
  const made = await host.request('POST', `/ai/${kind}/providers`, { preset, base_url: `${v.url}${path}` });
  expect(made.status).toBe(201);
  const id = made.body.data.id;
  expect((await host.request('PUT', `/ai/${kind}/providers/${id}/credentials`, { api_key: KEY })).status).toBe(200);
  expect((await host.request('PUT', `/ai/${kind}/config`, { default_provider: id, fallback_provider: null })).status).toBe(200);
}

async function transcribe(bytes: Buffer) {
  const form = new FormData();
  form.append('language', 'en-IN');
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'audio/wav' }), 'voice.wav');
  const res = await fetch(`${host.url}/api/v1/ai/stt/transcribe`, { method: 'POST', headers: { authorization: `Bearer ${host.token}`, 'x-tenant': host.tenantId }, body: form });
  return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
}

describe('spec 2, AI configuration: speech-to-text presets that send raw audio', () => {
  const audio = wav(400, { rate: 16000 });

  it('Whisper: a multipart upload of the file as it is, with model and language, Bearer auth', async () => {
    await useProvider('stt', 'openai_whisper');
    const res = await transcribe(audio);
    expect([res.status, res.body.data]).toEqual([200, expect.objectContaining({ text: 'hello from whisper', provider: 'openai_whisper', format: 'wav' })]);
    const [sent] = v.got;
    expect([sent.method, sent.path, sent.headers.authorization]).toEqual(['POST', '/v1/audio/transcriptions', `Bearer ${KEY}`]);
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(sent.headers['content-type']!)![1];
    const text = sent.body.toString('latin1');
    expect(text).toContain(`name="model"\r\n\r\nwhisper-1\r\n`);
    expect(text).toContain(`name="language"\r\n\r\nen\r\n`);
    const fileAt = sent.body.indexOf('\r\n\r\n', text.indexOf('name="file"; filename="audio.wav"')) + 4;
    expect(sent.body.subarray(fileAt, fileAt + audio.length).equals(audio)).toBe(true);
    expect(text).toContain(`--${boundary}--`);
  });

  it('Deepgram: the raw audio as the body with its content type, `Token` auth, model and language in the query', async () => {
    await useProvider('stt', 'deepgram');
    const res = await transcribe(audio);
    expect([res.status, res.body.data]).toEqual([200, expect.objectContaining({ text: 'hello from deepgram', confidence: 0.93, provider: 'deepgram' })]);
    const [sent] = v.got;
    expect([sent.path, sent.headers.authorization, sent.headers['content-type']]).toEqual(['/v1/listen?model=nova-3&language=en-IN&smart_format=true', `Token ${KEY}`, 'audio/wav']);
    expect(sent.body.equals(audio)).toBe(true);
  });
});

describe('spec 2, Endpoints AI (text-to-speech synthesis): presets that answer audio bytes', () => {
  const synthesize = (voice_id: string) => host.request('POST', '/ai/tts/synthesize', { text: 'Your order <ORD-1> & more', format: 'wav', voice_id });

  it('OpenAI TTS: JSON in (model, input, voice, response_format), the audio bytes out as base64 with their duration', async () => {
    await useProvider('tts', 'openai_tts');
    const res = await synthesize('nova');
    expect([res.status, res.body]).toEqual([200, expect.objectContaining({ format: 'wav', duration_ms: 300, provider: 'openai_tts', voice_id: 'nova' })]);
    expect(Buffer.from(res.body.audio_data, 'base64').equals(wav(300, { rate: 24000 }))).toBe(true);
    const [sent] = v.got;
    expect([sent.path, sent.headers.authorization]).toEqual(['/v1/audio/speech', `Bearer ${KEY}`]);
    expect(JSON.parse(sent.body.toString())).toEqual({ model: 'tts-1', input: 'Your order <ORD-1> & more', voice: 'nova', response_format: 'wav' });
  });

  it('ElevenLabs: the voice in the path, `xi-api-key`, pcm_16000 made into a WAV file', async () => {
    await useProvider('tts', 'elevenlabs');
    const res = await synthesize('21m00Tcm4TlvDq8ikWAM');
    expect(res.body).toMatchObject({ format: 'wav', duration_ms: 250, provider: 'elevenlabs' });
    const [sent] = v.got;
    expect([sent.path, sent.headers['xi-api-key']]).toEqual(['/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM?output_format=pcm_16000', KEY]);
    expect(JSON.parse(sent.body.toString())).toEqual({ text: 'Your order <ORD-1> & more', model_id: 'eleven_multilingual_v2' });
  });

  it('Azure: SSML in with the text escaped, Ocp-Apim-Subscription-Key and the output format header, audio out', async () => {
    await useProvider('tts', 'azure_tts', '');
    const res = await synthesize('en-IN-NeerjaNeural');
    expect(res.body).toMatchObject({ format: 'wav', duration_ms: 300, provider: 'azure_tts' });
    const [sent] = v.got;
    expect([sent.path, sent.headers['ocp-apim-subscription-key'], sent.headers['content-type'], sent.headers['x-microsoft-outputformat']]).toEqual(['/cognitiveservices/v1', KEY, 'application/ssml+xml', 'riff-24khz-16bit-mono-pcm']);
    expect(sent.body.toString()).toBe('<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="en-IN"><voice name="en-IN-NeerjaNeural">Your order &lt;ORD-1&gt; &amp; more</voice></speak>');
  });
});
