/**
 * The module settings part (core/kernel/parts): settings.get / settings.set on the bus and the
 * tenant admins' routes, over the tenant table module_settings and the module secrets.
 */
import { clockRef } from '../clock-part';
import { tenantDbsRef } from '../data/parts';
import { routesRef } from '../http/routes';
import { kernelRef } from '../modules/part';
import { definePart, partRef } from '../parts';
import { ModuleSettings } from './module-settings';
import { registerSettingsOperations } from './settings-operations';
import { registerSettingsRoutes } from './settings-routes';

export const moduleSettingsRef = partRef<ModuleSettings>('moduleSettings');

export const moduleSettingsPart = definePart({
  ref: moduleSettingsRef,
  deps: { routes: routesRef, kernel: kernelRef, tenantDbs: tenantDbsRef, clock: clockRef },
  init: ({ routes, kernel, tenantDbs, clock }) => {
    const store = new ModuleSettings({ tenantDbs, secrets: kernel.secrets, clock });
    registerSettingsOperations(kernel.bus, { store, modules: kernel.modules });
    routes.add({ name: 'module-settings', mount: (api, { authenticated }) => registerSettingsRoutes(api, { store, modules: kernel.modules, audit: kernel.audit, clock, authenticated }) });
    return store;
  },
});
