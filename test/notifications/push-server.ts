/**
 * A stand-in push service on 127.0.0.1 that speaks both protocols the platform uses:
 * - POST /push: the mobile push service (JSON; Authorization: Bearer; Idempotency-Key);
 * - POST /wp/<name>: a browser vendor's web push endpoint (RFC 8030): it checks the VAPID JWT
 *   (RFC 8292) against the key in the header and decrypts the aes128gcm body (RFC 8291) with the
 *   subscriber's private key, as a browser would.
 * Answers can be scripted (e.g. 503 once) to exercise retries.
 */
import { createECDH, createDecipheriv, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MobilePush {
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  status: number;
}

export interface WebPushDelivery {
  subscriber: string;
  vapid: { aud: string; sub: string; exp: number; publicKey: string };
  headers: http.IncomingHttpHeaders;
  payload: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  status: number;
}

export interface Subscriber {
  name: string;
  ecdh: ECDH;
  auth: Buffer;
  /** What a browser's PushSubscription.toJSON() gives. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
}

export interface PushServer {
  url: string;
  mobile: MobilePush[];
  web: WebPushDelivery[];
  /** Statuses to answer with, in order, before going back to 200 (mobile) / 201 (web). */
  script: number[];
  /** Mobile responses' invalid_tokens. */
  invalidTokens: string[];
  subscriber(name: string): Subscriber;
  close(): Promise<void>;
}

export async function startPushServer(): Promise<PushServer> {
  const subscribers = new Map<string, Subscriber>();
  const state = { mobile: [] as MobilePush[], web: [] as WebPushDelivery[], script: [] as number[], invalidTokens: [] as string[] };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const status = state.script.shift();
      if (req.url === '/push' && req.method === 'POST') {
        const answer = status ?? 200;
        state.mobile.push({ authorization: req.headers.authorization, idempotencyKey: req.headers['idempotency-key'] as string | undefined, body: JSON.parse(body.toString('utf8')), status: answer });
        res.writeHead(answer, { 'content-type': 'application/json' }).end(JSON.stringify(answer < 300 ? { invalid_tokens: state.invalidTokens } : { error: 'unavailable' }));
        return;
      }
      const m = /^\/wp\/([\w-]+)$/.exec(req.url ?? '');
      const sub = m && subscribers.get(m[1]);
      if (!sub) return void res.writeHead(404).end();
      const answer = status ?? 201;
      try {
        const vapid = checkVapid(req.headers.authorization, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
        const payload = JSON.parse(decrypt(body, sub).toString('utf8'));
        state.web.push({ subscriber: sub.name, vapid, headers: req.headers, payload, status: answer });
        res.writeHead(answer).end();
      } catch (err) {
        res.writeHead(400).end(String((err as Error).message));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    get mobile() {
      return state.mobile;
    },
    get web() {
      return state.web;
    },
    get script() {
      return state.script;
    },
    set script(v: number[]) {
      state.script = v;
    },
    get invalidTokens() {
      return state.invalidTokens;
    },
    set invalidTokens(v: string[]) {
      state.invalidTokens = v;
    },
    subscriber(name) {
      let s = subscribers.get(name);
      if (!s) {
        const ecdh = createECDH('prime256v1');
        const pub = ecdh.generateKeys();
        const auth = randomBytes(16);
        s = { name, ecdh, auth, subscription: { endpoint: `${url}/wp/${name}`, keys: { p256dh: pub.toString('base64url'), auth: auth.toString('base64url') } } };
        subscribers.set(name, s);
      }
      return s;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  } as PushServer;
}

/** RFC 8292: `vapid t=<jwt>, k=<public key>`; the JWT must be signed by k, for this origin, not expired. */
function checkVapid(header: string | undefined, origin: string): WebPushDelivery['vapid'] {
  const m = /^vapid t=([\w-]+)\.([\w-]+)\.([\w-]+), k=([\w-]+)$/.exec(header ?? '');
  if (!m) throw new Error('no vapid authorization');
  const [, h, c, sig, k] = m;
  const point = Buffer.from(k, 'base64url');
  const key = createPublicKey({ format: 'jwk', key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') } });
  if (!verify('sha256', Buffer.from(`${h}.${c}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig, 'base64url'))) throw new Error('bad vapid signature');
  const header_ = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
  if (header_.alg !== 'ES256') throw new Error('vapid alg must be ES256');
  const claims = JSON.parse(Buffer.from(c, 'base64url').toString('utf8'));
  if (claims.aud !== origin) throw new Error(`vapid aud ${claims.aud} is not ${origin}`);
  if (claims.exp * 1000 < Date.now() || claims.exp * 1000 > Date.now() + 24 * 3600 * 1000 + 60_000) throw new Error('vapid exp out of range');
  return { aud: claims.aud, sub: claims.sub, exp: claims.exp, publicKey: k };
}

/** RFC 8291 receiver side: derive the same key and nonce from the sender's public key in the header. */
function decrypt(body: Buffer, sub: Subscriber): Buffer {
  const salt = body.subarray(0, 16);
  const idlen = body.readUInt8(20);
  const asPublic = body.subarray(21, 21 + idlen);
  const sealed = body.subarray(21 + idlen);
  const uaPublic = sub.ecdh.getPublicKey();
  const secret = sub.ecdh.computeSecret(asPublic);
  const ikm = Buffer.from(hkdfSync('sha256', secret, sub.auth, Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]), 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  const padded = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 0x02) throw new Error('missing last-record delimiter');
  return padded.subarray(0, end);
}
