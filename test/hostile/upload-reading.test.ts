/**
 * Hostile modules against files.read_upload and files.remove_upload (a module reads back an upload
 * it received): another module's upload, another tenant's, ids that are paths, oversized reads,
 * edge callers; and host.fetch `body_parts`, where the host splices an upload into a request: the
 * same checks, never another module's or tenant's file. Real platform, real sandboxes, real
 * multipart uploads, a real server on 127.0.0.1 receiving the requests.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { addFixtureModules, installVia } from '../bus/support';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { signUpBeta } from '../support/sign-up';

const fixture = (name: string) => path.join(__dirname, 'fixtures', name);

describe('DESIGN Host capabilities for modules: reading uploads back, under attack', () => {
  let tp: TestPlatform;
  let acme: Awaited<ReturnType<TestPlatform['install']>>;
  let betaId: string;
  let uploadId: string;
  const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 251));
  const raw = (module: string, op: string, input: unknown, tenantId = acme.tenantId) =>
    tp.platform.kernel.bus.call({ kind: 'core' }, `${module}.raw`, { op, input }, { tenantId, user: null });

  beforeAll(async () => {
    tp = await startTestPlatform({ PUBLIC_SIGNUP: 'true' });
    acme = await tp.install('acme');
    const signup = await signUpBeta(tp);
    betaId = signup.tenantId;
    await addFixtureModules(tp, ['keeper', 'widener'], fixture);
    for (const alias of ['keeper', 'widener']) await installVia(tp, acme.token, 'acme', alias);
    await installVia(tp, signup.token, 'beta', 'keeper');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), 'x.bin');
    const res = await fetch(`${tp.url}/api/v1/keeper/files`, { method: 'POST', headers: { authorization: `Bearer ${acme.token}`, 'x-tenant': 'acme' }, body: form });
    uploadId = ((await res.json()) as { id: string }).id;
  }, 120_000);
  let vendor: http.Server;
  let vendorOrigin: string;
  const received: Buffer[] = [];
  beforeAll(async () => {
    vendor = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push(Buffer.concat(chunks));
        res.end('ok');
      });
    });
    await new Promise<void>((r) => vendor.listen(0, '127.0.0.1', r));
    vendorOrigin = `http://127.0.0.1:${(vendor.address() as AddressInfo).port}`;
    for (const id of [acme.tenantId, betaId]) {
      await tp.platform.central.sequelize.query(
        `UPDATE tenants SET settings = jsonb_set(jsonb_set(settings, '{modules}', jsonb_build_object('fetch_origins', $2::jsonb)), '{webhooks}', '{"allow_private_networks": true}'::jsonb) WHERE id = $1`,
        { bind: [id, JSON.stringify(['keeper', 'widener'].map((module) => ({ origin: vendorOrigin, module })))] },
      );
    }
  });
  afterAll(async () => {
    await tp?.close();
    vendor?.close();
  });
  const send = (module: string, parts: unknown[], tenantId = acme.tenantId) =>
    tp.platform.kernel.bus.call({ kind: 'core' }, `${module}.send`, { url: `${vendorOrigin}/in`, parts }, { tenantId, user: null });

  test('body_parts: the receiving module sends its upload spliced in as base64, byte for byte', async () => {
    received.length = 0;
    expect(await send('keeper', ['{"audio":"', { upload_base64: uploadId }, '"}'])).toEqual({ status: 200, body: 'ok' });
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.toString()).audio).toBe(bytes.toString('base64'));
  });

  test("body_parts: another module's upload, another tenant's, a path, or a malformed part is refused and nothing is sent", async () => {
    received.length = 0;
    await expect(send('widener', [{ upload_base64: uploadId }])).rejects.toMatchObject({ status: 403 });
    await expect(send('keeper', [{ upload_base64: uploadId }], betaId)).rejects.toMatchObject({ code: 'UPLOAD_NOT_FOUND', status: 404 });
    await expect(send('keeper', [{ upload_base64: `../${acme.tenantId}/${uploadId}` }])).rejects.toMatchObject({ status: expect.any(Number) });
    await expect(send('keeper', [{ upload_base64: uploadId, path: '/etc/passwd' }])).rejects.toMatchObject({ message: expect.stringContaining('body_parts must be a list') });
    await expect(send('keeper', [{ file: '/etc/passwd' }])).rejects.toMatchObject({ message: expect.stringContaining('body_parts must be a list') });
    await expect(send('keeper', Array.from({ length: 17 }, () => 'x'))).rejects.toMatchObject({ message: expect.stringContaining('at most 16') });
    expect(received).toHaveLength(0);
  });

  test('the receiving module reads its upload in bounded pieces, as base64', async () => {
    const first = await raw('keeper', 'files.read_upload', { upload_id: uploadId, length: 1000 });
    expect(first).toMatchObject({ offset: 0, length: 1000, size: 3000, eof: false });
    const rest = await raw('keeper', 'files.read_upload', { upload_id: uploadId, offset: 1000 });
    expect(rest).toMatchObject({ offset: 1000, length: 2000, eof: true });
    const got = Buffer.concat([Buffer.from((first as { data: string }).data, 'base64'), Buffer.from((rest as { data: string }).data, 'base64')]);
    expect(got.equals(bytes)).toBe(true);
    expect(await raw('keeper', 'files.read_upload', { upload_id: uploadId, offset: 99_999 })).toMatchObject({ length: 0, eof: true });
  });

  test('cross-module: another module of the same tenant can neither read nor remove it', async () => {
    await expect(raw('widener', 'files.read_upload', { upload_id: uploadId })).rejects.toMatchObject({ status: 403 });
    await expect(raw('widener', 'files.remove_upload', { upload_id: uploadId })).rejects.toMatchObject({ status: 403 });
    expect(await raw('keeper', 'files.read_upload', { upload_id: uploadId, length: 1 })).toMatchObject({ length: 1 });
  });

  test('cross-tenant: the same module in another tenant does not find it', async () => {
    await expect(raw('keeper', 'files.read_upload', { upload_id: uploadId }, betaId)).rejects.toMatchObject({ code: 'UPLOAD_NOT_FOUND', status: 404 });
  });

  test('ids that are paths, and reads over 1 MB, are refused', async () => {
    for (const id of ['../../../etc/passwd', `../${acme.tenantId}/${uploadId}`, `${uploadId}.json`, '']) {
      await expect(raw('keeper', 'files.read_upload', { upload_id: id })).rejects.toMatchObject({ status: expect.any(Number) });
    }
    await expect(raw('keeper', 'files.read_upload', { upload_id: uploadId, length: 1024 * 1024 + 1 })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(raw('keeper', 'files.read_upload', { upload_id: uploadId, offset: -1 })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  test('edge and core callers cannot use them: they are for the module that received the file', async () => {
    await expect(tp.platform.kernel.bus.call({ kind: 'edge', via: 'http' }, 'files.read_upload', { upload_id: uploadId }, { tenantId: acme.tenantId, user: null })).rejects.toMatchObject({ status: 403 });
  });

  test('removal by its module deletes it for good', async () => {
    expect(await raw('keeper', 'files.remove_upload', { upload_id: uploadId })).toEqual({ removed: true });
    await expect(raw('keeper', 'files.read_upload', { upload_id: uploadId })).rejects.toMatchObject({ status: 404 });
  });
});
