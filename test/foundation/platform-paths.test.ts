/**
 * The platform's own paths that module routes may not use (sdk/manifest/route-overlap.ts) are
 * exactly the first segments of the routes the platform mounts under /api/v1, and its public areas
 * those of what it serves under /api outside it (the workflow webhook trigger; everything else there
 * is modules' public routes): a new core area added without reserving it would leave its other
 * methods and sub-paths open to a module.
 */
import type { Router } from 'express';
import { PLATFORM_PATH_AREAS, PLATFORM_PUBLIC_AREAS } from '../../sdk/manifest/route-overlap';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

interface Layer {
  route?: { path: string };
  handle: { stack?: Layer[] };
}

describe('DESIGN Modules: module routes never shadow the platform\'s', () => {
  let tp: TestPlatform;
  beforeAll(async () => {
    tp = await startTestPlatform();
  });
  afterAll(() => tp?.close());

  test('the reserved areas are the first segments of every core route, no more and no fewer', () => {
    const app = tp.platform.app as unknown as { router: Router };
    const api = (app.router.stack as unknown as Layer[]).find((l) => l.handle.stack?.some((r) => r.route?.path === '/health'));
    const paths = (api!.handle.stack ?? []).flatMap((l) => (l.route ? [l.route.path] : []));
    expect(paths.length).toBeGreaterThan(50);
    const areas = new Set(paths.map((p) => p.split('/')[1]));
    expect([...areas].sort()).toEqual([...PLATFORM_PATH_AREAS].sort());
  });

  test('the public areas are the first segments of the routes the platform serves under /api outside /api/v1', () => {
    const outside = tp.platform.workflows.webhook as unknown as { stack: Layer[] };
    const areas = new Set(outside.stack.flatMap((l) => (l.route ? [l.route.path.split('/')[1]] : [])));
    expect(areas.size).toBeGreaterThan(0);
    expect([...areas].sort()).toEqual([...PLATFORM_PUBLIC_AREAS].sort());
  });
});
