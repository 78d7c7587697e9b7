import express, { type RequestHandler } from 'express';
import type { AdminAuth } from '../auth/admin-auth';
import type { AuthService } from '../auth/auth-service';
import { startParts, givenPart } from '../parts';
import { adminAuthRef, authRef } from '../auth/part';
import { tenantsRef } from '../tenancy/part';
import type { TenantService } from '../tenancy/tenant-service';
import { routesPart, routesRef, type RouteGuards, type RouteRegistry } from './routes';

const adminAuthenticated: RequestHandler = (_req, _res, next) => next();

async function registry(): Promise<RouteRegistry> {
  const started = await startParts([
    givenPart(authRef, {} as AuthService),
    givenPart(tenantsRef, {} as TenantService),
    givenPart(adminAuthRef, { authenticated: adminAuthenticated } as AdminAuth),
    routesPart,
  ]);
  return started.get(routesRef);
}

const paths = (router: express.Router) => (router.stack as unknown as Array<{ route?: { path: string } }>).map((layer) => layer.route?.path);

describe('routes: route groups mounted in ROUTE_ORDER', () => {
  it('mounts each place in its documented order, whatever order the groups were added in', async () => {
    const routes = await registry();
    routes.add({ name: 'catalogs', mount: (api) => void api.get('/catalogs', adminAuthenticated) });
    routes.add({ name: 'health', mount: (api) => void api.get('/health', adminAuthenticated) });
    routes.add({ name: 'auth', mount: (api) => void api.get('/auth', adminAuthenticated) });
    const api = express.Router();
    routes.mount('api', api);
    expect(paths(api)).toEqual(['/health', '/auth', '/catalogs']);
  });

  it('refuses a group added twice, or after its place was mounted', async () => {
    const routes = await registry();
    routes.add({ name: 'auth', mount: () => undefined });
    expect(() => routes.add({ name: 'auth', mount: () => undefined })).toThrow("route group 'auth' is added twice");
    routes.mount('api', express.Router());
    expect(() => routes.add({ name: 'catalogs', mount: () => undefined })).toThrow("route group 'catalogs' is added after its routes were mounted");
    // The site's groups are mounted later, after the API's.
    routes.add({ name: 'console', mount: () => undefined });
  });

  it('gives the groups the admin guard and, once the server listens, its URL', async () => {
    const routes = await registry();
    let guards: RouteGuards | undefined;
    routes.add({ name: 'seed', mount: (_api, g) => void (guards = g) });
    routes.mount('api', express.Router());
    routes.listeningAt('http://127.0.0.1:4000');
    expect(guards?.adminAuthenticated).toBe(adminAuthenticated);
    expect(guards?.selfUrl()).toBe('http://127.0.0.1:4000');
  });
});
