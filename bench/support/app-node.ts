/**
 * An app node of a socket benchmark as its own child process: the bench file forks itself with a
 * marker variable set, the child starts the platform (serveInChild) and answers the runner's requests
 * over IPC (`ask`), while the runner's process holds the socket.io clients. Used by
 * notifications.bench.ts and realtime.bench.ts.
 */
import { fork } from 'node:child_process';
import { io as connect, type Socket } from 'socket.io-client';
import { serveInChild, type ChildMessage, type ParentMessage, type Served } from '../servers/serve-in-child';

export interface AppNode<Op> {
  url: string;
  ask<T>(body: Op): Promise<T>;
  /** CPU time (user + system) the node has used so far, in microseconds: steadier than latency on a shared machine. */
  cpuMicros(): Promise<number>;
  /** The node's CPU profiler (serve-in-child.ts), for a measured window only. */
  startProfile(): Promise<void>;
  stopProfile(file: string): Promise<void>;
  stop(): Promise<void>;
}

/** The child side: start the platform, then answer each `bench` message with handle(body). */
export function serveAppNode<Op>(start: () => Promise<Served & { handle(op: Op): Promise<unknown> }>): void {
  serveInChild(async () => {
    const node = await start();
    process.on('message', (msg: { type?: string; id?: number; body?: Op }) => {
      if (msg?.type !== 'bench') return;
      node.handle(msg.body!).then(
        (result) => process.send?.({ type: 'bench-result', id: msg.id, result }),
        (err: Error) => process.send?.({ type: 'bench-result', id: msg.id, error: err.stack ?? err.message }),
      );
    });
    return { url: node.url, stop: node.stop };
  });
}

let nextId = 0;

/** The runner side: forks file (which calls serveAppNode when `marker` is '1') and waits for its URL. */
export async function startAppNode<Op>(file: string, marker: string, name: string, env: Record<string, string>): Promise<AppNode<Op>> {
  const child = fork(file, [], {
    execArgv: ['--import', 'tsx'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, [marker]: '1' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: not ready after 120 s`)), 120_000);
    child.on('message', (m: { type?: string; url?: string; message?: string }) => {
      if (m?.type === 'ready') {
        clearTimeout(timer);
        resolve(m.url!);
      } else if (m?.type === 'error') {
        clearTimeout(timer);
        reject(new Error(`${name} failed to start:\n${m.message}`));
      }
    });
    void exited.then(() => reject(new Error(`${name} exited before it was ready`)));
  });
  const ask = <T>(body: Op) =>
    new Promise<T>((resolve, reject) => {
      const id = ++nextId;
      const onMessage = (m: { type?: string; id?: number; result?: T; error?: string }) => {
        if (m?.type !== 'bench-result' || m.id !== id) return;
        child.off('message', onMessage);
        if (m.error) reject(new Error(m.error));
        else resolve(m.result as T);
      };
      child.on('message', onMessage);
      child.send({ type: 'bench', id, body });
    });
  /** A serve-in-child request and its answer of the given type. */
  const request = <T extends ChildMessage['type']>(m: ParentMessage, reply: T) =>
    new Promise<Extract<ChildMessage, { type: T }>>((resolve) => {
      const onMessage = (answer: ChildMessage) => {
        if (answer?.type !== reply) return;
        child.off('message', onMessage);
        resolve(answer as Extract<ChildMessage, { type: T }>);
      };
      child.on('message', onMessage);
      child.send(m);
    });
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode === null) child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    })());
  return {
    url,
    ask,
    cpuMicros: async () => (await request({ type: 'stats' }, 'stats')).cpuMicros,
    startProfile: async () => void (await request({ type: 'profile-start' }, 'profile-started')),
    stopProfile: async (file) => void (await request({ type: 'profile-stop', file }, 'profile-written')),
    stop,
  };
}

/** Opens one socket.io client per handshake `auth`, 100 at a time; `wire` adds listeners before it connects. */
export async function connectSockets(url: string, auths: Record<string, unknown>[], wire: (socket: Socket, i: number) => void): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < auths.length; i += 100) {
    const batch = await Promise.all(
      auths.slice(i, i + 100).map(
        (auth, k) =>
          new Promise<Socket>((resolve, reject) => {
            const socket = connect(url, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
            wire(socket, i + k);
            socket.once('connect', () => resolve(socket));
            socket.once('connect_error', reject);
          }),
      ),
    );
    sockets.push(...batch);
  }
  return sockets;
}
