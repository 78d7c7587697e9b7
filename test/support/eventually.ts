/**
 * Waits for an asynchronous effect (e.g. pub/sub reaching another node): probes until `ok` holds
 * or the time is up, then returns the last value so the caller's assertion shows what was seen.
 */
export async function eventually<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 3_000, everyMs = 25): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
