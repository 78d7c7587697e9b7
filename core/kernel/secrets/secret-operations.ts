/**
 * Module secrets on the bus: public core operations (no api.consumes entry), each acting on the
 * calling module's own secrets in the call's tenant, so a module can neither name another module's
 * namespace nor another tenant's. Only names the module's manifest declares (`secrets`) are
 * accepted. Edge and core callers are refused: plaintext leaves the host only into the sandbox of
 * the module that owns it (tenant admins see hints, core/kernel/secrets/secret-routes.ts).
 * The bus audits each call (operation, caller, status, duration), never its input or output.
 */
import { secretsDelete, secretsGet, secretsHint, secretsList, secretsSet } from '../../../sdk/contracts/platform';
import type { Bus } from '../bus/bus';
import { defineCoreOperation } from '../bus/core-operation';
import type { Caller, CallContext } from '../bus/types';
import type { ModuleHost } from '../modules/module-host';
import { secretErrors } from './errors';
import type { ModuleSecrets } from './module-secrets';

export function registerSecretOperations(bus: Bus, deps: { store: ModuleSecrets; modules: ModuleHost }): void {
  const { store, modules } = deps;

  /** The calling module's alias, once it is a module that declares `name`. */
  const owner = async (op: string, ctx: CallContext, caller: Caller, name?: string): Promise<string> => {
    if (caller.kind !== 'module') throw secretErrors.moduleOnly(op);
    if (name !== undefined) {
      const mod = (await modules.modulesFor(ctx.tenantId)).byAlias.get(caller.alias);
      if (!mod?.manifest.secrets?.some((s) => s.name === name)) throw secretErrors.notDeclared(caller.alias, name);
    }
    return caller.alias;
  };

  bus.registerCore(defineCoreOperation(secretsSet, async (input, ctx, caller) => store.write(ctx.tenantId, await owner('secrets.set', ctx, caller, input.name), input.name, input.value)));
  bus.registerCore(defineCoreOperation(secretsGet, async (input, ctx, caller) => ({ value: await store.read(ctx.tenantId, await owner('secrets.get', ctx, caller, input.name), input.name) })));
  bus.registerCore(defineCoreOperation(secretsHint, async (input, ctx, caller) => ({ secret: await store.hint(ctx.tenantId, await owner('secrets.hint', ctx, caller, input.name), input.name) })));
  bus.registerCore(defineCoreOperation(secretsList, async (_input, ctx, caller) => ({ secrets: await store.list(ctx.tenantId, await owner('secrets.list', ctx, caller)) })));
  bus.registerCore(defineCoreOperation(secretsDelete, async (input, ctx, caller) => ({ deleted: await store.remove(ctx.tenantId, await owner('secrets.delete', ctx, caller, input.name), input.name) })));
}
