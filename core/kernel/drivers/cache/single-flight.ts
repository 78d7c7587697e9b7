/** One call in flight per key: callers that arrive while it runs share its promise. */
export class SingleFlight {
  private readonly inFlight = new Map<string, Promise<unknown>>();

  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const pending = this.inFlight.get(key);
    if (pending) return pending as Promise<T>;
    const started = fn().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, started);
    return started;
  }
}
