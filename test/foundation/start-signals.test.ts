import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { freePort } from '../support/free-port';

/**
 * docs/reference/operations.md (stopping): `./run start` ends in `npm start`, so a process manager's SIGTERM (systemd,
 * docker stop, kill <pid>) reaches npm, not the platform. npm passes it to its script's shell; the
 * shell must hand it on (exec), else the platform and its embedded PostgreSQL outlive npm as orphans.
 * A start that fails must say why in one line and stop the embedded PostgreSQL it started.
 */
const root = path.resolve(__dirname, '../..');

async function npmStart(name: string, env: Record<string, string>, ownGroup = false) {
  // Inside the project (not a 0700 temp dir): as root, PostgreSQL runs as the `postgres` user and must reach it.
  const dataDir = path.join(root, 'data', `${name}-${process.pid}`);
  const full: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()), LOG_LEVEL: 'info', ...env };
  delete full.DATABASE_URL;
  delete full.REDIS_URL;
  // ownGroup: a process group of its own, as a terminal gives the command it runs (Ctrl-C signals the group).
  const npm = spawn('npm', ['start', '--silent'], { cwd: root, env: full, stdio: ['ignore', 'pipe', 'pipe'], detached: ownGroup });
  const run = { npm, dataDir, postmasterPid: path.join(dataDir, 'postgres', 'postmaster.pid'), out: '', exited: new Promise<number | string | null>((resolve) => npm.on('exit', (code, signal) => resolve(code ?? signal))),
    // Every process that shares npm's output (the platform too) has ended.
    closed: new Promise<void>((resolve) => npm.on('close', () => resolve())) };
  npm.stdout.on('data', (d: Buffer) => (run.out += d.toString()));
  npm.stderr.on('data', (d: Buffer) => (run.out += d.toString()));
  return run;
}

/** Stops what a failed run left behind (the platform, its PostgreSQL) and removes its data dir. */
async function cleanUp(run: Awaited<ReturnType<typeof npmStart>>): Promise<void> {
  if (run.npm.exitCode === null) run.npm.kill('SIGKILL');
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let cmd = '';
    let environ = '';
    try {
      cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
    } catch {
      continue;
    }
    if (cmd.includes('core/main.ts') && environ.split('\0').includes(`DATA_DIR=${run.dataDir}`)) process.kill(Number(pid), 'SIGTERM');
    // A PostgreSQL left behind by a platform that is gone: SIGINT is its fast shutdown.
    else if (cmd.includes('bin/postgres') && cmd.includes(run.dataDir)) process.kill(Number(pid), 'SIGINT');
  }
  for (let i = 0; i < 150 && fs.existsSync(run.postmasterPid); i++) await new Promise((r) => setTimeout(r, 100));
  fs.rmSync(run.dataDir, { recursive: true, force: true });
}

function listening(run: Awaited<ReturnType<typeof npmStart>>): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed in 90 s:\n${run.out}`)), 90_000);
    run.npm.stdout.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(run.out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    void run.exited.then((code) => reject(new Error(`exited with ${code}:\n${run.out}`)));
  });
}

describe('docs/reference/operations.md, stopping: npm start stops the platform and its embedded PostgreSQL on SIGTERM and Ctrl-C', () => {
  test('SIGTERM to the npm process shuts the platform down: port closed, PostgreSQL stopped', async () => {
    const run = await npmStart('start-signals', {});
    try {
      const url = await listening(run);
      expect(fs.existsSync(run.postmasterPid)).toBe(true);
      run.npm.kill('SIGTERM');
      await run.closed; // 'exit' may come before the last output is read
      expect(`npm exited with ${await run.exited}\n${run.out}`).toMatch(/^npm exited with 0\n/);
      expect(run.out).toMatch(/"signal":"SIGTERM".*shutting down[\s\S]*"msg":"stopped"/);
      await expect(fetch(`${url}/api/v1/health`)).rejects.toThrow();
      // PostgreSQL removes its pid file when it has shut down.
      expect(fs.existsSync(run.postmasterPid)).toBe(false);
    } finally {
      await cleanUp(run);
    }
  }, 150_000);

  test('Ctrl-C (SIGINT to the whole process group, passed on again by npm) completes the shutdown', async () => {
    const run = await npmStart('start-ctrl-c', {}, true);
    try {
      const url = await listening(run);
      process.kill(-run.npm.pid!, 'SIGINT');
      await run.closed;
      // Repeated SIGINTs must not end the process before the platform has stopped. (npm's exit code heads the text, should this fail.)
      expect(`npm exited with ${await run.exited}\n${run.out}`).toMatch(/"signal":"SIGINT".*shutting down[\s\S]*"msg":"stopped"/);
      await expect(fetch(`${url}/api/v1/health`)).rejects.toThrow();
      expect(fs.existsSync(run.postmasterPid)).toBe(false);
    } finally {
      await cleanUp(run);
    }
  }, 150_000);

  test('a start on a port already in use says so in one line and stops the embedded PostgreSQL it started', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    const run = await npmStart('start-port-taken', { PORT: String(port) });
    try {
      await run.closed;
      expect(await run.exited).toBe(1);
      expect(run.out).toContain(`Mandi failed to start: port ${port} on 127.0.0.1 is already in use. Stop what listens there, or set PORT to another port`);
      expect(run.out).not.toMatch(/\n\s+at /); // no stack trace
      expect(run.out).toMatch(/starting embedded PostgreSQL/);
      expect(fs.existsSync(run.postmasterPid)).toBe(false);
    } finally {
      taken.close();
      await cleanUp(run);
    }
  }, 150_000);
});
