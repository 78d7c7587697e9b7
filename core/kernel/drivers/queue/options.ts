/** Checks of AddOptions shared by both queues, so a mistake fails the same way with or without Redis. */
import { parseExpression } from 'cron-parser';
import type { AddOptions, Repeat } from './types';

export function validateAddOptions(opts: AddOptions): void {
  if (opts.attempts !== undefined && !(Number.isInteger(opts.attempts) && opts.attempts >= 1)) {
    throw new Error('attempts must be a positive integer');
  }
  if (opts.delay !== undefined && !(Number.isFinite(opts.delay) && opts.delay >= 0)) {
    throw new Error('delay must be a non-negative number of milliseconds');
  }
  if (opts.backoff && !(['fixed', 'exponential'].includes(opts.backoff.type) && opts.backoff.delay >= 0)) {
    throw new Error('backoff needs type fixed or exponential and a non-negative delay');
  }
  // bull numbers its own jobs 1, 2, 3...; an integer jobId could collide with one of them.
  if (opts.jobId !== undefined && /^\d+$/.test(opts.jobId)) throw new Error('jobId must not be a plain integer');
  if (opts.repeat) validateRepeat(opts.repeat);
}

export function validateRepeat(repeat: Repeat): void {
  const hasEvery = repeat.every !== undefined;
  const hasCron = repeat.cron !== undefined;
  if (hasEvery === hasCron) throw new Error('repeat needs exactly one of "every" or "cron"');
  if (hasEvery && !(Number.isInteger(repeat.every) && repeat.every! > 0)) {
    throw new Error('repeat.every must be a positive integer of milliseconds');
  }
  if (hasCron) parseExpression(repeat.cron!, { tz: repeat.tz }); // throws on a bad pattern
}

export function validateGroupCap(cap: number | undefined): void {
  if (cap !== undefined && !(Number.isInteger(cap) && cap >= 1)) throw new Error('groupCap must be a positive integer');
}
