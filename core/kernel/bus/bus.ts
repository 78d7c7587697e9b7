/**
 * The module API bus (DESIGN.md, Bus). Every call takes the same path:
 *   exists in the tenant's modules (a provider contract's operation, `payment.createLink`, is the
 *   one of the provider the tenant chose) → caller may call it (a schedule's operation with no
 *   permission: only the scheduler; an edge: the operation's permission, unless the route in front
 *   already checked it, ./edge-permission.ts) → rate limit (tenant, caller, operation)
 *   → input validated → dispatched in the host or the module's sandbox → output validated (when
 *   on) → audit record (batched).
 * REST routes, GraphQL fields, workflow nodes, AI tools and modules all call through here.
 */
import { contractOperation } from '../../../sdk/contracts';
import { matchesConsumes, PLATFORM_NAMESPACES, type Operation } from '../../../sdk/manifest';
import { holdsPermission } from '../auth/authenticate';
import type { Clock } from '../clock';
import type { RateLimiter, RateLimitPolicy } from '../drivers';
import { MandiError, RateLimitedError } from '../errors';
import type { Logger } from '../logger';
import type { ModuleHost } from '../modules/module-host';
import type { ContractTarget, TenantModules } from '../modules/tenant-modules';
import { resolveProvider, type ProviderChoices } from '../modules/provider-choices';
import { LoadedModule } from '../modules/loaded-module';
import type { SandboxInvoker } from './sandbox-invoker';
import type { AuditWriter } from './audit-writer';
import { checkedAtEdge } from './edge-permission';
import { busErrors, scheduleErrors } from './errors';
import { SchemaValidators } from './schema-validators';
import { callerName, SCHEDULER, type Caller, type CallContext, type CallOptions, type CoreOperation } from './types';

/**
 * Nested calls within one tenant before the bus calls it a loop. A related-tenant call starts the
 * count again in the tenant it enters, which it may enter only once per call path
 * (core/kernel/tenancy/related-operations.ts): spec 3's chain is up to 10 levels deep and a cost cascade
 * walks it one level at a time, while loops between tenants still end at once.
 */
const MAX_DEPTH = 8;

/** What a name resolves to: made once per core operation and per module operation, never per call. */
interface Target {
  def: Pick<Operation, 'input' | 'output' | 'permission' | 'public'>;
  core?: CoreOperation;
  module?: LoadedModule;
  /** Reached through a provider contract: its schemas apply, and the audit names both. */
  contract?: ContractTarget['contract'];
}

export interface BusDeps {
  modules: ModuleHost;
  /** Each tenant's chosen provider per contract. */
  providers: ProviderChoices;
  invoker: SandboxInvoker;
  rateLimiter: RateLimiter;
  audit: AuditWriter;
  clock: Clock;
  logger: Logger;
  /** Calls per (tenant, caller, operation) and window. */
  rateLimit: RateLimitPolicy;
  /**
   * The same for workflow steps (caller edge `workflow`): the engine schedules them (its fair share
   * across tenants) and waits when refused, so this is a runaway bound rather than a caller's budget.
   */
  workflowStepRateLimit: RateLimitPolicy;
  /** Check each result against the operation's output schema (BUS_VALIDATE_OUTPUT). */
  validateOutput: boolean;
}

export class Bus {
  private readonly core = new Map<string, Target>();
  readonly validators = new SchemaValidators();
  /** From BUS_VALIDATE_OUTPUT; the bus benchmark turns it off and on to measure what it costs. */
  validateOutput: boolean;

  constructor(private readonly deps: BusDeps) {
    this.validateOutput = deps.validateOutput;
  }

  /** Registers an operation implemented by the host. */
  registerCore(op: CoreOperation): void {
    if (this.core.has(op.name)) throw new Error(`core operation ${op.name} registered twice`);
    // Module aliases may not take a core namespace (sdk/manifest/platform-namespaces.ts): keep that list whole.
    const namespace = op.name.slice(0, op.name.indexOf('.'));
    if (!PLATFORM_NAMESPACES.has(namespace)) throw new Error(`core operation ${op.name}: add "${namespace}" to PLATFORM_NAMESPACES (sdk/manifest/platform-namespaces.ts)`);
    this.core.set(op.name, {
      def: { input: op.input as Operation['input'], output: op.output as Operation['output'], permission: op.permission, public: op.public },
      core: op,
    });
  }

