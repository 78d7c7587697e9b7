/**
 * `mandi module dev [dir]`: the author's inner loop. Builds the module, runs a local platform with it
 * as a development module (MODULE_PATHS), installs it in a development tenant, and on every change
 * under the folder rebuilds, restarts the platform and installs again (same version: new models and
 * migrations are applied, the data stays). A build that fails is reported and the running platform
 * keeps the last good build.
 *
 * Why a restarted child process and not a reload inside one: the platform caches a module's code,
 * validators, routes, GraphQL schema and catalogs per alias@version, and a development build changes
 * code without changing the version; a fresh process is the one way nothing stale survives.
 *
 * The platform is the one `npm start` runs (same DATA_DIR, DATABASE_URL, REDIS_URL). The first run
 * on a platform without an owner creates the tenant `dev` and keeps its token in
 * <DATA_DIR>/dev-session.json; on a platform someone already installed, pass --token and --tenant.
 * Module log lines (host.log) and platform errors are shown; other platform logs are not.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { buildModule, type BuildResult } from '../build/build-module';
import type { Manifest } from '../manifest/manifest.types';
import { CliError, EXIT } from './api-client';
import { invokedFrom } from './invoked-from';
import { platformAction } from './platform-command';
import { detail, formatBytes, reportError, step, warn } from './output';

const REPO_ROOT = path.resolve(__dirname, '../..');
/** Changes under these are not the module's source (build output, packages, dependencies, tests). */
const IGNORED = /(^|[\\/])(dist|node_modules|test|\.git)([\\/]|$)|\.tgz$|~$|\.swp$/;
const DEBOUNCE_MS = 250;

interface DevOptions {
  port: string;
  token?: string;
  tenant?: string;
}

interface Session {
  token: string;
  tenant: string;
}

export function registerDevCommand(module: Command): void {
  module
    .command('dev [dir]')
    .description('run a local platform with this module installed in a dev tenant; rebuild, restart and reinstall on every change')
    .option('-p, --port <port>', 'port of the local platform (0: any free port)', process.env.PORT ?? '3000')
    .option('--token <token>', 'token of a tenant admin, when the platform already has an owner (default: $MANDI_TOKEN)')
    .option('--tenant <tenant>', 'tenant to install into with --token (default: $MANDI_TENANT)')
    .action(platformAction((dir: string | undefined, opts: DevOptions) => runDev(path.resolve(invokedFrom(), dir ?? '.'), opts)));
}

