/**
 * Removes the globals that escape the isolate's limits, first thing in every context (a tenant's,
 * and each one host.evaluate makes): WebAssembly memory is not counted by the isolate's memory
 * limit, Atomics.wait parks the isolate's thread, and finalizer callbacks run outside any call's
 * time limit.
 */
import { G } from './intrinsics';

const ESCAPES = ['WebAssembly', 'SharedArrayBuffer', 'Atomics', 'FinalizationRegistry'];

export function removeEscapes(): void {
  for (let i = 0; i < ESCAPES.length; i++) {
    try {
      delete G[ESCAPES[i]];
    } catch (_) {
      // Not there, or not deletable: nothing more to do.
    }
  }
}
