/**
 * The speech presets whose audio travels as bytes (spec 2, AI configuration: three speech-to-text
 * and four text-to-speech offerings), each against a stand-in on 127.0.0.1 that speaks its vendor's
 * protocol and keeps what it received: Whisper (multipart), Deepgram (raw audio, `Token`), Azure
 * speech-to-text for short audio (16 kHz mono WAV, `Ocp-Apim-Subscription-Key`), OpenAI
 * TTS and ElevenLabs (JSON in, audio out), Azure (SSML in, audio out), through the module's own
 * endpoints (POST /ai/stt/transcribe, POST /ai/tts/synthesize).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestHost } from '../../../sdk/testing';
import { wav } from './support/audio-samples';
import { startAiHost } from './support/host';

const KEY = 'vendor-key-SECRET-0123456789';

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
    // Azure's short-audio API: a wrong key is a bare 401, a body it cannot take a 400, silence NoMatch.
    const azureStt = /^(\/silent)?\/speech\/recognition\/conversation\/cognitiveservices\/v1\?language=[a-zA-Z-]+&format=simple$/.exec(path);
    if (azureStt) {
      if (req.headers['ocp-apim-subscription-key'] !== KEY) return void res.writeHead(401).end();
      if (req.headers['content-type'] !== 'audio/wav; codecs=audio/pcm; samplerate=16000') return void res.writeHead(400, { 'content-type': 'text/plain' }).end('Unsupported audio format');
      return void json(azureStt[1] ? { RecognitionStatus: 'NoMatch', Offset: 0, Duration: 0 } : { RecognitionStatus: 'Success', DisplayText: 'Hello from Azure.', Offset: 300000, Duration: 9000000 });
    }
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

beforeAll(async () => {
  [host, v] = await Promise.all([startAiHost(), vendors()]);
});
afterAll(async () => {
  await host?.close();
  await v?.close();
});
beforeEach(() => void (v.got.length = 0));

async function useProvider(kind: 'stt' | 'tts', preset: string, path = '/v1', key = KEY) {
  const made = await host.request('POST', `/ai/${kind}/providers`, { preset, base_url: `${v.url}${path}` });
  expect(made.status).toBe(201);
  const id = made.body.data.id;
  expect((await host.request('PUT', `/ai/${kind}/providers/${id}/credentials`, { api_key: key })).status).toBe(200);
  expect((await host.request('PUT', `/ai/${kind}/config`, { default_provider: id, fallback_provider: null })).status).toBe(200);
}

async function transcribe(bytes: Buffer): Promise<{ status: number; body: { data: Record<string, unknown>; message?: string } }> {
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

  it('Azure: the short-audio API with the recognition mode and language, `Ocp-Apim-Subscription-Key`, a 16 kHz mono PCM WAV as the body', async () => {
    await useProvider('stt', 'azure_stt', '');
    const stereo = wav(400, { rate: 44100, channels: 2 });
    const res = await transcribe(stereo);
    expect([res.status, res.body.data]).toEqual([200, expect.objectContaining({ text: 'Hello from Azure.', confidence: null, provider: 'azure_stt', format: 'wav' })]);
    const [sent] = v.got;
    expect([sent.path, sent.headers['ocp-apim-subscription-key'], sent.headers['content-type']]).toEqual([
      '/speech/recognition/conversation/cognitiveservices/v1?language=en-IN&format=simple', KEY, 'audio/wav; codecs=audio/pcm; samplerate=16000',
    ]);
    // 16 kHz, one channel, 16-bit: 400 ms is 6,400 samples after the 44-byte header.
    expect([sent.body.toString('latin1', 0, 4), sent.body.readUInt16LE(22), sent.body.readUInt32LE(24), sent.body.readUInt16LE(34), sent.body.length]).toEqual(['RIFF', 1, 16000, 16, 44 + 6400 * 2]);
  });

  it('Azure: NoMatch is no speech (empty text); a refused key is a failed provider with its status, the key never in the answer', async () => {
    await useProvider('stt', 'azure_stt', '/silent');
    const silent = await transcribe(audio);
    expect([silent.status, silent.body.data]).toEqual([200, expect.objectContaining({ text: '', provider: expect.stringMatching(/^azure_stt-\d+$/) })]);

    await useProvider('stt', 'azure_stt', '', 'wrong-key-SECRET-9876543210');
    const denied = await transcribe(audio);
    expect([denied.status, denied.body.message]).toEqual([502, expect.stringMatching(/^No AI provider answered: azure_stt-\d+: HTTP 401$/)]);
    expect(JSON.stringify(denied.body)).not.toContain('SECRET');
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
