/**
 * The parent side of a benchmarked server: forks a bench/servers/*.ts file under tsx, waits for its
 * URL, asks it for its CPU time, and stops it. The child's stdout goes to /dev/null: what a server
 * logs is then paid for in serialising and writing, not in the parent reading it back (the parent is
 * the load generator and must not be slowed by it).
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { ChildMessage, ParentMessage } from '../servers/serve-in-child';

export interface ChildServer {
  name: string;
  url: string;
  pid: number;
  /** CPU time (user + system) the child has used so far, in microseconds, and its resident memory. */
  stats(): Promise<{ cpuMicros: number; rssBytes: number }>;
  /** Starts the child's CPU profiler (inspector), so only the measured window is sampled. */
  startProfile(): Promise<void>;
  /** Stops it and writes a .cpuprofile (Chrome DevTools opens it) to file. */
  stopProfile(file: string): Promise<void>;
  stop(): Promise<void>;
}

export interface ChildServerOptions {
  /** The whole environment of the child (nothing is inherited but PATH and HOME). */
  env: Record<string, string>;
  readyTimeoutMs?: number;
  /** Aborting kills a child that is still starting (an interrupted run must not leave one booting). */
  signal?: AbortSignal;
}

const SERVERS_DIR = path.join(__dirname, '..', 'servers');

export async function startChildServer(name: string, script: string, opts: ChildServerOptions): Promise<ChildServer> {
  const child: ChildProcess = fork(path.join(SERVERS_DIR, script), [], {
    execArgv: ['--import', 'tsx'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...opts.env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const kill = () => child.kill('SIGKILL');
  opts.signal?.addEventListener('abort', kill, { once: true });

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name}: not ready after ${opts.readyTimeoutMs ?? 60_000} ms`));
    }, opts.readyTimeoutMs ?? 60_000);
    const onMessage = (m: ChildMessage) => {
      if (m.type === 'ready') {
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(m.url);
      } else if (m.type === 'error') {
        clearTimeout(timer);
        reject(new Error(`${name} failed to start:\n${m.message}`));
      }
    };
    child.on('message', onMessage);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with code ${code} before it was ready`));
    });
  }).finally(() => opts.signal?.removeEventListener('abort', kill));

  /** Sends a message and waits for the child's answer of the given type. */
  const ask = <T extends ChildMessage['type']>(m: ParentMessage, reply: T): Promise<Extract<ChildMessage, { type: T }>> =>
    new Promise((resolve, reject) => {
      const onMessage = (answer: ChildMessage) => {
        if (answer.type !== reply) return;
        child.off('message', onMessage);
        resolve(answer as Extract<ChildMessage, { type: T }>);
      };
      child.on('message', onMessage);
      void exited.then((code) => reject(new Error(`${name} exited with code ${code} while asked for ${reply}`)));
      child.send(m, (err) => {
        if (!err) return;
        child.off('message', onMessage);
        reject(err);
      });
    });
  let stopped: Promise<void> | undefined;
  return {
    name,
    url,
    pid: child.pid!,
    stats: async () => {
      const { cpuMicros, rssBytes } = await ask({ type: 'stats' }, 'stats');
      return { cpuMicros, rssBytes };
    },
    startProfile: async () => {
      await ask({ type: 'profile-start' }, 'profile-started');
    },
    stopProfile: async (file) => {
      await ask({ type: 'profile-stop', file }, 'profile-written');
    },
    stop: () =>
      (stopped ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        // A server that does not stop in time is killed, so a stuck child cannot hang the run.
        const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.send({ type: 'stop' } satisfies ParentMessage, (err) => {
          if (err) child.kill('SIGTERM');
        });
        await exited;
        clearTimeout(kill);
      })()),
  };
}
