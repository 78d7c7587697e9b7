/**
 * The child side of a benchmarked server (the parent side is bench/support/child-server.ts). Each
 * server runs in its own process so it never shares an event loop with the load generator. Over the
 * IPC channel it announces its URL, reports its own CPU time on request (CPU per request is steadier
 * than requests/s on a shared machine), profiles itself on request (only the measured window, not
 * the boot) and stops cleanly.
 */
import type { Session } from 'node:inspector/promises';
import { startProfile, stopProfile } from '../support/profiler';

export type ParentMessage = { type: 'stop' } | { type: 'stats' } | { type: 'profile-start' } | { type: 'profile-stop'; file: string };
export type ChildMessage =
  | { type: 'ready'; url: string }
  | { type: 'error'; message: string }
  | { type: 'stats'; cpuMicros: number; rssBytes: number }
  | { type: 'profile-started' }
  | { type: 'profile-written'; file: string };

/** Sampling every 200 µs: enough samples in a 10 s window to rank functions that cost a few µs each. */
const PROFILE_INTERVAL_MICROS = 200;

export interface Served {
  url: string;
  stop(): Promise<void>;
}

export function serveInChild(start: () => Promise<Served>): void {
  if (!process.send) throw new Error('run this file through bench/support/child-server.ts (it needs an IPC channel)');
  // The parent may have gone while this was starting: then there is nobody to tell.
  const send = (m: ChildMessage) => {
    if (process.connected) process.send?.(m);
  };
  start().then(
    (served) => {
      let stopping = false;
      let profiling: Promise<Session> | undefined;
      const stop = () => {
        if (stopping) return;
        stopping = true;
        served.stop().finally(() => process.exit(0));
      };
      process.on('message', (m: ParentMessage) => {
        if (m.type === 'stop') stop();
        else if (m.type === 'stats') {
          const cpu = process.cpuUsage();
          send({ type: 'stats', cpuMicros: cpu.user + cpu.system, rssBytes: process.memoryUsage.rss() });
        } else if (m.type === 'profile-start') {
          profiling = startProfile(PROFILE_INTERVAL_MICROS);
          void profiling.then(() => send({ type: 'profile-started' }));
        } else if (m.type === 'profile-stop' && profiling) {
          const file = m.file;
          void profiling.then((session) => stopProfile(session, file)).then(() => send({ type: 'profile-written', file }));
          profiling = undefined;
        }
      });
      // The parent died or closed the channel: do not linger as an orphan holding ports and connections.
      process.on('disconnect', stop);
      if (!process.connected) return stop();
      send({ type: 'ready', url: served.url });
    },
    (err: unknown) => {
      const message = (err instanceof Error ? err.stack || err.message : String(err)) || 'unknown error';
      // Exit once the message is out: IPC sends are asynchronous.
      if (process.connected) process.send!({ type: 'error', message } satisfies ChildMessage, () => process.exit(1));
      else process.exit(1);
    },
  );
}
