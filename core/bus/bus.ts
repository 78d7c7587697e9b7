/**
 * The module API bus (DESIGN.md, Bus). Every call takes the same path:
 *   exists in the tenant's modules → caller may call it → rate limit (tenant, caller, operation)
 *   → input validated → dispatched in the host or the module's sandbox → audit record (batched).
 * REST routes, GraphQL fields, workflow nodes, AI tools and modules all call through here.
 */
import { matchesConsumes, type Operation } from '../../sdk/manifest';
import type { Clock } from '../clock';
import type { RateLimiter, RateLimitPolicy } from '../drivers';
import { MandiError, RateLimitedError } from '../errors';
import type { Logger } from '../logger';
import type { ModuleHost } from '../modules/module-host';
import { LoadedModule } from '../modules/loaded-module';
import type { SandboxInvoker } from './sandbox-invoker';
import type { AuditWriter } from './audit-writer';
import { busErrors } from './errors';
import { SchemaValidators } from './schema-validators';
import { callerName, type Caller, type CallContext, type CallOptions, type CoreOperation } from './types';

const MAX_DEPTH = 8;

interface Resolved {
  name: string;
  def: Pick<Operation, 'input' | 'permission' | 'public'>;
  core?: CoreOperation;
  module?: LoadedModule;
}

export interface BusDeps {
  modules: ModuleHost;
  invoker: SandboxInvoker;
  rateLimiter: RateLimiter;
  audit: AuditWriter;
  clock: Clock;
  logger: Logger;
  /** Calls per (tenant, caller, operation) and window. */
  rateLimit: RateLimitPolicy;
}

export class Bus {
  private readonly core = new Map<string, CoreOperation>();
  readonly validators = new SchemaValidators();

  constructor(private readonly deps: BusDeps) {}

  /** Registers an operation implemented by the host. */
  registerCore(op: CoreOperation): void {
    if (this.core.has(op.name)) throw new Error(`core operation ${op.name} registered twice`);
    this.core.set(op.name, op);
  }

  coreOperations(): CoreOperation[] {
    return [...this.core.values()];
  }

  async call(caller: Caller, op: string, input: unknown, ctx: CallContext & { depth?: number }, opts: CallOptions = {}): Promise<unknown> {
    const started = performance.now();
    const depth = (ctx.depth ?? 0) + 1;
    let status: 'ok' | 'error' = 'ok';
    let errorCode: string | undefined;
    try {
      if (depth > MAX_DEPTH) throw busErrors.tooDeep(op, depth);
      const target = await this.resolve(ctx.tenantId, op);
      await this.authorise(caller, target, ctx);
      await this.limit(caller, op, ctx.tenantId);
      const value = input === undefined ? {} : input;
      if (target.def.input) {
        const errors = this.validators.validate(target.def.input, value, opts.coerce);
        if (errors) throw busErrors.invalidInput(errors);
      }
      if (target.core) return await target.core.handler(value, ctx, caller);
      return await this.deps.invoker.invoke(target.module!, { kind: 'operation', name: LoadedModule.method(op), input: value, caller, ctx: { ...ctx, depth } });
    } catch (err) {
      status = 'error';
      errorCode = err instanceof MandiError ? err.code : 'INTERNAL';
      throw err;
    } finally {
      this.deps.audit.write({
        tenant_id: ctx.tenantId,
        actor_type: caller.kind === 'module' ? 'module' : ctx.user ? 'user' : 'system',
        actor_id: caller.kind === 'module' ? caller.alias : ctx.user ? String(ctx.user.id) : callerName(caller),
        action: op,
        target: callerName(caller),
        status,
        details: { duration_ms: Math.round((performance.now() - started) * 1000) / 1000, ...(errorCode ? { error: errorCode } : {}), ...(ctx.requestId ? { request_id: ctx.requestId } : {}) },
        created_at: new Date(this.deps.clock.now()),
      });
    }
  }

  /** Whether an operation exists for the tenant (for routers and schema builders). */
  async exists(tenantId: string, op: string): Promise<boolean> {
    return this.resolve(tenantId, op).then(
      () => true,
      () => false,
    );
  }

  private async resolve(tenantId: string, op: string): Promise<Resolved> {
    const core = this.core.get(op);
    if (core) return { name: op, def: { input: core.input as Operation['input'], permission: core.permission, public: core.public }, core };
    const found = (await this.deps.modules.modulesFor(tenantId)).operation(op);
    if (!found) throw busErrors.notFound(op);
    return { name: op, def: found.def, module: found.module };
  }

  private async authorise(caller: Caller, target: Resolved, ctx: CallContext): Promise<void> {
    if (caller.kind === 'core') return;
    if (caller.kind === 'module') {
      const own = target.module?.alias === caller.alias;
      if (own || target.def.public) return;
      const consumer = (await this.deps.modules.modulesFor(ctx.tenantId)).byAlias.get(caller.alias);
      if (!consumer || !matchesConsumes(consumer.manifest.api?.consumes ?? [], target.name)) throw busErrors.notConsumed(caller.alias, target.name);
      return;
    }
    // Edge callers act for a user: the operation's permission applies.
    const permission = target.def.permission;
    if (!permission || ctx.user?.isSuperAdmin) return;
    const held = ctx.permissions;
    if (!held || !(held.has('*') || held.has(permission))) throw busErrors.permission(target.name, permission);
  }

  private async limit(caller: Caller, op: string, tenantId: string): Promise<void> {
    const r = await this.deps.rateLimiter.consume(`bus:${tenantId}:${callerName(caller)}:${op}`, this.deps.rateLimit);
    if (!r.allowed) throw new RateLimitedError(r.retryAfterSeconds, `Rate limit for "${op}" exceeded.`);
  }
}
