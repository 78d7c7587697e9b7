/** How the upgrade talks: results to stdout, failures to stderr, the download bar on a terminal only. */
import { Presets, SingleBar } from 'cli-progress';

export const say = (line: string) => void process.stdout.write(`${line}\n`);
export const shout = (line: string) => void process.stderr.write(`✖ ${line}\n`);

export interface DownloadBar {
  update(done: number, total: number | undefined): void;
  stop(): void;
}

const mb = (n: number) => (n / 1024 / 1024).toFixed(1);

export function downloadProgress(name: string): DownloadBar {
  if (!process.stderr.isTTY) return { update() {}, stop() {} };
  const bar = new SingleBar({ format: `${name} [{bar}] {percentage}% {doneMb}/{totalMb} MB`, stream: process.stderr, hideCursor: true, clearOnComplete: true }, Presets.shades_classic);
  let started = false;
  return {
    update(done, total) {
      const t = total ?? done;
      if (!started) bar.start(t, 0, { doneMb: '0.0', totalMb: mb(t) });
      started = true;
      bar.setTotal(Math.max(t, done));
      bar.update(done, { doneMb: mb(done), totalMb: mb(Math.max(t, done)) });
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
