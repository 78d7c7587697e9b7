/**
 * Reads shared by every model round of one handler call (settings, a provider's row and key), made
 * once per call: an agent chat asks the model up to six times, and each host read is a crossing out
 * of the sandbox. Keyed by the call's own ctx, so nothing outlives the call or reaches another
 * tenant's (module globals are per tenant already) and a change saved meanwhile shows in the next call.
 */
import type { HandlerContext } from '../../../../sdk';

const byCall = new WeakMap<HandlerContext, Map<string, Promise<unknown>>>();

export function perCall<T>(ctx: HandlerContext, key: string, load: () => Promise<T>): Promise<T> {
  let reads = byCall.get(ctx);
  if (!reads) byCall.set(ctx, (reads = new Map()));
  let read = reads.get(key) as Promise<T> | undefined;
  if (!read) {
    read = load();
    reads.set(key, read);
    // A failed read is not kept: the next round asks again.
    read.catch(() => reads.delete(key));
  }
  return read;
}
