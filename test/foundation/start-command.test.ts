import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../support/free-port';

/**
 * Issue 2, Done means: the start command boots with no PostgreSQL or Redis configured (embedded
 * PostgreSQL, in-process drivers) and GET /api/v1/health answers. Runs `npm start`'s command.
 */
describe('README: the start command on a machine with nothing configured', () => {
  test('boots with embedded PostgreSQL, answers /health, prints how to install, stops on SIGTERM', async () => {
    // Inside the project (not a 0700 temp dir): as root, PostgreSQL runs as the `postgres` user and must reach it.
    const root = path.resolve(__dirname, '../..');
    const dataDir = path.join(root, 'data', `start-test-${process.pid}`);
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()), LOG_LEVEL: 'warn' };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    const child = spawn(process.execPath, ['--import', 'tsx', 'core/main.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL printed in 90 s:\n${out}`)), 90_000);
        child.stdout.on('data', () => {
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]);
          }
        });
        child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${out}`)));
      });
      expect(out).toMatch(/\/api\/v1\/install\/owner/);
      const health = await (await fetch(`${url}/api/v1/health`)).json();
      expect(health).toMatchObject({ status: 'ok', database: { state: 'up', embedded: true }, redis: { state: 'not_configured' } });
      expect(fs.existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

