/**
 * Module settings on the bus: public core operations (no api.consumes entry), each acting on the
 * calling module's own settings in the call's tenant: the input names no module and no tenant, so a
 * module can reach no other's. Edge and core callers are refused (secrets read in clear here);
 * tenant admins use the routes (./settings-routes.ts). The bus audits each call, never its values.
 */
import { settingsGet, settingsSet } from '../../../sdk/contracts/platform';
import type { SettingsSchema } from '../../../sdk/manifest';
import type { Bus } from '../bus/bus';
import { defineCoreOperation } from '../bus/core-operation';
import type { Caller, CallContext } from '../bus/types';
import type { ModuleHost } from '../modules/module-host';
import { settingsErrors } from './errors';
import type { ModuleSettings } from './module-settings';

export function registerSettingsOperations(bus: Bus, deps: { store: ModuleSettings; modules: ModuleHost }): void {
  const { store, modules } = deps;

  /** The calling module's alias and settings schema. */
  const owner = async (op: string, ctx: CallContext, caller: Caller): Promise<{ alias: string; schema: SettingsSchema }> => {
    if (caller.kind !== 'module') throw settingsErrors.moduleOnly(op);
    const schema = (await modules.modulesFor(ctx.tenantId)).byAlias.get(caller.alias)?.manifest.settings;
    if (!schema) throw settingsErrors.notDeclared(caller.alias);
    return { alias: caller.alias, schema };
  };

  bus.registerCore(
    defineCoreOperation(settingsGet, async (_input, ctx, caller) => {
      const { alias, schema } = await owner('settings.get', ctx, caller);
      return store.values(ctx.tenantId, alias, schema);
    }),
  );
  bus.registerCore(
    defineCoreOperation(settingsSet, async (input, ctx, caller) => {
      const { alias, schema } = await owner('settings.set', ctx, caller);
      const { updated_at } = await store.write(ctx.tenantId, alias, schema, { values: input.values, replace: input.replace === true });
      return { updated_at };
    }),
  );
}
