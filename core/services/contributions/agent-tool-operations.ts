/**
 * AI tools for agents running in modules (spec 2, Tools; Tool discovery and permission enforcement):
 * an agent such as the `ai` module's offers the model the tools the requesting user may use and runs
 * the ones the model asks for **as that user**, never as itself.
 *
 *   tools.list {only?}                 → {tools: [{name, module, description, input}]}
 *   tools.call {name, input, grant?, bound_by?} → the operation's result
 *   tools.grant {ttl_seconds?}         → {grant, expires_at}
 *
 * A plain host.call runs as the calling module (its api.consumes, no user permission), which would
 * let an agent do more than the user asking it. tools.call is an edge call instead (caller edge `ai`,
 * as a REST route's is edge `http`): the bus checks the operation's permission against the user of
 * the current call, and before that the user must hold every permission the tool list asks for
 * (rule 2's permission inferred from the name and the operation's own), so a tool call can do no
 * more than the list shows (rule 3). Operations the calling module consumes may be called this way
 * too (a graph flow's closing action, which is no tool): as the user it can only do less than its own
 * host.call. A call without a user (an event, a schedule, a job) is refused, unless it brings a
 * grant: `tools.grant`, asked for during a call of the user, lets the same module act for that user
 * later (a graph run resumed by a reviewer or after a restart), with the user's permissions as they
 * are then (./acting-grants.ts). Acting for the grant's user in another user's call, or with
 * `bound_by` (that other user's own grant, for a job carrying their work on), the call needs every
 * permission from each of them: a reviewer never gets a tool through someone else's run, and the
 * run never gains the reviewer's extra permissions (spec 2, Graph run).
 *
 * Both are core operations that are not public: a module lists them in api.consumes to use them, so
 * a tenant's admins see at install which modules act for their users.
 */
import type { Manifest } from '../../../sdk/manifest';
import { holdsPermission } from '../../kernel/auth/authenticate';
import { MAX_GRANT_TTL_SECONDS, toolsCall, toolsGrant, toolsList } from '../../../sdk/contracts/platform';
import type { Bus } from '../../kernel/bus/bus';
import { defineCoreOperation } from '../../kernel/bus/core-operation';
import type { Caller, CallContext } from '../../kernel/bus/types';
import { forbidden } from '../../kernel/errors';
import { catalogErrors } from './errors';
import type { Clock } from '../../kernel/clock';
import type { UserRef } from '../../kernel/context';
import type { ActingGrants } from './acting-grants';
import type { ModuleHost } from '../../kernel/modules/module-host';
import type { LoadedModule } from '../../kernel/modules/loaded-module';
import { matchesConsumes } from '../../../sdk/manifest';
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

/** Spec 2, Tool discovery rule 1's patterns: `a.b` exactly, `a.*` every tool starting `a.`, `*` all. */
const inPatterns = (patterns: readonly string[] | undefined, name: string) => !patterns || patterns.some((p) => p === '*' || matchesConsumes([p], name));

/** The module asking, and a user to act for: an agent answers someone. */
function agentCall(op: string, ctx: CallContext, caller: Caller): string {
  if (caller.kind !== 'module') throw forbidden(`${op} is called by a module's agent, for the user of its call.`);
  if (!ctx.user) throw forbidden(`${op} acts for the user of the current call, and this call has none (an event, a schedule or a job).`, { module: caller.alias });
  return caller.alias;
}

export interface AgentToolDeps {
  modules: Pick<ModuleHost, 'modulesFor'>;
  grants: ActingGrants;
  clock: Clock;
  /** The user as a request of theirs would act in the tenant now (AuthService.actingUser). */
  actingUser(tenantId: string, userId: number): Promise<{ user: UserRef; permissions: ReadonlySet<string> } | undefined>;
}