  /**
   * Answers `op` with a host function for a test (core/testing): a consumed operation of a module
   * the test does not install, registered on the bus like any host operation, so the caller's
   * consumes, the rate limit, the schemas and the audit apply as they would to the real provider.
   * Returns the removal.
   */
  registerStandIn(op: CoreOperation): () => void {
    if (this.core.has(op.name)) throw new Error(`operation ${op.name} is already answered in the host`);
    this.core.set(op.name, {
      def: { input: op.input as Operation['input'], output: op.output as Operation['output'], permission: op.permission, public: op.public },
      core: op,
    });
    return () => void this.core.delete(op.name);
  }

  coreOperations(): CoreOperation[] {
    return [...this.core.values()].map((t) => t.core!);
  }

  /**
   * The hot path. Every check is synchronous while the tenant's module set is cached and the rate
   * limiter answers without a round trip (in process, or from this node's Redis lease), so a call
   * costs one await: the handler's.
   */
  async call(caller: Caller, op: string, input: unknown, ctx: CallContext & { depth?: number }, opts: CallOptions = {}): Promise<unknown> {
    const started = performance.now();
    const depth = (ctx.depth ?? 0) + 1;
    const who = callerName(caller);
    let errorCode: string | undefined;
    let contract: ContractTarget['contract'] | undefined;
    try {
      if (depth > MAX_DEPTH) throw busErrors.tooDeep(op, depth);
      let mods: TenantModules | undefined;
      let target = this.core.get(op);
      if (target === undefined) {
        mods = this.deps.modules.cachedModulesFor(ctx.tenantId) ?? (await this.deps.modules.modulesFor(ctx.tenantId));
        target = mods.operation(op);
        if (target === undefined) {
          const routed = this.routed(mods, op, ctx.tenantId);
          target = routed instanceof Promise ? await routed : routed;
        }
      }
      // A schedule's operation with no permission runs with no user for the slot the scheduler names: nobody else starts it.
      if (target.module?.scheduleOnly.has(op) && !(caller.kind === 'core' && caller.name === SCHEDULER.name)) throw scheduleErrors.scheduleOnly(op);
      if (caller.kind === 'module') {
        // A module calls its own operations and public core ones freely; anything else must be consumed.
        if (target.module?.alias !== caller.alias && !target.def.public) {
          mods ??= this.deps.modules.cachedModulesFor(ctx.tenantId) ?? (await this.deps.modules.modulesFor(ctx.tenantId));
          const consumes = mods.byAlias.get(caller.alias)?.manifest.api?.consumes ?? [];
          if (!matchesConsumes(consumes, op)) {
            // Consuming a contract's operation also reaches it at a named implementer (`payment_razorpay.refund`):
            // a refund goes to the gateway that took the payment, whichever the tenant chooses today.
            const addressed = mods.contractTargetOf(op);
            if (!addressed || !matchesConsumes(consumes, addressed.contract.op)) throw busErrors.notConsumed(caller.alias, op);
            target = addressed;
          }
        }
      } else if (caller.kind === 'edge') {
        // Edge callers act for a user: the operation's permission applies, once per request (a route that checked it already said so).
        const permission = target.def.permission;
        if (permission && !checkedAtEdge(ctx, permission) && !holdsPermission(ctx.user, ctx.permissions, permission)) throw busErrors.permission(op, permission);
      }
      const key = `bus:${ctx.tenantId}:${who}:${op}`;
      const limiter = this.deps.rateLimiter;
      // Synchronous from the in-process counters or this node's Redis lease; a round trip otherwise.
      const policy = caller.kind === 'edge' && caller.via === 'workflow' ? this.deps.workflowStepRateLimit : this.deps.rateLimit;
      const spent = limiter.consumeSync?.(key, policy) ?? (await limiter.consume(key, policy));
      if (!spent.allowed) throw new RateLimitedError(spent.retryAfterSeconds, `Rate limit for "${op}" exceeded.`);
      contract = target.contract;
      const value = input === undefined ? {} : input;
      if (target.def.input) {
        const errors = this.validators.validate(target.def.input, value, opts.coerce);
        if (errors) throw busErrors.invalidInput(errors);
      }
      // Only a module's handler can write a stream: the route that asks for one names its own operation.
      if (opts.stream && target.core) throw busErrors.notStreamable(op);
      const result = target.core
        ? await target.core.handler(value, ctx, caller)
        : await this.deps.invoker.invoke(target.module!, { kind: 'operation', name: LoadedModule.method(op), input: value, caller, ctx: { ...ctx, depth }, stream: opts.stream });
      // A contract's output is always checked: the consumer was promised it whichever provider answers.
      if ((this.validateOutput || target.contract) && target.def.output) this.checkOutput(op, target, result);
      return result;
    } catch (err) {
      errorCode = err instanceof MandiError ? err.code : 'INTERNAL';
      throw err;
    } finally {
      const user = ctx.user;
      const details: Record<string, unknown> = { duration_ms: Math.round((performance.now() - started) * 1000) / 1000 };
      if (errorCode !== undefined) details.error = errorCode;
      if (ctx.requestId) details.request_id = ctx.requestId;
      if (ctx.relatedFrom) details.related_from = ctx.relatedFrom;
      if (contract) {
        details.contract = contract.op;
        details.provider = contract.provider;
      }
      this.deps.audit.write({
        tenant_id: ctx.tenantId,
        actor_type: caller.kind === 'module' ? 'module' : user ? 'user' : 'system',
        actor_id: caller.kind === 'module' ? caller.alias : user ? String(user.id) : who,
        action: op,
        target: who,
        status: errorCode === undefined ? 'ok' : 'error',
        details,
        created_at: new Date(this.deps.clock.now()),
      });
    }
  }