async function runDev(root: string, opts: DevOptions): Promise<void> {
  // The build first: a declared module's module.json is its output.
  let { manifest, declared } = await build(root);
  const env = platformEnv(root, opts.port);
  let platform = await startPlatform(env);
  step(`platform on ${platform.url} (data in ${env.DATA_DIR})`);
  const session = await devSession(platform.url, env.DATA_DIR!, opts);
  await install(platform.url, session, manifest);
  step(`${manifest.name}@${manifest.version} installed in tenant ${session.tenant}`);
  const route = manifest.http?.routes?.find((r) => r.method === 'GET' && !r.path.includes(':'));
  if (route) detail(`try: curl -H 'X-Tenant: ${session.tenant}' -H 'Authorization: Bearer ${session.token}' ${platform.url}/api/v1${route.path}`);
  detail(`watching ${root}; Ctrl-C stops`);

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const changed = new Set<string>();
  const reload = async () => {
    // Editors write through temporary files: name what is still there.
    const files = [...changed].filter((f) => existsSync(path.join(root, f)));
    changed.clear();
    const started = Date.now();
    try {
      ({ manifest, declared } = await build(root));
    } catch (err) {
      report(err);
      warn('the platform keeps running the last good build');
      return;
    }
    await platform.stop();
    platform = await startPlatform({ ...env, PORT: new URL(platform.url).port });
    await install(platform.url, session, manifest);
    step(`${files.join(', ') || 'files'} changed: rebuilt, restarted and reinstalled in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  };
  const watcher: FSWatcher = watch(root, { recursive: true }, (_event, file) => {
    // A declared module's module.json is the build's output, like dist/: its own change is no edit.
    if (!file || IGNORED.test(file) || (declared && file === 'module.json')) return;
    changed.add(file);
    clearTimeout(timer);
    // One reload at a time: changes made during a reload start the next one.
    timer = setTimeout(() => (running = running.then(reload).catch(report)), DEBOUNCE_MS);
  });

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      watcher.close();
      clearTimeout(timer);
      void running.then(() => platform.stop()).then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  step('stopped');
}

/** A failed reload is told and the loop goes on: the author fixes the file and saves again. */
function report(err: unknown): void {
  if (err instanceof CliError) process.stderr.write(`✖ ${err.message}\n`);
  else reportError(err);
}

async function build(root: string): Promise<BuildResult> {
  const result = await buildModule(root);
  step(`bundled ${path.relative(root, result.outfile)} (${formatBytes(result.bytes)}) in ${result.durationMs} ms`);
  for (const w of result.warnings) warn(w);
  return result;
}

/** The environment `npm start` would have, with this module among the development modules. */
function platformEnv(root: string, port: string): NodeJS.ProcessEnv {
  const modulePaths = [...(process.env.MODULE_PATHS ?? '').split(':').filter(Boolean), root];
  return {
    ...process.env,
    MODULE_PATHS: [...new Set(modulePaths)].join(':'),
    PORT: port,
    // The platform's ./data by default, like npm start: dev and start share one local platform.
    DATA_DIR: path.resolve(REPO_ROOT, process.env.DATA_DIR ?? 'data'),
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  };
}

interface RunningPlatform {
  url: string;
  stop(): Promise<void>;
}

/** Starts core/main.ts as `npm start` does and resolves once it listens. */
async function startPlatform(env: NodeJS.ProcessEnv): Promise<RunningPlatform> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'core/main.ts')], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    void exited.then((code) => reject(new CliError(`the platform stopped while starting (exit code ${code}); its message is above`, EXIT.unavailable)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const listening = /listening on (http:\/\/\S+)/.exec(line);
      if (listening) resolve(listening[1]);
      else showLogLine(line);
    });
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Shows the module's own log lines (host.log) and the platform's errors; hides the rest. */
function showLogLine(line: string): void {
  let entry: { level?: number; msg?: string; module?: string; data?: unknown; err?: { message?: string } };
  try {
    entry = JSON.parse(line);
  } catch {
    return;
  }
  const level = entry.level ?? 30;
  if (entry.module) {
    const data = entry.data === undefined ? '' : ` ${JSON.stringify(entry.data)}`;
    process.stdout.write(`  [${entry.module}] ${level >= 50 ? 'error: ' : level >= 40 ? 'warn: ' : ''}${entry.msg ?? ''}${data}\n`);
  } else if (level >= 50) {
    process.stderr.write(`! platform: ${entry.msg ?? ''}${entry.err?.message ? ` (${entry.err.message})` : ''}\n`);
  }
}

/** The development tenant and its admin token: remembered, given, or made on a fresh platform. */
async function devSession(url: string, dataDir: string, opts: DevOptions): Promise<Session> {
  const given = opts.token ?? process.env.MANDI_TOKEN;
  const tenant = opts.tenant ?? process.env.MANDI_TENANT;
  if (given) {
    if (!tenant) throw new CliError('--token needs --tenant (or $MANDI_TENANT): the tenant to install the module into', EXIT.usage);
    return { token: given, tenant };
  }
  const file = path.join(dataDir, 'dev-session.json');
  const saved = await readFile(file, 'utf8').then((text) => JSON.parse(text) as Session, () => undefined);
  if (saved) return saved;
  const res = await fetch(`${url}/api/v1/install/owner`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      organization_name: 'Dev',
      organization_slug: 'dev',
      name: 'Module Author',
      email: 'author@dev.example',
      password: randomBytes(18).toString('base64url'),
    }),
  });
  const body = (await res.json()) as { token?: string; tenant?: { alias?: string }; message?: string };
  if (res.status !== 201 || !body.token) {
    throw new CliError(`this platform already has an owner (${body.message ?? res.status}); pass --token and --tenant of a tenant admin`, EXIT.usage);
  }
  const session = { token: body.token, tenant: body.tenant?.alias ?? 'dev' };
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, JSON.stringify(session, null, 2), { mode: 0o600 });
  return session;
}

async function install(url: string, session: Session, manifest: Manifest): Promise<void> {
  const res = await fetch(`${url}/api/v1/modules/${manifest.name}/install?wait=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}`, 'x-tenant': session.tenant },
    body: '{}',
  });
  if (res.ok) return;
  const body = (await res.json().catch(() => ({}))) as { message?: string; code?: string };
  throw new CliError(`installing ${manifest.name} in tenant ${session.tenant} failed: ${body.message ?? res.status}${body.code ? ` (${body.code})` : ''}`, res.status === 401 || res.status === 403 ? EXIT.auth : EXIT.refused);
}