export function registerAgentToolOperations(bus: Bus, deps: AgentToolDeps): void {
  const { modules } = deps;

  /** The call's context as the grant's user, checked against this tenant and module. */
  const asGrantUser = async (token: string, ctx: CallContext, alias: string): Promise<CallContext> => {
    const grant = await deps.grants.verify(token);
    if (grant === 'invalid') throw catalogErrors.grantRefused('it is malformed or not signed by this platform');
    if (grant === 'expired') throw catalogErrors.grantRefused('it has expired; ask the user again');
    if (grant.tenantId !== ctx.tenantId || grant.module !== alias) throw catalogErrors.grantRefused(`it was issued to another tenant or module, not to "${alias}" here`);
    const actor = await deps.actingUser(ctx.tenantId, grant.userId);
    if (!actor) throw catalogErrors.grantRefused(`user ${grant.userId} is no longer an active member of this tenant`);
    return { ...ctx, user: actor.user, permissions: actor.permissions };
  };

  bus.registerCore(defineCoreOperation(toolsList, async (input, ctx, caller) => {
    agentCall('tools.list', ctx, caller);
    const mods = await modules.modulesFor(ctx.tenantId);
    const tools = mods.list.flatMap((m) =>
      [...moduleTools(m).values()]
        .filter((t) => inPatterns(input.only, t.tool.name) && userCan(ctx, t))
        .map((t) => ({ ...t.tool, input: m.operations.get(t.tool.name)?.input ?? { type: 'object' } })),
    );
    return { tools };
  }));

  bus.registerCore(defineCoreOperation(toolsCall, async (input, callCtx, caller) => {
    if (caller.kind !== 'module') throw forbidden('tools.call is called by a module\'s agent, for the user of its call.');
    const ctx = input.grant !== undefined ? await asGrantUser(input.grant, callCtx, caller.alias) : callCtx;
    const alias = agentCall('tools.call', ctx, caller);
    // Acting for the grant's user in someone else's call, or bound by another grant (a graph run's
    // resumer, after a restart): only what every one of them may do, never one's extra permissions.
    const bounds = [
      ...(input.grant !== undefined && callCtx.user && callCtx.user.id !== ctx.user!.id ? [callCtx] : []),
      ...(input.bound_by !== undefined ? [await asGrantUser(input.bound_by, callCtx, alias)] : []),
    ];
    const mods = await modules.modulesFor(ctx.tenantId);
    const provider = mods.operation(input.name)?.module;
    const tool = provider ? moduleTools(provider).get(input.name) : undefined;
    if (!tool && !matchesConsumes(mods.byAlias.get(alias)?.manifest.api?.consumes ?? [], input.name)) {
      throw forbidden(`"${input.name}" is not an AI tool of this tenant, nor an operation module "${alias}" consumes.`, { tool: input.name, module: alias });
    }
    const own = await bus.permissionOf(ctx.tenantId, input.name);
    const needs = [...(tool?.needs ?? []), ...(own ? [own] : [])];
    for (const who of [ctx, ...bounds]) {
      const missing = needs.find((p) => !holdsPermission(who.user, who.permissions, p));
      if (missing) throw forbidden(`"${input.name}" needs the permission "${missing}", which user ${who.user!.id} lacks.`, { tool: input.name, permission: missing, user_id: who.user!.id });
    }
    // The bus checks the operation's own permission for the edge caller, validates, rate-limits and audits as the user.
    return bus.call(AI_EDGE, input.name, input.input ?? {}, ctx);
  }));

  bus.registerCore(defineCoreOperation(toolsGrant, async (input, ctx, caller) => {
    const alias = agentCall('tools.grant', ctx, caller);
    const expiresAt = deps.clock.now() + (input.ttl_seconds ?? MAX_GRANT_TTL_SECONDS) * 1000;
    return { grant: await deps.grants.issue({ tenantId: ctx.tenantId, module: alias, userId: ctx.user!.id, expiresAt }), expires_at: new Date(expiresAt).toISOString() };
  }));
}
