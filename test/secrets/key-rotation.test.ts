/**
 * The platform key: rotation from one APP_KEY to another with APP_KEY_PREVIOUS (values readable
 * throughout, re-encrypted in resumable batches, readable after the previous key is gone), and the
 * key file generated into DATA_DIR when APP_KEY is unset (taking over the key earlier versions
 * kept in the central database; nodes that disagree refuse to start).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { AppKeys } from '../../core/kernel/secrets/app-key';
import { dropDatabase } from '../../core/kernel/data/pg-admin';
import { startTestPlatform, testServerUrl, type TestPlatform } from '../support/test-platform';
import { addFixtureModules, installVia } from '../bus/support';
import { secretFixture } from './support';

const ROOT = path.resolve(__dirname, '../..');

/** The real CLI in a child process (async: this process serves the platform meanwhile). */
const mandi = (args: string[], env: Record<string, string>) =>
  new Promise<{ code: number; out: string; err: string }>((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', path.join(ROOT, 'sdk/cli/main.ts'), ...args], { cwd: ROOT, env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr }),
    );
  });

const OLD = 'old-platform-key-0123456789abcdef0123456789';
const NEW = 'new-platform-key-fedcba9876543210fedcba9876';

describe('DESIGN Host capabilities for modules: the platform key and its rotation', () => {
  const db = `mandi_t_${randomBytes(5).toString('hex')}`;
  let a: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  const values = Object.fromEntries(['api_key', 'webhook_secret'].map((n) => [n, `${n}-value-${randomBytes(8).toString('hex')}`]));

  /**
   * Another node on the same central database (its tenant databases are node A's). The short-lived
   * nodes use the in-process drivers: keys and rotation live in PostgreSQL, and a bull queue closed
   * moments after it opened can reject with "Connection is closed" on the Redis path.
   */
  const brief = (env: Record<string, string>) => ({ REDIS_URL: '', ...env });
  const node = async (env: Record<string, string>) => {
    const tp = await startTestPlatform(env, db);
    await addFixtureModules(tp, ['vault'], secretFixture);
    return tp;
  };
  const read = (tp: TestPlatform, name: string) => tp.platform.kernel.bus.call({ kind: 'core' }, 'vault.get', { name }, { tenantId: owner.tenantId, user: null });
  const keyIds = async () => (await a.platform.central.models.ModuleSecret.findAll({ order: [['name', 'ASC']] })).map((r) => r.key_id);

  beforeAll(async () => {
    a = await node({ APP_KEY: OLD });
    owner = await a.install('acme');
    await installVia(a, owner.token, 'acme', 'vault');
    for (const [name, value] of Object.entries(values)) await a.platform.kernel.bus.call({ kind: 'core' }, 'vault.set', { name, value }, { tenantId: owner.tenantId, user: null });
  }, 120_000);
  afterAll(async () => {
    await a?.close();
    await dropDatabase(testServerUrl(), db);
  });

  test('APP_KEY_PREVIOUS keeps old values readable; the rotation moves them in batches, resumably; afterwards the old key can go', async () => {
    const oldId = a.platform.keys.keyId;
    // A 2FA secret in the format before key ids (iv.tag.ciphertext): rotated too.
    const totp = (await a.platform.keys.encrypt('totp-secret', 'JBSWY3DPEHPK3PXP')).split('.').slice(1).join('.');
    await a.platform.central.sequelize.query(`INSERT INTO user_two_factor (user_id, secret_encrypted) VALUES ($1, $2)`, { bind: [owner.userId, totp] });
    // A new APP_KEY without the old one in APP_KEY_PREVIOUS would leave every value unreadable: refused.
    await expect(node(brief({ APP_KEY: NEW }))).rejects.toThrow(/is not this installation's .* APP_KEY_PREVIOUS/);

    const b = await node(brief({ APP_KEY: NEW, APP_KEY_PREVIOUS: OLD }));
    try {
      expect(b.platform.keys.keyId).not.toBe(oldId);
      expect(await read(b, 'api_key')).toEqual({ value: values.api_key });

      const forbidden = await b.api('/admin/secrets/rotate', { method: 'POST', body: {} });
      expect(forbidden.status).toBe(401);

      // Stopped after one batch of one row: one value moved, the other still under the old key, both readable.
      const partial = await b.api('/admin/secrets/rotate?batch_size=1&max_batches=1', { method: 'POST', token: owner.token, tenant: 'acme', body: {} });
      expect(partial).toMatchObject({ status: 200, body: { done: false, key_id: b.platform.keys.keyId, rotated: { module_secrets: 1 } } });
      expect(await keyIds()).toEqual([b.platform.keys.keyId, oldId]);
      for (const [name, value] of Object.entries(values)) expect(await read(b, name)).toEqual({ value });

      // The rest through the CLI, as an operator runs it.
      const cli = await mandi(['secrets', 'rotate', '--batch-size', '1'], { MANDI_URL: b.url, MANDI_TOKEN: owner.token });
      expect(cli).toMatchObject({ code: 0, err: '' });
      expect(cli.out).toContain(`every readable value is under key ${b.platform.keys.keyId}: module_secrets 1, user_two_factor 1, cli_release_channels 0`);
      expect(await keyIds()).toEqual([b.platform.keys.keyId, b.platform.keys.keyId]);
      const again = await b.api('/admin/secrets/rotate', { method: 'POST', token: owner.token, tenant: 'acme', body: {} });
      expect(again.body).toMatchObject({ done: true, rotated: { module_secrets: 0 } });
    } finally {
      await b.platform.stop();
    }

    const c = await node(brief({ APP_KEY: NEW }));
    try {
      for (const [name, value] of Object.entries(values)) expect(await read(c, name)).toEqual({ value });
      const [row] = await c.platform.central.sequelize.query<{ secret_encrypted: string }>(`SELECT secret_encrypted FROM user_two_factor WHERE user_id = $1`, { bind: [owner.userId], type: QueryTypes.SELECT });
      expect(row.secret_encrypted.startsWith(`${c.platform.keys.keyId}.`)).toBe(true);
      expect(await c.platform.keys.decrypt('totp-secret', row.secret_encrypted)).toBe('JBSWY3DPEHPK3PXP');
    } finally {
      await c.platform.stop();
    }
    // Node A still has only the old key: the values are no longer under it.
    await expect(read(a, 'api_key')).rejects.toMatchObject({ code: 'SECRET_UNREADABLE' });
  });

  test('unset APP_KEY: the key earlier versions kept in the central database moves into DATA_DIR/app.key (0600); a node without it refuses to start', async () => {
    const dirs = [1, 2, 3].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'mandi-key-')));
    const legacy = randomBytes(32);
    await a.platform.central.models.PlatformSetting.upsert({ key: 'app_key', value: { key: legacy.toString('base64') } });
    // A 2FA secret an earlier version encrypted under that key (no key id in the value).
    const earlier = (await new AppKeys({ current: legacy }).encrypt('totp-secret', 'JBSWY3DPEHPK3PXP')).split('.').slice(1).join('.');
    try {
      const d = await startTestPlatform(brief({ DATA_DIR: dirs[0] }), db);
      try {
        const file = path.join(dirs[0], 'app.key');
        expect(fs.statSync(file).mode & 0o777).toBe(0o600);
        expect(fs.readFileSync(file, 'utf8').trim()).toBe(`base64:${legacy.toString('base64')}`);
        expect(await d.platform.keys.decrypt('totp-secret', earlier)).toBe('JBSWY3DPEHPK3PXP');
        const stored = (await d.platform.central.models.PlatformSetting.findByPk('app_key'))!.value as Record<string, unknown>;
        expect(stored).toEqual({ key_id: d.platform.keys.keyId }); // only the fingerprint stays
      } finally {
        await d.platform.stop();
      }
      await expect(startTestPlatform(brief({ DATA_DIR: dirs[1] }), db)).rejects.toThrow(/already has a platform key .* set APP_KEY on every node/);
      fs.writeFileSync(path.join(dirs[2], 'app.key'), `base64:${randomBytes(32).toString('base64')}\n`);
      await expect(startTestPlatform(brief({ DATA_DIR: dirs[2] }), db)).rejects.toThrow(/is not this installation's/);

      // Upgrading and setting APP_KEY at once: the database-kept key joins the ring until the rotation moved its values.
      await a.platform.central.models.PlatformSetting.upsert({ key: 'app_key', value: { key: legacy.toString('base64') } });
      await a.platform.central.sequelize.query(`UPDATE user_two_factor SET secret_encrypted = $1`, { bind: [earlier] });
      const e = await startTestPlatform(brief({ APP_KEY: NEW }), db);
      try {
        expect(await e.platform.keys.decrypt('totp-secret', earlier)).toBe('JBSWY3DPEHPK3PXP');
        const rotated = await e.api('/admin/secrets/rotate', { method: 'POST', token: owner.token, tenant: 'acme', body: {} });
        expect(rotated.body).toMatchObject({ done: true, rotated: { user_two_factor: 1 }, unreadable: [] });
        expect((await e.platform.central.models.PlatformSetting.findByPk('app_key'))!.value).toEqual({ key_id: e.platform.keys.keyId });
      } finally {
        await e.platform.stop();
      }
    } finally {
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
