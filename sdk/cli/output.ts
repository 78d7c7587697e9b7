/**
 * How the CLI talks: one line per finished step, a progress bar for long steps when the terminal can
 * show one (plain lines otherwise, e.g. in CI logs), and errors as their message without a stack when
 * they are the author's to fix.
 */
import { SingleBar, Presets } from 'cli-progress';
import { BuildError } from '../build/build-module';
import { ManifestError } from '../manifest/issues';
import { PackageError } from '../package/layout';
import { InitError } from '../scaffold/init-module';

export function step(message: string): void {
  process.stdout.write(`✔ ${message}\n`);
}

export function detail(message: string): void {
  process.stdout.write(`  ${message}\n`);
}

export function warn(message: string): void {
  process.stderr.write(`! ${message}\n`);
}

export interface Progress {
  update(done: number, total: number, label: string): void;
  stop(): void;
}

export function progress(title: string): Progress {
  if (!process.stderr.isTTY) return { update() {}, stop() {} };
  const bar = new SingleBar(
    { format: `${title} [{bar}] {value}/{total} {label}`, stream: process.stderr, clearOnComplete: true, hideCursor: true },
    Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total, label) {
      if (!started) bar.start(total, 0, { label: '' });
      started = true;
      bar.update(done, { label });
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Prints an error and returns the exit code. */
export function reportError(err: unknown): number {
  const known = err instanceof ManifestError || err instanceof BuildError || err instanceof PackageError || err instanceof InitError;
  process.stderr.write(`✖ ${known ? (err as Error).message : err instanceof Error ? err.stack : String(err)}\n`);
  return 1;
}
