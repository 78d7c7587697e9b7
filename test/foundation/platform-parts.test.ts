/**
 * The platform is its list of parts (core/platform.ts, core/kernel/parts): a part missing from the list is
 * named at boot together with the part that needs it, and the shutdown order is the reverse of the
 * dependency order (requests drain, then queued jobs, then what they used, the databases last).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../core/config';
import { databaseUrl, dropDatabase } from '../../core/kernel/data/pg-admin';
import { createLogger } from '../../core/kernel/logger';
import { startOrder, startParts, type Lifecycle, type Part } from '../../core/kernel/parts';
import { platformParts } from '../../core/platform';
import { testServerUrl } from '../../core/testing';

const parts = (env: Record<string, string> = {}) => platformParts(loadConfig({ NODE_ENV: 'test', ...env }), createLogger('silent'));
const depIds = (p: Part) => Object.values(p.deps).map((ref) => ref.id);

/** `part`, writing each drain step it registers and its stop into `log`. */
function recorded(part: Part, log: string[]): Part {
  const init = part.init as (deps: unknown, lifecycle: Lifecycle) => unknown;
  const stop = part.stop as ((value: unknown) => unknown) | undefined;
  return {
    ...part,
    init: ((deps: unknown, lifecycle: Lifecycle) =>
      init(deps, { onDrain: (step) => lifecycle.onDrain(() => (log.push(part.ref.id), step())) })) as Part['init'],
    stop: stop && (((value: unknown) => (log.push(part.ref.id), stop(value))) as Part['stop']),
  };
}

describe('DESIGN Contracts in code: host parts start in dependency order', () => {
  test('boot with a part removed from the list fails with a message naming the part that needs it', async () => {
    await expect(startParts(parts().filter((p) => p.ref.id !== 'rings'))).rejects.toThrow("part 'catalogs' needs 'rings', which is not in the list");
    await expect(startParts(parts().filter((p) => p.ref.id !== 'realtime'))).rejects.toThrow("part 'rings' needs 'realtime', which is not in the list");
  });

  test('every part another one needs is named when it is left out', () => {
    const list = parts();
    const needed = new Set(list.flatMap(depIds));
    for (const id of needed) {
      const needer = list.find((p) => depIds(p).includes(id))!;
      expect(() => startOrder(list.filter((p) => p.ref.id !== id))).toThrow(`part '${needer.ref.id}' needs '${id}', which is not in the list`);
    }
  });

  test('shutdown runs in the reverse of the dependency order', async () => {
    // The drains (in-flight requests, workflow runs, this node's queued jobs) are registered as the
    // parts start, so the order is read from a real boot: every drain, then every stop.
    const dbName = `mandi_parts_${randomBytes(5).toString('hex')}`;
    const dataDir = path.join(os.tmpdir(), `mandi-test-${dbName}`);
    const env = { PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl(testServerUrl(), dbName), REDIS_URL: process.env.REDIS_URL ?? '', REDIS_PREFIX: `mandi-test-${dbName}`, DATA_DIR: dataDir };
    const stopping: string[] = [];
    try {
      const started = await startParts(parts(env).map((p) => recorded(p, stopping)));
      await started.stop();
    } finally {
      await dropDatabase(testServerUrl(), dbName).catch(() => undefined);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    expect(stopping).toEqual(['http', 'workflows', 'drivers', 'bulk', 'rings', 'realtime', 'kernel', 'drivers', 'tenantDbs', 'central', 'dbServer']);
  });
});
