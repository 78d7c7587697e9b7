/**
 * Binary host.fetch (`body: Uint8Array | ArrayBuffer | {multipart}`, `response: 'bytes'`) under
 * abuse, over real HTTP to a server on 127.0.0.1 that counts what it received and wrote: a body over
 * the limit never leaves, an answer without end is cut at the limit (not buffered whole), bytes go
 * nowhere text could not (private addresses, unlisted origins), and memory stays bounded.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { createFetchBridge } from '../../core/kernel/host-api/fetch-bridge';
import { HostileHarness } from './support';

/** `/echo` answers the body it got as bytes; `/endless` writes 16 KB pieces for as long as the socket takes them. */
async function vendor() {
  const seen: Array<{ url: string; headers: http.IncomingHttpHeaders; body: Buffer }> = [];
  let written = 0;
  let open = 0;
  const server = http.createServer(async (req, res) => {
    open++;
    res.on('close', () => open--);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    seen.push({ url: req.url ?? '', headers: req.headers, body });
    if (req.url === '/echo') return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
    if (req.url === '/refuse') return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"bad audio"}}');
    res.writeHead(200, { 'content-type': 'audio/mpeg' });
    const piece = Buffer.alloc(16 * 1024, 7);
    const pump = () => {
      while (!res.destroyed) {
        written += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
    };
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, written: () => written, open: () => open };
}

