/**
 * Server-driven screens (spec 1, Server-driven screens), per tenant from its ring's catalog. The
 * spec leaves the bodies "not shown" except the manifest's `version`; ours:
 *   GET  /mobile/screens                                {data: [{id, module, title, icon, layout, route, version, navigation}]}
 *   GET  /mobile/screens/manifest                       {version: md5, screens: [{id, version}]}
 *   GET  /mobile/screens/{screenId}                     the definition itself; the web client's path form
 *                                                       of the id (`products/list`) names `products.list`
 *   GET  /mobile/screens/{screenId}/data/{sectionId}    {data, meta?} (see screen-data.ts)
 *   POST /mobile/screens/{screenId}/action/{actionId}   {data: result}
 * Authentication only (the spec names no permission); data and actions run as the user through the
 * bus, so each operation's permission applies. Errors in the platform shape: 404 SCREEN_NOT_FOUND,
 * SECTION_NOT_FOUND, SECTION_HAS_NO_DATA, ACTION_NOT_FOUND; 422 bad query or body; 502
 * SCREEN_DEFINITION_INVALID when a module supplies a broken definition.
 */
import type { RequestHandler, Response, Router } from 'express';
import { currentContext } from '../../kernel/context';
import { invalid } from '../../kernel/errors';
import { catalogErrors } from './errors';
import type { ModuleHost } from '../../kernel/modules/module-host';
import { screensManifest, type CatalogScreen } from './screen-entries';
import { runScreenAction } from './screen-actions';
import { sectionData, sectionParams } from './screen-data';
import type { ScreenDefinitions } from './screen-definitions';
import type { TenantCatalogs } from './tenant-catalogs';
import type { UserCall } from './user-calls';

export interface ScreenRouteDeps {
  catalogs: TenantCatalogs;
  definitions: ScreenDefinitions;
  modules: Pick<ModuleHost, 'modulesFor'>;
  call: UserCall;
  authenticated: RequestHandler;
}

export function registerScreenRoutes(api: Router, deps: ScreenRouteDeps): void {
  const tenant = () => currentContext()!.tenant!;

  const screensOf = async (res: Response) => {
    const { catalog, ringKey } = await deps.catalogs.forTenant(tenant());
    res.set('X-Catalog-Key', ringKey);
    return catalog;
  };

  /** The screen, its module (the installed version) and its definition. */
  const load = async (id: string, res: Response) => {
    const screen: CatalogScreen | undefined = (await screensOf(res)).screen(id);
    if (!screen) throw catalogErrors.screenNotFound(id);
    const mod = (await deps.modules.modulesFor(tenant().id)).byAlias.get(screen.entry.module);
    if (!mod) throw catalogErrors.screenNotFound(id);
    const definition = await deps.definitions.get(tenant(), screen, mod);
    return { screen, mod, definition };
  };

  api.get('/mobile/screens', deps.authenticated, async (_req, res) => {
    res.json({ data: (await screensOf(res)).screens.map((s) => s.entry) });
  });

  api.get('/mobile/screens/manifest', deps.authenticated, async (_req, res) => {
    const manifest = screensManifest((await screensOf(res)).screens.map((s) => s.entry));
    res.set('ETag', `"${manifest.version}"`).json(manifest);
  });

  api.get('/mobile/screens/:screenId/data/:sectionId', deps.authenticated, async (req, res) => {
    const params = sectionParams(req.query as Record<string, unknown>);
    const { screen, mod, definition } = await load(String(req.params.screenId), res);
    res.json(await sectionData({ definition, sectionId: String(req.params.sectionId), provider: screen.provider, mod, params, tenant: tenant(), call: deps.call }));
  });

  api.post('/mobile/screens/:screenId/action/:actionId', deps.authenticated, async (req, res) => {
    const raw: unknown = req.body ?? {};
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalid('body', 'The body must be a JSON object.');
    const { screen, mod, definition } = await load(String(req.params.screenId), res);
    const result = await runScreenAction({ definition, actionId: String(req.params.actionId), body: raw as Record<string, unknown>, provider: screen.provider, mod, tenant: tenant(), call: deps.call });
    res.json({ data: result === undefined ? null : result });
  });

  // Last: the web client asks with the path form of the id (spec 1: `/m/products/list` → `products/list`).
  api.get('/mobile/screens/*path', deps.authenticated, async (req, res) => {
    const segments = (req.params as { path: string[] }).path;
    // Spec 1 lists this body as the screen definition itself (unlike list, section data and action
    // bodies, which it leaves open and which carry `data`).
    res.json((await load(segments.join('.'), res)).definition);
  });
}
