/**
 * Moving tenants between versions of modules, all or nothing (DESIGN.md: "a failure leaves every
 * tenant on a working version with its data intact"). Each move is one tenant-database transaction
 * (ModuleDataService); when one fails, the moves already made are undone newest first, so every
 * tenant is back on the version it ran before. A move to a newer version runs up migrations, to an
 * older one the newer version's down migrations.
 */
import semver from 'semver';
import { MandiError } from '../core/errors';
import type { LifecycleDeps } from './deps';
import { toOperationError, type ProgressReporter } from './operations';

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

export interface MoveReport {
  moved: number;
  tenants: string[];
}

/**
 * Makes every move or none. On failure throws `code` (e.g. PROMOTION_FAILED) with `details`: the
 * failed move, its cause, the moves undone and any that could not be undone (logged loudly: they
 * need an operator).
 */
export async function moveAll(deps: LifecycleDeps, moves: Move[], progress: ProgressReporter, what: string, code: string): Promise<MoveReport> {
  const done: Move[] = [];
  await progress(0, moves.length, moves.length ? `${what}: ${moves.length} module migration(s) to run` : `${what}: no installed module to migrate`);
  for (const [i, m] of moves.entries()) {
    try {
      await moveOne(deps, m);
    } catch (err) {
      const cause = toOperationError(err);
      await progress(i, moves.length, `${label(m)} failed (${cause.message}); undoing ${done.length} move(s)`);
      const undone: Move[] = [];
      const notUndone: Array<Move & { error: string }> = [];
      for (const d of [...done].reverse()) {
        const back = { ...d, from: d.to, to: d.from };
        try {
          await moveOne(deps, back);
          undone.push(d);
        } catch (undoErr) {
          deps.logger.fatal({ err: undoErr, move: d }, 'could not undo a module move; the tenant needs an operator');
          notUndone.push({ ...d, error: (undoErr as Error).message });
        }
      }
      throw new MandiError(
        code,
        `${what} failed in ${label(m)}: ${cause.message}. ${notUndone.length ? `${notUndone.length} tenant(s) could not be moved back: see details.` : `Every tenant already moved (${undone.length}) was moved back.`}`,
        cause.status >= 500 ? 500 : 422,
        { failed: m, cause, undone, not_undone: notUndone },
      );
    }
    done.push(m);
    await progress(i + 1, moves.length, label(m));
  }
  return { moved: done.length, tenants: [...new Set(done.map((d) => d.tenantId))] };
}
