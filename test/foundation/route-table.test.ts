/**
 * The HTTP routes as the express stack holds them, in the order express matches them: every route's
 * methods and path and every middleware's path and name, from a booted platform. The expected table
 * (fixtures/route-table.txt) was read from the platform before the route groups moved into their
 * parts (core/kernel/http/routes.ts); a change in it is a change of what answers a request, or in which order.
 */
import fs from 'node:fs';
import path from 'node:path';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

interface Layer {
  name: string;
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean>; stack: Layer[] };
  handle: { stack?: Layer[] };
}

/**
 * One line per layer: `<METHODS> <path> [<handlers>]` for a route (its guards by name: authentication,
 * rate limits), `use <path> <name>` for a middleware, a router's layers under its path.
 */
function table(stack: Layer[], prefix = ''): string[] {
  const at = (p: unknown) => (p === undefined || p === '/' ? prefix || '/' : `${prefix}${String(p)}`);
  return stack.flatMap((layer) => {
    if (layer.route) {
      const { methods, path: routePath, stack: handlers } = layer.route;
      return [`${Object.keys(methods).map((m) => m.toUpperCase()).sort().join(',')} ${prefix}${String(routePath)} [${handlers.map((h) => h.name).join(', ')}]`];
    }
    if (layer.handle.stack) return [`use ${at(layer.rawPath)} (router)`, ...table(layer.handle.stack, at(layer.rawPath).replace(/\/$/, ''))];
    return [`use ${at(layer.rawPath)} ${layer.name}`];
  });
}

const FIXTURE = path.join(__dirname, 'fixtures', 'route-table.txt');

describe('the HTTP route table', () => {
  let tp: TestPlatform;
  beforeAll(async () => {
    tp = await startTestPlatform();
  });
  afterAll(async () => {
    await tp?.close();
  });

  test('is the one the platform served before the route groups moved into their parts', () => {
    const routes = table((tp.platform.app as unknown as { router: { stack: Layer[] } }).router.stack);
    if (process.env.WRITE_ROUTE_TABLE) fs.writeFileSync(FIXTURE, `${routes.join('\n')}\n`);
    expect(routes).toEqual(fs.readFileSync(FIXTURE, 'utf8').trimEnd().split('\n'));
  });
});
