/**
 * The editor's undo history: a pure reducer over snapshots of the working copy (draft.ts), which is
 * never mutated, so a step is the previous value itself. Bounded to HISTORY_LIMIT steps (the oldest
 * is dropped). A commit may name a group: commits in a row with the same group are one step (a
 * drag's many moves, typing into one field), and undo, redo or another group ends it. History lives
 * in the page's state only: it is per editing session, a reload or a restored version starts
 * afresh, and undoing changes the working copy only (saving stays explicit).
 */

/** Steps kept for undo (core/console/README.md, Workflow editor). */
export const HISTORY_LIMIT = 100;

export interface History<T> {
  past: T[];
  present: T;
  future: T[];
  /** The group the last commit belongs to, while the next commit can still join it. */
  group: string | null;
}

export type HistoryAction<T> =
  | { type: 'commit'; next: T; group?: string }
  | { type: 'undo' }
  | { type: 'redo' }
  /** A fresh start (a workflow loaded, a version restored): nothing to undo or redo. */
  | { type: 'reset'; present: T }
  /**
   * The same content under new names (a save gives new nodes their ids): the present is replaced
   * without a step, and every step is renamed by `rename` so undo keeps addressing the same nodes.
   */
  | { type: 'rebase'; present: T; rename: (t: T) => T };

export const historyOf = <T>(present: T): History<T> => ({ past: [], present, future: [], group: null });

export function historyReducer<T>(h: History<T>, a: HistoryAction<T>): History<T> {
  switch (a.type) {
    case 'commit': {
      if (a.next === h.present) return h;
      if (a.group !== undefined && a.group === h.group) return { ...h, present: a.next, future: [] };
      return { past: [...h.past, h.present].slice(-HISTORY_LIMIT), present: a.next, future: [], group: a.group ?? null };
    }
    case 'undo':
      if (!h.past.length) return h;
      return { past: h.past.slice(0, -1), present: h.past[h.past.length - 1], future: [h.present, ...h.future], group: null };
    case 'redo':
      if (!h.future.length) return h;
      return { past: [...h.past, h.present], present: h.future[0], future: h.future.slice(1), group: null };
    case 'reset':
      return historyOf(a.present);
    case 'rebase':
      return { past: h.past.map(a.rename), present: a.present, future: h.future.map(a.rename), group: null };
  }
}
