/**
 * Shared by the hostile-module corpus: fixture bundles, a runtime holding one hostile module next
 * to a well-behaved one, and a check that the well-behaved one keeps answering.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SandboxRuntime, type InvokeRequest, type SandboxLimits } from '../../sandbox';
import { TestBridge } from '../../sandbox/testing';

export const GOOD = 'good@1.0.0';

export const fixture = (name: string): string => readFileSync(path.join(__dirname, 'fixtures', `${name}.js`), 'utf8');

/** A bridge whose host.call echoes, as an `echo.echo` operation would, and fails `fail.*`. */
export function echoBridge(): TestBridge {
  const bridge = new TestBridge();
  bridge.onCall = (op, input) => {
    if (op.startsWith('fail.')) throw Object.assign(new Error(`${op} refused`), { code: 'REFUSED', details: { op } });
    return input;
  };
  return bridge;
}

export class HostileHarness {
  readonly runtime = new SandboxRuntime();
  readonly bridge = echoBridge();

  constructor(readonly key: string, fixtureName: string, limits: Partial<SandboxLimits>) {
    this.runtime.load(GOOD, fixture('well-behaved'));
    this.runtime.load(key, fixture(fixtureName), limits);
  }

  invoke(name: string, input: unknown = {}, extra: Partial<InvokeRequest> = {}, key = this.key): Promise<unknown> {
    return this.runtime.invoke(key, { tenantId: 't1', kind: 'operation', name, input, caller: 'http', user: null, bridge: this.bridge, ...extra });
  }

  good(n: number, tenantId = 'g1'): Promise<unknown> {
    return this.invoke('roundTrip', { n }, { tenantId }, GOOD);
  }

  async stats() {
    return (await this.runtime.stats())[this.key];
  }

  /**
   * Calls the well-behaved module over and over until `pending` settles; every answer must be
   * right. Returns how many answers came back meanwhile and the slowest one.
   */
  async goodAnswersWhile(pending: Promise<unknown>): Promise<{ answers: number; slowestMs: number }> {
    let settled = false;
    pending.then(
      () => (settled = true),
      () => (settled = true),
    );
    let answers = 0;
    let slowestMs = 0;
    while (!settled) {
      const started = performance.now();
      const reply = await this.good(answers);
      slowestMs = Math.max(slowestMs, performance.now() - started);
      if ((reply as { echoed: { n: number } }).echoed.n !== answers) throw new Error(`wrong answer ${JSON.stringify(reply)}`);
      answers++;
      await new Promise((r) => setTimeout(r, 5));
    }
    return { answers, slowestMs };
  }

  dispose(): void {
    this.runtime.dispose();
  }
}
