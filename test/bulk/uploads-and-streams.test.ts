/**
 * Spec 3 Bulk operations (multipart CSV upload; streamed CSV export) and Limits (export timeout,
 * up to 2 workers): the host's upload store and CSV streamer, over real HTTP with express and the
 * platform's error handler.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { CsvStreams } from '../../core/services/bulk/csv-stream';
import { UploadStore, type UploadInfo } from '../../core/services/bulk/uploads';
import { errorHandler } from '../../core/kernel/http/error-handler';
import { createLogger } from '../../core/kernel/logger';
import { MandiError } from '../../core/kernel/errors';

const logger = createLogger('silent');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mandi-uploads-'));
const store = new UploadStore(root);
const streams = new CsvStreams(logger);
let pages: { fetched: number; source: (cursor: string | null) => Promise<unknown> };
let server: http.Server;
let base = '';

beforeAll(async () => {
  const app = express();
  app.post('/upload', async (req, res, next) => {
    try {
      res.json(await store.receive(req, 'tenant1', 'mod', { field: 'file', max_bytes: 100, accept: ['text/csv'] }));
    } catch (err) {
      next(err);
    }
  });
  app.get('/export', async (req, res, next) => {
    try {
      await streams.serve(res, 'GET /export', { format: 'csv', timeout_s: Number(req.query.timeout ?? 300), concurrency: 2 }, (cursor) => {
        pages.fetched++;
        return pages.source(cursor);
      });
    } catch (err) {
      next(err);
    }
  });
  app.use(errorHandler(logger, false));
  server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  fs.rmSync(root, { recursive: true, force: true });
});

const files = () => (fs.existsSync(path.join(root, 'tenant1')) ? fs.readdirSync(path.join(root, 'tenant1')) : []);

async function post(body: string | FormData, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/upload`, { method: 'POST', body, headers });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

function form(content: string, type = 'text/csv', field = 'file') {
  const f = new FormData();
  f.append('source', 'shop');
  f.append(field, new Blob([content], { type }), 'orders.csv');
  return f;
}

describe('spec 3 Bulk operations: uploads', () => {
  it('streams the file to DATA_DIR/uploads/<tenant>/<uuid> and hands back its id, name, size, type and the fields', async () => {
    const res = await post(form('a,b\n1,2\n'));
    expect(res.status).toBe(200);
    const upload = res.body.upload as UploadInfo;
    expect(upload).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), filename: 'orders.csv', size: 8, content_type: 'text/csv' });
    expect(res.body.fields).toEqual({ source: 'shop' });
    const opened = await store.open('tenant1', 'mod', upload.id);
    expect(fs.readFileSync(opened.path, 'utf8')).toBe('a,b\n1,2\n');
    await expect(store.open('tenant1', 'other', upload.id)).rejects.toMatchObject({ status: 403 });
    await expect(store.open('tenant2', 'mod', upload.id)).rejects.toMatchObject({ status: 404, code: 'UPLOAD_NOT_FOUND' });
    await expect(store.open('tenant1', 'mod', '../../etc/passwd')).rejects.toMatchObject({ status: 404 });
    await store.remove('tenant1', upload.id);
    expect(files()).toEqual([]);
  });

  it('refuses a file over max_bytes with 413, a wrong type with 415, a missing file with 422, a non-multipart body with 415; nothing stays on disk', async () => {
    const big = await post(form('x'.repeat(101)));
    expect(big).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE', message: expect.stringMatching(/100 bytes/) } });
    const pdf = await post(form('%PDF', 'application/pdf'));
    expect(pdf).toMatchObject({ status: 415, body: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    const wrongField = await post(form('a', 'text/csv', 'attachment'));
    expect(wrongField.status).toBe(422);
    const none = new FormData();
    none.append('source', 'x');
    expect(await post(none)).toMatchObject({ status: 422, body: { errors: { file: [expect.stringMatching(/must be a file/)] } } });
    expect((await post('{"a":1}', { 'content-type': 'application/json' })).status).toBe(415);
    expect(files()).toEqual([]);
  });

  it('sweeps uploads older than the age limit', async () => {
    const res = await post(form('a\n1\n'));
    expect(files()).toHaveLength(2); // the file and its sidecar
    expect(await store.sweep(60_000)).toBe(0);
    expect(await store.sweep(60_000, Date.now() + 120_000)).toBe(2);
    await expect(store.open('tenant1', 'mod', res.body.upload.id)).rejects.toMatchObject({ status: 404 });
  });
});

describe('spec 3 Bulk operations / Limits: streamed CSV responses', () => {
  const numbered = (pagesTotal: number, perPage: number) => async (cursor: string | null) => {
    const page = cursor === null ? 0 : Number(cursor);
    const rows = Array.from({ length: perPage }, (_, i) => [`R${page * perPage + i}`, page % 2 === 0 ? '=SUM(A1)' : -5, null]);
    return { columns: ['id', 'note', 'empty'], rows, next_cursor: page + 1 < pagesTotal ? String(page + 1) : null, filename: 'my export.csv' };
  };

  it('writes every page as CSV, as an attachment, quoting formula-looking cells', async () => {
    pages = { fetched: 0, source: numbered(3, 2) };
    const res = await fetch(`${base}/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="my_export.csv"');
    expect((await res.text()).trim().split('\n')).toEqual(['id,note,empty', "R0,'=SUM(A1),", "R1,'=SUM(A1),", 'R2,-5,', 'R3,-5,', "R4,'=SUM(A1),", "R5,'=SUM(A1),"]);
  });

  it('asks for the next page only as the client reads (backpressure), and stops when the client goes away', async () => {
    pages = { fetched: 0, source: numbered(10_000, 1000) };
    const req = http.get(`${base}/export`);
    const res = await new Promise<http.IncomingMessage>((r) => req.on('response', r));
    res.pause(); // the client reads nothing: only the socket buffers can fill
    try {
      // The socket buffers fill and the host stops asking. (The kernel may still open its receive window
      // a little later, when it compacts what it holds, so a few more pages can follow: never thousands.)
      let last = -1;
      let still = 0;
      for (let i = 0; i < 150 && still < 5; i++) {
        still = pages.fetched === last ? still + 1 : 0;
        last = pages.fetched;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(pages.fetched).toBeLessThan(1000); // of 10,000 pages (about 150 MB of CSV): the host waits for the client
      await new Promise((r) => setTimeout(r, 1000));
      expect(pages.fetched).toBeLessThan(1000);
      req.destroy();
      await new Promise((r) => setTimeout(r, 300));
      const atClose = pages.fetched;
      await new Promise((r) => setTimeout(r, 500));
      expect(pages.fetched).toBe(atClose); // the client went away: no page after that
    } finally {
      req.destroy(); // a failed check must not leave the stream holding one of the two export slots
    }
  });

  it('answers a first-page error as JSON, caps concurrent streams with 429, and cuts a stream that outlives its timeout', async () => {
    pages = { fetched: 0, source: async () => Promise.reject(new MandiError('VALIDATION_FAILED', 'Unknown column x.', 422)) };
    const bad = await fetch(`${base}/export`);
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ message: 'Unknown column x.' });

    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    pages = { fetched: 0, source: async (cursor) => (cursor === null ? { columns: ['a'], rows: [['1']], next_cursor: '1' } : (await gate, { columns: ['a'], rows: [['2']], next_cursor: null })) };
    const first = fetch(`${base}/export`).then((r) => r.text());
    const second = fetch(`${base}/export`).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 200));
    const third = await fetch(`${base}/export`);
    expect(third.status).toBe(429);
    expect(await third.json()).toMatchObject({ retry_after: 5 });
    release();
    expect(await first).toBe('a\n1\n2\n');
    expect(await second).toBe('a\n1\n2\n');

    pages = { fetched: 0, source: async (cursor) => (await new Promise((r) => setTimeout(r, 700)), { columns: ['a'], rows: [[cursor ?? 'first']], next_cursor: String(Number(cursor ?? 0) + 1) }) };
    await expect(fetch(`${base}/export?timeout=1`).then((r) => r.text())).rejects.toThrow(); // cut off: an incomplete body, never a short file that looks whole
  });
});
