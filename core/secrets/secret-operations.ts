/**
 * Module secrets on the bus: public core operations (no api.consumes entry), each acting on the
 * calling module's own secrets in the call's tenant, so a module can neither name another module's
 * namespace nor another tenant's. Only names the module's manifest declares (`secrets`) are
 * accepted. Edge and core callers are refused: plaintext leaves the host only into the sandbox of
 * the module that owns it (tenant admins see hints, core/secrets/secret-routes.ts).
 * The bus audits each call (operation, caller, status, duration), never its input or output.
 */
import type { Bus } from '../bus/bus';
import type { Caller, CallContext } from '../bus/types';
import type { ModuleHost } from '../modules/module-host';
import { secretErrors } from './errors';
import { SECRET_LIMITS, SECRET_NAME_PATTERN } from './limits';
import type { ModuleSecrets } from './module-secrets';

const Name = { type: 'string', pattern: SECRET_NAME_PATTERN };
const NameInput = { type: 'object', required: ['name'], additionalProperties: false, properties: { name: Name } };
const Hint = {
  type: 'object',
  required: ['name', 'hint', 'set_at'],
  properties: { name: { type: 'string' }, hint: { type: ['string', 'null'] }, set_at: { type: 'string' } },
};

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

  bus.registerCore({
    name: 'secrets.set',
    description: "Stores a secret of the calling module in the current tenant, encrypted; answers its hint. The name must be declared in the module's manifest.",
    input: {
      type: 'object',
      required: ['name', 'value'],
      additionalProperties: false,
      // maxLength counts characters; the store also bounds the UTF-8 bytes.
      properties: { name: Name, value: { type: 'string', minLength: 1, maxLength: SECRET_LIMITS.valueBytes } },
    },
    output: Hint,
    public: true,
    handler: async (input: { name: string; value: string }, ctx, caller) =>
      store.write(ctx.tenantId, await owner('secrets.set', ctx, caller, input.name), input.name, input.value),
  });

  bus.registerCore({
    name: 'secrets.get',
    description: 'The plaintext of a secret of the calling module in the current tenant, or null when unset.',
    input: NameInput,
    output: { type: 'object', required: ['value'], properties: { value: { type: ['string', 'null'] } } },
    public: true,
    handler: async (input: { name: string }, ctx, caller) => ({ value: await store.read(ctx.tenantId, await owner('secrets.get', ctx, caller, input.name), input.name) }),
  });

  bus.registerCore({
    name: 'secrets.hint',
    description: "A secret's hint (its last 4 characters) and when it was set, or null when unset; never the value.",
    input: NameInput,
    output: { type: 'object', required: ['secret'], properties: { secret: { anyOf: [Hint, { type: 'null' }] } } },
    public: true,
    handler: async (input: { name: string }, ctx, caller) => ({ secret: await store.hint(ctx.tenantId, await owner('secrets.hint', ctx, caller, input.name), input.name) }),
  });

  bus.registerCore({
    name: 'secrets.list',
    description: "Hints of the calling module's secrets in the current tenant; never the values.",
    input: { type: 'object', additionalProperties: false },
    output: { type: 'object', required: ['secrets'], properties: { secrets: { type: 'array', items: Hint } } },
    public: true,
    handler: async (_input, ctx, caller) => ({ secrets: await store.list(ctx.tenantId, await owner('secrets.list', ctx, caller)) }),
  });

  bus.registerCore({
    name: 'secrets.delete',
    description: 'Deletes a secret of the calling module in the current tenant; answers whether there was one.',
    input: NameInput,
    output: { type: 'object', required: ['deleted'], properties: { deleted: { type: 'boolean' } } },
    public: true,
    handler: async (input: { name: string }, ctx, caller) => ({ deleted: await store.remove(ctx.tenantId, await owner('secrets.delete', ctx, caller, input.name), input.name) }),
  });
}
