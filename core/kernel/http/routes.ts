/**
 * The routes part (core/kernel/parts): the registry every part that serves HTTP adds its route groups to,
 * in its own init (`routes.add({ name, mount })`), and the guards they mount with. The HTTP part
 * collects it (it starts after every part that needs this one) and mounts the groups when it builds
 * the app, in the order ROUTE_ORDER gives, whatever order the parts started in.
 */
import type { RequestHandler, Router } from 'express';
import { adminAuthRef, authRef } from '../auth/part';
import { authenticate } from '../auth/authenticate';
import { definePart, partRef } from '../parts';
import { tenantsRef } from '../tenancy/part';

/**
 * Every route group, where it is mounted and, in each place, the order express tries them in (the
 * first route matching a path answers, so this order is part of what the API is). `api`: the
 * /api/v1 router; `public`: the paths under /api/ outside /api/v1 (spec 2, Public routes outside
 * /api/v1), after the API's own routes are ruled out; `site`: the pages outside /api, before the
 * 404 and error handlers (core/kernel/http/app.ts).
 */
export const ROUTE_ORDER = {
  api: [
    'health', // before the rate limit and the tenant: probes carry neither
    'api-guards', // the HTTP part's own: the API rate limit and tenant resolution, for every group below
    'onboarding', 'auth', 'members', 'account-status', 'sub-resellers', 'reseller-applications', 'accounts', 'notifications', 'client-releases',
    'activity', 'module-admin', 'seed', 'console-pages', 'fetch-origins', 'providers', 'private-networks', 'registry', 'quarantine', 'secrets', 'module-settings', 'rings', 'graphql',
    'documents', 'catalogs', 'workflows',
    'module-routes', // last: a module's route answers only what no core route does
  ],
  public: ['workflow-webhook', 'module-public-routes'],
  site: ['console'],
} as const;

type Place = keyof typeof ROUTE_ORDER;
export type RouteGroupName = (typeof ROUTE_ORDER)[Place][number];

/** What a group's routes guard themselves with (the auth policy is per route, as each declares it). */
export interface RouteGuards {
  /** A user's access token in the request's tenant (401/400 otherwise); sets the request context's user. */
  authenticated: RequestHandler;
  /** A platform admin token (core/kernel/auth/admin-auth.ts). */
  adminAuthenticated: RequestHandler;
  /** This platform's own base URL, known once it listens. */
  selfUrl(): string;
}

export interface RouteGroup {
  /** Its place in ROUTE_ORDER: where it is mounted and after which groups. */
  name: RouteGroupName;
  /** Adds the group's routes to the router of its place (for `site`, the app itself). */
  mount(router: Router, guards: RouteGuards): void;
}

export interface Routes {
  add(group: RouteGroup): void;
}

/** The registry as the HTTP part sees it: it mounts each place's groups once, and sets the URL it listens on. */
export interface RouteRegistry extends Routes {
  mount(place: Place, router: Router): void;
  listeningAt(url: string): void;
}

export const routesRef = partRef<RouteRegistry>('routes');

export const routesPart = definePart({
  ref: routesRef,
  deps: { auth: authRef, tenants: tenantsRef, adminAuth: adminAuthRef },
  init: ({ auth, tenants, adminAuth }) => {
    let url = '';
    return routeRegistry({ authenticated: authenticate(auth, tenants), adminAuthenticated: adminAuth.authenticated, selfUrl: () => url }, (u) => (url = u));
  },
});

function routeRegistry(guards: RouteGuards, listeningAt: (url: string) => void): RouteRegistry {
  const groups = new Map<RouteGroupName, RouteGroup>();
  const mounted = new Set<Place>();
  const placeOf = (name: RouteGroupName) => (Object.keys(ROUTE_ORDER) as Place[]).find((place) => (ROUTE_ORDER[place] as readonly string[]).includes(name))!;
  return {
    add: (group) => {
      if (groups.has(group.name)) throw new Error(`route group '${group.name}' is added twice`);
      // A part that needs the routes part starts before the HTTP part, so this means a group added after init.
      if (mounted.has(placeOf(group.name))) throw new Error(`route group '${group.name}' is added after its routes were mounted`);
      groups.set(group.name, group);
    },
    mount: (place, router) => {
      mounted.add(place);
      for (const name of ROUTE_ORDER[place]) groups.get(name)?.mount(router, guards);
    },
    listeningAt,
  };
}
