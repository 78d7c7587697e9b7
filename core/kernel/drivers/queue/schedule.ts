/**
 * Timing rules of the in-process queue, the same formulas as bull's (lib/backoffs.js,
 * lib/repeatable.js), so both implementations retry and repeat at the same moments.
 */
import { parseExpression } from 'cron-parser';
import type { Backoff, Repeat } from './types';

/** Milliseconds to wait before the next attempt, after `attemptsMade` failed ones (>= 1). */
export function backoffDelay(backoff: Backoff | undefined, attemptsMade: number): number {
  if (!backoff) return 0;
  if (backoff.type === 'fixed') return backoff.delay;
  return Math.round((2 ** attemptsMade - 1) * backoff.delay);
}

/** The first run strictly after `after` (epoch ms). */
export function nextRun(repeat: Repeat, after: number): number {
  if (repeat.every !== undefined) return Math.floor(after / repeat.every) * repeat.every + repeat.every;
  return parseExpression(repeat.cron!, { currentDate: new Date(after), tz: repeat.tz }).next().getTime();
}

/** Identifies one schedule: the same name, timing and jobId is the same schedule. */
export function repeatKey(name: string, repeat: Repeat, jobId?: string): string {
  const timing = repeat.every !== undefined ? `every:${repeat.every}` : `cron:${repeat.tz ?? ''}:${repeat.cron}`;
  return `${name}:${jobId ?? ''}:${timing}`;
}