  /**
   * `payment.createLink`: the operation of the provider the tenant chose. Synchronous while the
   * tenant's choices are cached (the targets themselves are made once per module set).
   */
  private routed(mods: TenantModules, op: string, tenantId: string): Target | Promise<Target> {
    const named = contractOperation(op);
    if (!named) throw busErrors.notFound(op);
    const pick = (choices: Record<string, string>): Target => {
      const provider = resolveProvider(mods, choices, named.contract.name, op);
      const target = mods.contractTarget(named.contract, named.method, provider.alias);
      if (!target) throw busErrors.notFound(op); // cannot happen: implementers are checked to provide every operation
      return target;
    };
    const cached = this.deps.providers.cached(tenantId);
    return cached ? pick(cached) : this.deps.providers.load(tenantId).then(pick);
  }

  private checkOutput(op: string, target: Target, result: unknown): void {
    const errors = this.validators.validateOutput(target.def.output!, result);
    if (!errors) return;
    const module = target.module?.alias ?? 'core';
    this.deps.logger.error({ module, operation: op, errors }, 'operation result does not match its output schema');
    throw busErrors.invalidOutput(op, module, errors);
  }

  /**
   * The permission an edge caller needs to call `op` in the tenant, resolved as call() resolves it
   * (a contract's operation: the chosen provider's); undefined when it needs none or does not exist.
   */
  async permissionOf(tenantId: string, op: string): Promise<string | undefined> {
    const core = this.core.get(op);
    if (core) return core.def.permission;
    const mods = await this.deps.modules.modulesFor(tenantId);
    const own = mods.operation(op);
    if (own) return own.def.permission;
    // No provider chosen or installed: the call itself would fail, so it needs nothing here.
    const routed = await (async () => this.routed(mods, op, tenantId))().catch(() => undefined);
    return routed?.def.permission;
  }

  /** Whether an operation exists for the tenant (for routers and schema builders). */
  async exists(tenantId: string, op: string): Promise<boolean> {
    if (this.core.has(op)) return true;
    try {
      const mods = await this.deps.modules.modulesFor(tenantId);
      const named = contractOperation(op);
      return mods.operation(op) !== undefined || (named !== undefined && mods.implementersOf(named.contract.name).length > 0);
    } catch {
      return false;
    }
  }
}
