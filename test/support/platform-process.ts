/**
 * Real platform processes (core/main.ts, as `./run start` runs it) for tests that kill a node
 * mid-work and watch another finish it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { eventually } from './eventually';
import type { apiClient } from './test-platform';

const root = path.resolve(__dirname, '../..');

export interface PlatformProcess {
  child: ChildProcess;
  /** Everything it printed, for the failure message. */
  output: () => string;
}

export function startPlatformProcess(env: NodeJS.ProcessEnv): PlatformProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'core/main.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return { child, output: () => out };
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
