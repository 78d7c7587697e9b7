/**
 * The platform is its list of parts (core/platform.ts, core/parts): a part missing from the list is
 * named at boot together with the part that needs it, and the shutdown order is the reverse of the
 * dependency order (requests drain, then queued jobs, then what they used, the databases last).
 */
import { loadConfig } from '../../core/config';
import { createLogger } from '../../core/logger';
import { startOrder, startParts } from '../../core/parts';
import { platformParts } from '../../core/platform';

const parts = () => platformParts(loadConfig({ NODE_ENV: 'test' }), createLogger('silent'));

describe('DESIGN Contracts in code: host parts start in dependency order', () => {
  test('boot with a part removed from the list fails with a message naming the part that needs it', async () => {
    await expect(startParts(parts().filter((p) => p.id !== 'rings'))).rejects.toThrow("part 'catalogs' needs 'rings', which is not in the list");
    await expect(startParts(parts().filter((p) => p.id !== 'realtime'))).rejects.toThrow("part 'rings' needs 'realtime', which is not in the list");
  });

  test('every part another one needs is named when it is left out', () => {
    const list = parts();
    const needed = new Set(list.flatMap((p) => p.deps));
    for (const id of needed) {
      const needer = list.find((p) => p.deps.includes(id))!;
      expect(() => startOrder(list.filter((p) => p.id !== id))).toThrow(`part '${needer.id}' needs '${id}', which is not in the list`);
    }
  });

  test('shutdown runs in the reverse of the dependency order', () => {
    const stopping = startOrder(parts()).filter((p) => p.stop).map((p) => p.id).reverse();
    expect(stopping).toEqual(['http', 'workflows', 'jobs', 'bulk', 'rings', 'realtime', 'kernel', 'drivers', 'tenantDbs', 'central', 'dbServer']);
  });
});
