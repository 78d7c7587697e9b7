/**
 * Moving tenants between versions of modules, all or nothing (DESIGN.md: "a failure leaves every
 * tenant on a working version with its data intact"). Each move is one tenant-database transaction
 * (ModuleDataService); when one fails, the moves already made are undone newest first, so every
 * tenant is back on the version it ran before. A move to a newer version runs up migrations, to an
 * older one the newer version's down migrations.
 */
import semver from 'semver';
import type { MoveFailure } from './errors';
import type { LifecycleDeps } from './deps';
import { toOperationError, type ProgressReporter } from './operations';
import type { OperationError } from './ring-models';

export interface Move {
  tenantId: string;
  alias: string;
  from: string;
  to: string;
}

const label = (m: Move) => `tenant ${m.tenantId}: ${m.alias} ${m.from} → ${m.to}`;

export async function moveOne(deps: LifecycleDeps, m: Move): Promise<void> {
  if (m.from === m.to) return;
  if (semver.lt(m.to, m.from)) await deps.modules.rollback(m.tenantId, m.alias, m.to);
  else await deps.modules.install(m.tenantId, m.alias, m.to);
}

export interface MoveReport<T> {
  moved: number;
  tenants: string[];
  /** What `finish` returned. */
  result: T;
}

/**
 * Makes every move and then `finish` (recording the new release or ring), or none of it. On failure
 * throws the operation's `failure` (e.g. ringErrors.promotionFailed) with `details`: the failed move (none when `finish` failed),
 * its cause, the moves undone and any that could not be undone (logged loudly: they need an operator).
 */
export async function moveAll<T>(deps: LifecycleDeps, moves: Move[], progress: ProgressReporter, what: string, failure: MoveFailure, finish: () => Promise<T>): Promise<MoveReport<T>> {
  const done: Move[] = [];
  await progress(0, moves.length, moves.length ? `${what}: ${moves.length} module migration(s) to run` : `${what}: no installed module to migrate`);
  for (const [i, m] of moves.entries()) {
    try {
      await moveOne(deps, m);
    } catch (err) {
      const cause = toOperationError(err);
      await progress(i, moves.length, `${label(m)} failed (${cause.message}); undoing ${done.length} move(s)`);
      throw await undoAll(deps, done, failure, `${what} failed in ${label(m)}: ${cause.message}.`, cause, m);
    }
    done.push(m);
    await progress(i + 1, moves.length, label(m));
  }
  try {
    const result = await finish();
    return { moved: done.length, tenants: [...new Set(done.map((d) => d.tenantId))], result };
  } catch (err) {
    const cause = toOperationError(err);
    await progress(moves.length, moves.length, `${what} could not be recorded (${cause.message}); undoing ${done.length} move(s)`);
    throw await undoAll(deps, done, failure, `${what} could not be recorded: ${cause.message}.`, cause, null);
  }
}

/** Moves the done moves back, newest first, and says what became of them as the operation's error. */
async function undoAll(deps: LifecycleDeps, done: Move[], failure: MoveFailure, summary: string, cause: OperationError, failed: Move | null): Promise<Error> {
  const undone: Move[] = [];
  const notUndone: Array<Move & { error: string }> = [];
  for (const d of [...done].reverse()) {
    try {
      await moveOne(deps, { ...d, from: d.to, to: d.from });
      undone.push(d);
    } catch (undoErr) {
      deps.logger.fatal({ err: undoErr, move: d }, 'could not undo a module move; the tenant needs an operator');
      notUndone.push({ ...d, error: (undoErr as Error).message });
    }
  }
  return failure(
    `${summary} ${notUndone.length ? `${notUndone.length} tenant(s) could not be moved back: see details.` : `Every tenant already moved (${undone.length}) was moved back.`}`,
    { failed, cause, undone, not_undone: notUndone },
  );
}
