/**
 * Lets jobs a node has already taken from a shared queue start on its workers in fair-share order
 * (fair-share.ts). With bull, the node takes one job more than it has workers: that job waits here,
 * its lock kept alive by bull, so a job of another tenant that comes up while every worker is busy
 * is already on the node when a worker frees, and takes it first.
 */
import { FairShare } from './fair-share';

export class FairGate {
  private readonly share: FairShare<() => void>;
  private active = 0;

  constructor(private readonly workers: number, cap: number) {
    this.share = new FairShare(cap);
  }

  /** Runs `work` once a worker is free and it is `group`'s turn. */
  async run<R>(group: string, work: () => Promise<R>): Promise<R> {
    await new Promise<void>((resolve) => {
      this.share.add(group, resolve);
      this.pump();
    });
    try {
      return await work();
    } finally {
      this.active--;
      this.share.done(group);
      this.pump();
    }
  }

  private pump(): void {
    while (this.active < this.workers) {
      const next = this.share.take();
      if (!next) return;
      this.active++;
      next.item();
    }
  }
}