async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('DESIGN Sandbox (host.fetch binary bodies): bytes cross bounded, and only where text may go', () => {
  let v: Awaited<ReturnType<typeof vendor>>;
  let h: HostileHarness;

  beforeAll(async () => {
    v = await vendor();
    h = new HostileHarness('bytes@1.0.0', 'fetch-bytes', { timeoutMs: 5_000, memoryMb: 64 });
  });
  afterAll(async () => {
    h?.dispose();
    v?.server.closeAllConnections();
    await new Promise((r) => v?.server.close(r));
  });
  beforeEach(() => {
    v.seen.length = 0;
    h.bridge.onFetch = createFetchBridge([v.origin], { allowPrivateNetworks: true, maxRequestBytes: 1024 * 1024, maxResponseBytes: 1024 * 1024 });
  });

  test('every byte value goes out and comes back as it was (Uint8Array, ArrayBuffer, part of a view)', async () => {
    for (const kind of ['bytes', 'buffer', 'view']) {
      await expect(h.invoke('send', { url: `${v.origin}/echo`, size: 70_000, kind })).resolves.toEqual({ status: 200, length: kind === 'view' ? 69_998 : 70_000, isBytes: true, same: true, text: '' });
    }
    expect(v.seen.map((s) => s.body.length)).toEqual([70_000, 70_000, 69_998]);
    expect(v.seen[2].body[0]).toBe(1);
  });

  test('a multipart body is assembled by the host: its own boundary, quoted names, the file as raw bytes', async () => {
    await expect(h.invoke('send', { url: `${v.origin}/echo`, size: 1000, kind: 'multipart' })).resolves.toMatchObject({ status: 200 });
    const { headers, body } = v.seen[0];
    const boundary = /^multipart\/form-data; boundary=(\S+)$/.exec(headers['content-type']!)![1];
    const text = body.toString('latin1');
    expect(text.startsWith(`--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nm-1\r\n`)).toBe(true);
    // The filename's quote and line break cannot end the header or forge a part.
    expect(text).toContain(`Content-Disposition: form-data; name="file"; filename="a%22b%0D%0A.wav"\r\nContent-Type: audio/wav\r\n\r\n`);
    const file = body.subarray(body.indexOf('\r\n\r\n', text.indexOf('name="file"')) + 4, body.lastIndexOf(`\r\n--${boundary}--`));
    expect(file.length).toBe(1000);
    expect([...file.subarray(250, 260)]).toEqual([250, 251, 252, 253, 254, 255, 0, 1, 2, 3]);
  });

  test('a body over the limit is refused before anything is sent', async () => {
    for (const kind of ['bytes', 'multipart']) {
      await expect(h.invoke('send', { url: `${v.origin}/echo`, size: 2 * 1024 * 1024, kind })).resolves.toMatchObject({ code: 'FETCH_BODY_TOO_LARGE', message: expect.stringContaining('over the limit of 1048576') });
    }
    expect(v.seen).toHaveLength(0);
  });

  test('an answer without end is cut at the limit: the connection closes, the host never holds it whole', async () => {
    const before = v.written();
    await expect(h.invoke('get', { url: `${v.origin}/endless` })).resolves.toMatchObject({ code: 'FETCH_FAILED', message: expect.stringContaining('over the limit of 1048576 bytes') });
    await until(() => v.open() === 0, 'the connection to close');
    // What the server got out: the limit plus what socket buffers held when the host hung up.
    expect(v.written() - before).toBeLessThan(8 * 1024 * 1024);
  });

  test("an error status's body also comes as text, so the module can say why", async () => {
    await expect(h.invoke('send', { url: `${v.origin}/refuse`, size: 10, kind: 'bytes' })).resolves.toMatchObject({ status: 400, text: '{"error":{"message":"bad audio"}}' });
  });

  test('bytes to an unlisted origin, or to a loopback address the tenant may not reach, are refused before any connection', async () => {
    h.bridge.onFetch = createFetchBridge(['https://api.other-tenant.example'], { allowPrivateNetworks: true });
    await expect(h.invoke('send', { url: `${v.origin}/echo`, size: 100, kind: 'multipart' })).resolves.toMatchObject({ code: 'FETCH_DENIED', message: expect.stringContaining('not allowed for this module in this tenant') });
    h.bridge.onFetch = createFetchBridge([v.origin]);
    await expect(h.invoke('send', { url: `${v.origin}/echo`, size: 100, kind: 'bytes' })).resolves.toMatchObject({ code: 'FETCH_DENIED', message: expect.stringContaining('private or loopback address') });
    await expect(h.invoke('get', { url: `${v.origin}/endless` })).resolves.toMatchObject({ code: 'FETCH_DENIED' });
    expect(v.seen).toHaveLength(0);
  });

  test('a part that names no bytes is refused by the prelude and the host alike', async () => {
    await expect(h.invoke('spoof', { url: `${v.origin}/echo` })).resolves.toMatchObject({ message: expect.stringContaining('value.bytes must be a Uint8Array') });
    expect(v.seen).toHaveLength(0);
  });

  test('memory stays bounded: megabytes back and forth, many times, leave neither the isolate nor the host holding them', async () => {
    // The host's garbage collected on demand, so what is left is what something still holds.
    // The flag is process-wide: set only while this context takes its gc, so isolates made later in
    // this worker (another test file's sandbox) are not given a `gc` global.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    v8.setFlagsFromString('--no-expose-gc');
    gc();
    const baseline = process.memoryUsage().arrayBuffers;
    for (let i = 0; i < 20; i++) {
      await expect(h.invoke('send', { url: `${v.origin}/echo`, size: 1024 * 1024, kind: 'bytes' })).resolves.toMatchObject({ status: 200, same: true });
    }
    const stats = await h.stats();
    expect(stats.rebuilds).toBe(0);
    expect(stats.heapUsedBytes).toBeLessThan(stats.heapLimitBytes * 0.75);
    v.seen.length = 0;
    // isolated-vm frees the copies it made on its own threads, after the handles die: collected
    // again for a few seconds until what is left is under the bound, or that fails.
    let held = Infinity;
    for (let i = 0; i < 40 && held >= 16 * 1024 * 1024; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 100));
      held = process.memoryUsage().arrayBuffers - baseline;
    }
    expect(held).toBeLessThan(16 * 1024 * 1024);
  });
});
