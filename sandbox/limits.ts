/** Default limits and their validation. */
import { SandboxError } from './errors';
import type { SandboxLimits } from './types';

export const DEFAULT_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  memoryMb: 128,
  timeoutMs: 5000,
  maxContexts: 1000,
  maxOutputBytes: 8 * 1024 * 1024,
  maxLogLinesPerCall: 1000,
  maxPendingRequests: 256,
});

// isolated-vm refuses isolates under 8 MB.
const MINIMUM: Readonly<SandboxLimits> = Object.freeze({
  memoryMb: 8,
  timeoutMs: 1,
  maxContexts: 1,
  maxOutputBytes: 1024,
  maxLogLinesPerCall: 0,
  maxPendingRequests: 1,
});

export function resolveLimits(...layers: (Partial<SandboxLimits> | undefined)[]): SandboxLimits {
  const limits: SandboxLimits = { ...DEFAULT_LIMITS };
  for (const layer of layers) {
    if (!layer) continue;
    for (const key of Object.keys(DEFAULT_LIMITS) as (keyof SandboxLimits)[]) {
      const value = layer[key];
      if (value === undefined) continue;
      if (!Number.isFinite(value) || value < MINIMUM[key]) {
        throw new TypeError(`sandbox limit ${key} must be a number of at least ${MINIMUM[key]}, got ${String(value)}`);
      }
      limits[key] = Math.floor(value);
    }
  }
  return limits;
}

export const timeoutError = (timeoutMs: number) =>
  new SandboxError('TIMEOUT', `The call exceeded its time limit of ${timeoutMs} ms.`, { limitMs: timeoutMs });

export const memoryError = (memoryMb: number) =>
  new SandboxError('MEMORY_LIMIT', `The module exceeded its memory limit of ${memoryMb} MB; its isolate was restarted.`, {
    limitMb: memoryMb,
  });
