/**
 * DESIGN.md layout, sdk/: `mandi module dev` runs a local platform with the module installed in a
 * dev tenant, and rebuilds, restarts and reinstalls it when a file changes; a broken build leaves the
 * last good one running. Runs the real command against the test PostgreSQL server.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { databaseUrl, dropDatabase } from '../../core/kernel/data/pg-admin';
import { initModule } from '../../sdk/scaffold/init-module';
import { testServerUrl } from '../support/test-platform';

const ROOT = path.resolve(__dirname, '../..');

describe('sdk: mandi module dev', () => {
  test('serves the module, picks up a change, survives a broken build, stops on Ctrl-C', async () => {
    const parent = mkdtempSync(path.join(os.tmpdir(), 'mandi-dev-'));
    const { dir } = await initModule('greeter', parent);
    const central = `mandi_dev_${randomBytes(4).toString('hex')}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: databaseUrl(testServerUrl(), central),
      DATA_DIR: path.join(parent, 'data'),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    };
    delete env.REDIS_URL;
    delete env.MANDI_TOKEN;
    const cli = spawn(process.execPath, ['--import', 'tsx', 'sdk/cli/main.ts', 'module', 'dev', dir, '--port', '0'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    cli.stdout.on('data', (d: Buffer) => (out += d.toString()));
    cli.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => cli.on('exit', resolve));
    /** Resolves once the output (from `from` on) matches. */
    const printed = (pattern: RegExp, from = 0) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`not printed in 90 s: ${pattern}\n${out}`)), 90_000);
        const check = () => {
          const m = pattern.exec(out.slice(from));
          if (m) {
            clearTimeout(timer);
            cli.stdout.off('data', check);
            cli.stderr.off('data', check);
            resolve(m);
          }
        };
        cli.stdout.on('data', check);
        cli.stderr.on('data', check);
        check();
      });
    try {
      const hint = await printed(/curl -H 'X-Tenant: (\S+)' -H 'Authorization: Bearer (\S+)' (http:\/\/\S+)/);
      const [, tenant, token, route] = hint;
      expect(out).toMatch(/greeter@0\.1\.0 installed in tenant dev/);
      const greet = async () => {
        const res = await fetch(`${route}?who=Ada`, { headers: { 'x-tenant': tenant, authorization: `Bearer ${token}` } });
        return { status: res.status, body: (await res.json()) as { message?: string } };
      };
      expect(await greet()).toMatchObject({ status: 200, body: { message: 'Hello, Ada!' } });
      // The module's own log line (host.log) is shown.
      await printed(/\[greeter@0\.1\.0\] greeting \{"who":"Ada"/);

      const source = path.join(dir, 'src/index.ts');
      let mark = out.length;
      writeFileSync(source, readFileSync(source, 'utf8').replace('Hello, ', 'Howdy, '));
      await printed(/src\/index\.ts changed: rebuilt, restarted and reinstalled/, mark);
      expect(await greet()).toMatchObject({ status: 200, body: { message: 'Howdy, Ada!' } });

      mark = out.length;
      writeFileSync(source, `${readFileSync(source, 'utf8')}\nexport const broken = ;\n`);
      await printed(/the platform keeps running the last good build/, mark);
      expect(await greet()).toMatchObject({ status: 200, body: { message: 'Howdy, Ada!' } });

      cli.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(out).toMatch(/✔ stopped/);
      await expect(fetch(route)).rejects.toThrow();
    } finally {
      if (cli.exitCode === null) cli.kill('SIGKILL');
      await dropDatabase(testServerUrl(), central).catch(() => undefined);
    }
  }, 180_000);
});
