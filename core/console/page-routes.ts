/**
 * The modules' console pages (docs/decisions/console-pages.md), for the web console:
 * - GET /console-pages: the pages of the modules the tenant installed that the caller may open
 *   (holding the page's permission), each with what the console lets it reach: the module's
 *   authenticated routes (method and path) and its channel patterns.
 * - GET /console-pages/:module/:path/bundle: the page's browser bundle (dist/console/<name>.js in
 *   the package), as text. The console hands it to its sandboxed page frame; it is never a document
 *   or a script of the console's origin (the API's answers carry `sandbox; default-src 'none'`).
 * A module the tenant did not install, or a page it does not have, is a 404; one the caller may not
 * open, a 403.
 */
import type { RequestHandler, Router } from 'express';
import { consolePageBundle, type ConsolePage } from '../../sdk/manifest';
import { holdsPermission } from '../kernel/auth/authenticate';
import { currentContext } from '../kernel/context';
import { forbidden, notFound } from '../kernel/errors';
import type { LoadedModule } from '../kernel/modules/loaded-module';
import type { ModuleHost } from '../kernel/modules/module-host';
import type { ModulePageEntry } from './page-entry';

const describe = (mod: LoadedModule, page: ConsolePage): ModulePageEntry => ({
  module: mod.alias,
  path: page.path,
  label: page.label,
  ...(page.icon ? { icon: page.icon } : {}),
  routes: (mod.manifest.http?.routes ?? []).filter((r) => !r.public).map((r) => ({ method: r.method, path: r.path })),
  channels: (mod.manifest.realtime?.channels ?? []).map((c) => c.pattern),
});

export function registerConsolePageRoutes(api: Router, deps: { modules: ModuleHost; authenticated: RequestHandler }): void {
  const may = (permission: string) => {
    const ctx = currentContext()!;
    return holdsPermission(ctx.user, ctx.permissions, permission);
  };

  api.get('/console-pages', deps.authenticated, async (_req, res) => {
    const installed = await deps.modules.modulesFor(currentContext()!.tenant!.id);
    const data = installed.list.flatMap((mod) => (mod.manifest.console?.pages ?? []).filter((p) => may(p.permission)).map((p) => describe(mod, p)));
    res.json({ data });
  });

  api.get('/console-pages/:module/:path/bundle', deps.authenticated, async (req, res) => {
    const { module: alias, path } = req.params as { module: string; path: string };
    const mod = (await deps.modules.modulesFor(currentContext()!.tenant!.id)).byAlias.get(alias);
    const page = mod?.manifest.console?.pages?.find((p) => p.path === path);
    if (!mod || !page) throw notFound(`No console page ${alias}/${path} in this tenant: the tenant has not installed a module with that page.`, { module: alias, path });
    if (!may(page.permission)) throw forbidden(`This page requires the permission "${page.permission}".`, { permission: page.permission });
    const bundle = consolePageBundle(page);
    // A registry package always holds it (readPackage checks); a development folder may not be built yet.
    const code = await mod.files.read(bundle).catch(() => {
      throw notFound(`The console page ${alias}/${path} has no bundle ${bundle}: build the module (mandi module build).`, { module: alias, path });
    });
    res.type('text/javascript; charset=utf-8').set('Cache-Control', 'no-cache').send(code);
  });
}
