/**
 * AI tools for agents running in modules (spec 2, Tools; Tool discovery and permission enforcement):
 * an agent such as the `ai` module's offers the model the tools the requesting user may use and runs
 * the ones the model asks for **as that user**, never as itself.
 *
 *   tools.list {}              → {tools: [{name, module, description, input}]}
 *   tools.call {name, input}   → the operation's result
 *
 * A plain host.call runs as the calling module (its api.consumes, no user permission), which would
 * let an agent do more than the user asking it. tools.call is an edge call instead (caller edge `ai`,
 * as a REST route's is edge `http`): the bus checks the operation's permission against the user of
 * the current call, and before that the user must hold every permission the tool list asks for
 * (rule 2's permission inferred from the name and the operation's own), so a tool call can do no
 * more than the list shows (rule 3). Operations the calling module consumes may be called this way
 * too (a graph flow's closing action, which is no tool): as the user it can only do less than its own
 * host.call. A call without a user (an event, a schedule, a job) is refused.
 *
 * Both are core operations that are not public: a module lists them in api.consumes to use them, so
 * a tenant's admins see at install which modules act for their users.
 */
import type { Manifest } from '../../sdk/manifest';
import { holdsPermission } from '../auth/authenticate';
import type { Bus } from '../bus/bus';
import type { Caller, CallContext } from '../bus/types';
import { forbidden } from '../errors';
import type { ModuleHost } from '../modules/module-host';
import type { LoadedModule } from '../modules/loaded-module';
import { matchesConsumes } from '../../sdk/manifest';
import { catalogTools, type CatalogTool } from './ai-tools';

const AI_EDGE: Caller = { kind: 'edge', via: 'ai' };

/** A module version's tools, made once per loaded version. */
const toolsOf = new WeakMap<LoadedModule, Map<string, CatalogTool>>();
function moduleTools(mod: LoadedModule): Map<string, CatalogTool> {
  let tools = toolsOf.get(mod);
  if (!tools) {
    tools = new Map(catalogTools(mod.alias, mod.manifest as Pick<Manifest, 'api' | 'http'>).map((t) => [t.tool.name, t]));
    toolsOf.set(mod, tools);
  }
  return tools;
}

const userCan = (ctx: CallContext, t: CatalogTool) => t.needs.every((p) => holdsPermission(ctx.user, ctx.permissions, p));

/** The module asking, and a user to act for: an agent answers someone. */
function agentCall(op: string, ctx: CallContext, caller: Caller): string {
  if (caller.kind !== 'module') throw forbidden(`${op} is called by a module's agent, for the user of its call.`);
  if (!ctx.user) throw forbidden(`${op} acts for the user of the current call, and this call has none (an event, a schedule or a job).`, { module: caller.alias });
  return caller.alias;
}

export function registerAgentToolOperations(bus: Bus, modules: Pick<ModuleHost, 'modulesFor'>): void {
  bus.registerCore({
    name: 'tools.list',
    description: 'The AI tools of the installed modules that the user of the current call may use, with their input schemas (spec 2, Tools).',
    input: { type: 'object', additionalProperties: false },
    output: { type: 'object', required: ['tools'], properties: { tools: { type: 'array' } } },
    handler: async (_input, ctx, caller) => {
      agentCall('tools.list', ctx, caller);
      const mods = await modules.modulesFor(ctx.tenantId);
      const tools = mods.list.flatMap((m) =>
        [...moduleTools(m).values()].filter((t) => userCan(ctx, t)).map((t) => ({ ...t.tool, input: m.operations.get(t.tool.name)?.input ?? { type: 'object' } })),
      );
      return { tools };
    },
  });

  bus.registerCore({
    name: 'tools.call',
    description: 'Runs an AI tool (or an operation the calling module consumes) as the user of the current call, caller edge "ai" (spec 2, Tool discovery rule 3).',
    input: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: { name: { type: 'string', minLength: 3, maxLength: 200 }, input: {} },
    },
    handler: async (input: { name: string; input?: unknown }, ctx, caller) => {
      const alias = agentCall('tools.call', ctx, caller);
      const mods = await modules.modulesFor(ctx.tenantId);
      const provider = mods.operation(input.name)?.module;
      const tool = provider ? moduleTools(provider).get(input.name) : undefined;
      if (tool) {
        const missing = tool.needs.find((p) => !holdsPermission(ctx.user, ctx.permissions, p));
        if (missing) throw forbidden(`The tool "${input.name}" needs the permission "${missing}", which the user lacks.`, { tool: input.name, permission: missing });
      } else if (!matchesConsumes(mods.byAlias.get(alias)?.manifest.api?.consumes ?? [], input.name)) {
        throw forbidden(`"${input.name}" is not an AI tool of this tenant, nor an operation module "${alias}" consumes.`, { tool: input.name, module: alias });
      }
      // The bus checks the operation's own permission for the edge caller, validates, rate-limits and audits as the user.
      return bus.call(AI_EDGE, input.name, input.input ?? {}, ctx);
    },
  });
}
