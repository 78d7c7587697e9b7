/**
 * Issue 4 item 1 and "Done means" (a tampered package or a bad signature is refused): publishing real
 * packages over HTTP, integrity on download and on use, ed25519 publisher signatures, publisher
 * tokens and alias ownership. DESIGN.md, Rings and the registry.
 */
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { pack, promote, publish, rawRequest, tenantIn } from '../rings/support';

const keyPair = () => generateKeyPairSync('ed25519');
const pemOf = (k: ReturnType<typeof keyPair>['publicKey']) => k.export({ type: 'spki', format: 'pem' }).toString();

/** A .tgz holding the given files, made the way any tar tool would. */
async function tarball(files: Record<string, string>): Promise<Buffer> {
  const archive = tar.pack();
  const chunks: Buffer[] = [];
  archive.on('data', (c: unknown) => chunks.push(c as Buffer));
  const done = new Promise<void>((resolve) => archive.on('end', () => resolve()));
  for (const [name, content] of Object.entries(files)) archive.entry({ name }, content);
  archive.finalize();
  await done;
  return promisify(zlib.gzip)(Buffer.concat(chunks));
}

describe('issue 4 item 1: the registry', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;

  beforeAll(async () => {
    tp = await startTestPlatform({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'mandi-data-')) });
    owner = await tp.install('acme');
  }, 120_000);
  afterAll(() => tp?.close());

  test('publishing records sha256 and size; listing, details and download agree; the bytes are checked on the way out', async () => {
    const pkg = await pack('stock@1.0.0');
    const res = await publish(tp, owner.token, 'stock@1.0.0');
    expect(res.status).toBe(201);
    expect(res.body.package).toMatchObject({
      alias: 'stock',
      version: '1.0.0',
      sha256: pkg.sha256,
      size: pkg.size,
      signed: false,
      publisher: null,
      compatible: true,
      platform_range: '^2.0.0',
      published_by: `user:${owner.userId}`,
    });
    await publish(tp, owner.token, 'stock@1.1.0');

    const list = await tp.api('/registry/modules', { token: owner.token });
    expect(list.body.modules).toEqual([{ alias: 'stock', latest: '1.1.0', versions: ['1.1.0', '1.0.0'], description: expect.stringContaining('1.1.0') }]);
    const detail = await tp.api('/registry/modules/stock/1.0.0', { token: owner.token });
    expect(detail.body.manifest).toMatchObject({ name: 'stock', version: '1.0.0', data: { migrations: [{ id: '001_seed_locations' }] } });

    const download = await rawRequest(tp, 'GET', '/registry/modules/stock/1.0.0/package', { token: owner.token });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/gzip');
    expect(download.headers.get('x-mandi-sha256')).toBe(pkg.sha256);
    expect(createHash('sha256').update(download.bytes).digest('hex')).toBe(pkg.sha256);
  });

  test('a published version is final: 409, also when two publishes race', async () => {
    const again = await publish(tp, owner.token, 'stock@1.0.0');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'VERSION_EXISTS', details: { module: 'stock', version: '1.0.0' } });
    const race = await Promise.all([publish(tp, owner.token, 'stock@1.2.0'), publish(tp, owner.token, 'stock@1.2.0')]);
    expect(race.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  test('what is not a valid package is refused with the reasons, before anything is stored', async () => {
    const garbage = await rawRequest(tp, 'POST', '/registry/packages', { token: owner.token, body: Buffer.from('not a tarball') });
    expect(garbage.status).toBe(422);
    expect(garbage.body.code).toBe('PACKAGE_INVALID');

    const bad = await tarball({ 'module.json': JSON.stringify({ name: 'Bad Name', version: 'one', compatibility: { platform: '^2.0.0' } }), 'dist/index.js': '' });
    const res = await rawRequest(tp, 'POST', '/registry/packages', { token: owner.token, body: bad });
    expect(res.status).toBe(422);
    expect(res.body.details.issues.map((i: { pointer: string }) => i.pointer)).toEqual(expect.arrayContaining(['/name', '/version']));

    const escape = await tarball({ '../evil.js': 'x' });
    const refused = await rawRequest(tp, 'POST', '/registry/packages', { token: owner.token, body: escape });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/escapes the package/);
    expect((await tp.api('/registry/modules', { token: owner.token })).body.modules.map((m: { alias: string }) => m.alias)).toEqual(['stock']);
  });

  test('only super admins and publisher tokens reach the registry', async () => {
    expect((await tp.api('/registry/modules')).status).toBe(401);
    const tenant = await tenantIn(tp, owner, 'shop', 'stable');
    const asMember = await tp.api('/registry/modules', { token: tenant.token });
    expect(asMember.status).toBe(403);
  });

  test('a stored package altered on disk is refused on download and on promotion (every load of a package goes through the same sha256 check)', async () => {
    const sha = (await pack('stock@1.1.0')).sha256;
    const file = tp.platform.registry.blobs.locate(sha);
    const bytes = readFileSync(file);
    bytes[bytes.length - 5] ^= 0xff;
    writeFileSync(file, bytes);

    const download = await rawRequest(tp, 'GET', '/registry/modules/stock/1.1.0/package', { token: owner.token });
    expect(download.status).toBe(500);
    expect(download.body).toMatchObject({ code: 'PACKAGE_INTEGRITY', details: { expected_sha256: sha } });

    const promoted = await promote(tp, owner.token, 'canary', 'stock', '1.1.0');
    expect(promoted.status).toBe(500);
    expect(promoted.body.code).toBe('PACKAGE_INTEGRITY');
    expect((await tp.api('/rings/canary', { token: owner.token })).body.ring.release.modules).toEqual({});
  });

  describe('publishers and signatures', () => {
    const signed = keyPair();
    const other = keyPair();
    let acmeToken: string;
    let plainToken: string;

    beforeAll(async () => {
      const created = await tp.api('/registry/publishers', { token: owner.token, body: { name: 'acme-labs', public_key: pemOf(signed.publicKey) } });
      expect(created.status).toBe(201);
      expect(created.body.token).toMatch(/^mndp_[0-9A-Za-z]{40}$/);
      acmeToken = created.body.token;
      const raw = signed.publicKey.export({ type: 'spki', format: 'der' }).subarray(-32).toString('base64');
      expect((await tp.api('/registry/publishers', { token: owner.token, body: { name: 'raw-key', public_key: raw } })).status).toBe(201);
      plainToken = (await tp.api('/registry/publishers', { token: owner.token, body: { name: 'no-key' } })).body.token;
      const invalid = await tp.api('/registry/publishers', { token: owner.token, body: { name: 'bad-key', public_key: 'not a key' } });
      expect(invalid.status).toBe(422);
    });

    test('a publisher with a key must sign; a wrong or mismatched signature is refused', async () => {
      const pkg = await pack('shelf@1.0.0');
      const unsigned = await publish(tp, acmeToken, 'shelf@1.0.0');
      expect(unsigned.status).toBe(422);
      expect(unsigned.body.code).toBe('SIGNATURE_REQUIRED');

      const wrongKey = await publish(tp, acmeToken, 'shelf@1.0.0', { 'x-mandi-signature': sign(null, pkg.buffer, other.privateKey).toString('base64') });
      expect(wrongKey.status).toBe(422);
      expect(wrongKey.body.code).toBe('SIGNATURE_INVALID');

      // The signature of one package does not vouch for other bytes (a package altered after signing),
      // here sent by a super admin publishing as acme-labs.
      const stock = await pack('stock@1.3.0');
      const swapped = await rawRequest(tp, 'POST', '/registry/packages', {
        token: owner.token,
        body: stock.buffer,
        headers: { 'x-mandi-signature': sign(null, pkg.buffer, signed.privateKey).toString('base64'), 'x-mandi-publisher': 'acme-labs' },
      });
      expect(swapped.status).toBe(422);
      expect(swapped.body.code).toBe('SIGNATURE_INVALID');

      const garbled = await publish(tp, acmeToken, 'shelf@1.0.0', { 'x-mandi-signature': 'AAAA' });
      expect(garbled.body.code).toBe('SIGNATURE_INVALID');
    });

    test('a good signature is verified and recorded; the alias then belongs to that publisher', async () => {
      const pkg = await pack('shelf@1.0.0');
      const ok = await publish(tp, acmeToken, 'shelf@1.0.0', { 'x-mandi-signature': sign(null, pkg.buffer, signed.privateKey).toString('base64') });
      expect(ok.status).toBe(201);
      expect(ok.body.package).toMatchObject({ alias: 'shelf', signed: true, publisher: 'acme-labs', published_by: expect.stringMatching(/^publisher:\d+$/) });
      const row = await tp.platform.registry.service.require('shelf', '1.0.0');
      expect(row.signature).toBe(sign(null, pkg.buffer, signed.privateKey).toString('base64'));

      // Another publisher may not publish that alias.
      const taken = await publish(tp, plainToken, 'shelf@1.0.0');
      expect(taken.status).toBe(403);
      expect(taken.body.code).toBe('ALIAS_OWNED');
    });

    test('a publisher without a key publishes unsigned; a signature it cannot have verified is refused', async () => {
      const pkg = await pack('stock@2.0.0');
      const signedAnyway = await publish(tp, owner.token, 'stock@2.0.0', {
        'x-mandi-signature': sign(null, pkg.buffer, other.privateKey).toString('base64'),
        'x-mandi-publisher': 'no-key',
      });
      expect(signedAnyway.status).toBe(422);
      expect(signedAnyway.body.code).toBe('SIGNATURE_UNVERIFIABLE');
      // stock was first published by a super admin without a publisher: not this publisher's alias.
      const owned = await publish(tp, plainToken, 'stock@2.0.0');
      expect(owned.status).toBe(403);
      expect(owned.body.code).toBe('ALIAS_OWNED');
      // A super admin may publish it unsigned on behalf of the keyless publisher.
      const unsigned = await publish(tp, owner.token, 'stock@2.0.0', { 'x-mandi-publisher': 'no-key' });
      expect(unsigned.status).toBe(201);
      expect(unsigned.body.package).toMatchObject({ publisher: 'no-key', signed: false });
    });

    test('publisher tokens read rings but may not change them or manage publishers; a rotated token stops working', async () => {
      expect((await tp.api('/rings', { token: acmeToken })).status).toBe(200);
      expect((await tp.api('/rings/canary/promote', { token: acmeToken, body: { module: 'shelf', version: '1.0.0' } })).status).toBe(403);
      expect((await tp.api('/registry/publishers', { token: acmeToken })).status).toBe(403);
      expect((await tp.api('/rings/operations', { token: acmeToken })).status).toBe(403);
      expect((await tp.api('/rings/canary/tenants', { token: acmeToken })).status).toBe(403);
      const rotated = await tp.api('/registry/publishers/acme-labs/token', { token: owner.token, body: {} });
      expect(rotated.body.token).toMatch(/^mndp_/);
      expect((await tp.api('/registry/modules', { token: acmeToken })).status).toBe(401);
      expect((await tp.api('/registry/modules', { token: rotated.body.token })).status).toBe(200);
    });
  });
});
