/**
 * Real platform processes (core/main.ts, as `./run start` runs it) for tests that kill a node
 * mid-work and watch another finish it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { databaseUrl } from '../../core/kernel/data/pg-admin';
import { eventually } from './eventually';
import { freePort } from './free-port';
import { apiClient, testServerUrl } from './test-platform';

const root = path.resolve(__dirname, '../..');

export interface PlatformProcess {
  child: ChildProcess;
  /** Everything it printed, for the failure message. */
  output: () => string;
}

/**
 * The settings of a node of a test's own platform: its central database on the test server, its
 * own Redis prefix and data folder (shared by its nodes), quiet logs; `extra` adds or overrides.
 */
export function platformProcessEnv(o: { port: number; centralDb: string; dataDir: string; modulePaths: string[] }, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'test',
    PORT: String(o.port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl(testServerUrl(), o.centralDb),
    REDIS_PREFIX: `mandi-test-${o.centralDb}`,
    DATA_DIR: o.dataDir,
    MODULE_PATHS: o.modulePaths.join(':'),
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

export function startPlatformProcess(env: NodeJS.ProcessEnv): PlatformProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'core/main.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return { child, output: () => out };
}

/**
 * Starts a node on a free port with `env(port)`, adds it to `nodes` (for stopPlatformProcesses) and
 * resolves once it serves, with a client for its API.
 */
export async function startServingNode(env: (port: number) => NodeJS.ProcessEnv, nodes: PlatformProcess[]): Promise<{ node: PlatformProcess; api: ReturnType<typeof apiClient> }> {
  const port = await freePort();
  const node = startPlatformProcess(env(port));
  nodes.push(node);
  const api = apiClient(`http://127.0.0.1:${port}`);
  await serving(node, api);
  return { node, api };
}

/** Resolves once the process answers /health; throws with its output if it never does. */
export async function serving(node: PlatformProcess, api: ReturnType<typeof apiClient>): Promise<void> {
  const health = await eventually(() => api('/health').then((r) => r.status, () => 0), (s) => s === 200, 90_000);
  if (health !== 200) throw new Error(`node not serving:\n${node.output().slice(-4000)}`);
}

/** Stops the processes still running (SIGTERM), each awaited. */
export async function stopPlatformProcesses(nodes: readonly PlatformProcess[]): Promise<void> {
  for (const { child } of nodes) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}
