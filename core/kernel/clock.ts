/**
 * The platform clock. Time rules (expiry, lockouts, schedules) read it instead of Date.now() so
 * tests can set the time; modules see it through host.now().
 */
export class Clock {
  private offsetMs = 0;
  private frozenAt: number | undefined;

  now(): number {
    return this.frozenAt ?? Date.now() + this.offsetMs;
  }

  date(): Date {
    return new Date(this.now());
  }

  /** Moves the clock so that now() reads `at` and keeps running from there. */
  set(at: Date | number): void {
    this.frozenAt = undefined;
    this.offsetMs = new Date(at).getTime() - Date.now();
  }

  /** Stops the clock at `at` until set or reset. */
  freeze(at: Date | number = this.now()): void {
    this.frozenAt = new Date(at).getTime();
  }

  advance(ms: number): void {
    if (this.frozenAt !== undefined) this.frozenAt += ms;
    else this.offsetMs += ms;
  }

  reset(): void {
    this.offsetMs = 0;
    this.frozenAt = undefined;
  }
}
