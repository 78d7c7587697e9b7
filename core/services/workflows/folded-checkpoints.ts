/**
 * Folded checkpoints (core/services/workflows/README.md, Execution model): spec 2 checkpoints a run after each
 * node so that a run taken up after a crash goes on where it stood and no node's effect happens
 * twice. A node without effects (a trigger, or a node type declared `effects: "none"`: condition,
 * set-variable, transform, code...) followed by another such node need not be committed before the
 * next one starts: if the worker dies in between, the run goes on from its last checkpoint and runs
 * those nodes again, which changes nothing outside the run, with the same idempotency keys. Their log
 * rows and progress then go in the checkpoint of the next node the run writes, one statement instead
 * of one per node. A node with effects always starts on a committed run (every earlier node's
 * outcome written), and a run's progress is never held back longer than FOLD_MS.
 */
import type { RunContext } from './workflow';
import type { Checkpoint, NodeLog } from './workflow-store';

/** How long the outcomes of effect-free nodes may wait for a checkpoint (the work a crash repeats). */
export const FOLD_MS = 250;

/** The checkpoints of one run's effect-free nodes not written yet. */
export class FoldedCheckpoints {
  private logs: NodeLog[] = [];
  private since = 0;
  private start: Date | undefined;
  /** The run's context after the last folded node. */
  private context: RunContext | undefined;
  /** The nodes_executed of the run's row as last written. */
  private at = 0;

  /** `at`: the run's nodes_executed as read or last written. */
  written(at: number): void {
    this.logs = [];
    this.start = undefined;
    this.context = undefined;
    this.at = at;
  }

  /** Whether a node that started at `startedMs` may leave its checkpoint to the next node's. */
  mayFold(startedMs: number): boolean {
    return (this.logs.length ? this.since : startedMs) > performance.now() - FOLD_MS;
  }

  /** Keeps a node's checkpoint for the next one written; `start`: it starts the run (a pending run's trigger). */
  fold(c: Pick<Checkpoint, 'log' | 'start' | 'context'>, startedMs: number): void {
    if (!this.logs.length) this.since = startedMs;
    this.logs.push(c.log);
    this.start ??= c.start;
    this.context = c.context;
  }

  /** The checkpoint to write: `c` with the folded nodes' log rows, progress, context (a failure's checkpoint has none of its own) and start. */
  with(c: Omit<Checkpoint, 'at'>): Checkpoint {
    if (!this.logs.length) return { ...c, at: this.at };
    return { ...c, folded: this.logs, at: this.at, executed: (c.executed ?? 0) + this.logs.length, start: this.start ?? c.start, context: c.context ?? this.context };
  }
}
