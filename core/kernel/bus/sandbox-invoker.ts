/**
 * Runs a module's handler in its sandbox on behalf of the bus, with a host bridge made for that one
 * invocation (./invocation.ts). Open transactions are rolled back when the invocation ends, and a
 * sandbox failure becomes the typed error callers see.
 */
import { LRUCache } from 'lru-cache';
import { DEFAULT_LIMITS, isSandboxError, type HostBridge, type ModuleSandbox, type SandboxError, type SandboxRuntime } from '../../../sandbox';
import { createFetchBridge } from '../host-api/fetch-bridge';
import type { Clock } from '../clock';
import { MandiError } from '../errors';
import { sandboxErrors } from './errors';
import type { Logger } from '../logger';
import type { ModuleDataService } from '../module-data';
import type { LoadedModule } from '../modules/loaded-module';
import type { FetchGrant } from '../modules/fetch-grants';
import type { ModuleQuarantine } from '../modules/module-quarantine';
import type { Bus } from './bus';
import type { EventBus } from './events';
import type { InvocationHost } from '../host-api/invocation';
import { SandboxTimings } from './sandbox-timings';
import { TimedInvocation } from '../host-api/timed-invocation';
import { guestCallerName, type Caller, type CallContext, type CallStream } from './types';

export interface InvokeArgs {
  kind: 'operation' | 'event';
  /** Handler key: the method of the operation, or the event name. */
  name: string;
  input: unknown;
  caller: Caller;
  ctx: CallContext & { depth?: number };
  /** Event deliveries: the envelope's id (stable across redeliveries), so handlers can de-duplicate. */
  event?: { id: string; name: string; emitted_at: string };
  /** A streamed route's call. */
  stream?: CallStream;
}

export interface SandboxInvokerDeps {
  runtime: SandboxRuntime;
  moduleData: ModuleDataService;
  events: EventBus;
  clock: Clock;
  logger: Logger;
  fetchAccess: (tenantId: string, alias: string) => Promise<FetchAccess>;
  quarantine: Pick<ModuleQuarantine, 'refusal'>;
  /** SANDBOX_MAX_MEMORY_MB: also bounds versions published before the cap existed. */
  maxMemoryMb: number;
}

/** What a tenant's modules may reach with host.fetch. */
export interface FetchAccess {
  /** Origins (scheme://host[:port]) the tenant allows, each to one module (core/kernel/modules/fetch-grants.ts). */
  grants: FetchGrant[];
  /** Private and loopback addresses too (core/kernel/tenancy/private-networks.ts). */
  allowPrivateNetworks: boolean;
}

export class SandboxInvoker {
  private host!: InvocationHost;
  private readonly fetchers = new LRUCache<string, { access: string; fetch: HostBridge['fetch'] }>({ max: 5_000 });
  /** Open streamed fetches per tenant, shared by its modules' bridges. */
  private readonly streams = new LRUCache<string, { open: number }>({ max: 5_000 });
  /** Per-handler sandbox and bridge time (benchmarks read it in process). */
  readonly timings = new SandboxTimings();

  constructor(private readonly deps: SandboxInvokerDeps) {}

  /** The bus and the invoker need each other: the bus dispatches here, host.call goes back to the bus. */
  attach(bus: Bus): void {
    const { moduleData, events, clock, logger } = this.deps;
    this.host = { bus, moduleData, events, clock, logger, fetcher: (tenantId, alias) => this.fetcher(tenantId, alias) };
  }

  async invoke(mod: LoadedModule, args: InvokeArgs): Promise<unknown> {
    const { ctx } = args;
    const refused = this.deps.quarantine.refusal(mod.key);
    if (refused) throw refused;
    const bridge = new TimedInvocation(this.host, mod, ctx);
    const started = performance.now();
    try {
      return await this.sandboxOf(mod).invoke({
        tenantId: ctx.tenantId,
        kind: args.kind,
        name: args.name,
        input: args.input,
        caller: guestCallerName(args.caller),
        user: ctx.user ? { id: ctx.user.id, name: ctx.user.name, email: ctx.user.email } : null,
        event: args.event ?? null,
        relatedFrom: ctx.relatedFrom ?? null,
        idempotencyKey: ctx.idempotencyKey ?? null,
        bridge,
        ...(args.stream ? { stream: args.stream.sink, timeoutMs: args.stream.timeoutMs } : {}),
      });
    } catch (err) {
      if (!isSandboxError(err)) throw err;
      throw bridge.original(err) ?? toMandiError(mod, args, err);
    } finally {
      this.timings.record(args.kind === 'operation' ? `${mod.alias}.${args.name}` : `${mod.alias}:event:${args.name}`, performance.now() - started, bridge.bridgeMs, bridge.bridgeCalls);
      const released = bridge.release();
      if (released) await released;
    }
  }

  private sandboxOf(mod: LoadedModule): ModuleSandbox {
    const loaded = this.deps.runtime.get(mod.key);
    if (loaded) return loaded;
    const limits = mod.manifest.limits;
    return this.deps.runtime.load(mod.key, mod.code, {
      // An undeclared limit is the sandbox default, which the platform's cap bounds as well.
      memoryMb: Math.min(limits?.memory_mb ?? DEFAULT_LIMITS.memoryMb, this.deps.maxMemoryMb),
      ...(limits?.timeout_ms ? { timeoutMs: limits.timeout_ms } : {}),
    });
  }

  /** host.fetch for one module in one tenant: only the origins granted to that module. */
  private async fetcher(tenantId: string, alias: string): Promise<HostBridge['fetch']> {
    const { grants, allowPrivateNetworks } = await this.deps.fetchAccess(tenantId, alias);
    const origins = grants.filter((g) => g.module === alias).map((g) => g.origin);
    const key = `${allowPrivateNetworks} ${origins.sort().join(' ')}`;
    const owner = `${tenantId} ${alias}`;
    const cached = this.fetchers.get(owner);
    if (cached && cached.access === key) return cached.fetch;
    let streams = this.streams.get(tenantId);
    if (!streams) this.streams.set(tenantId, (streams = { open: 0 }));
    const fetch = createFetchBridge(origins, { allowPrivateNetworks, streams });
    this.fetchers.set(owner, { access: key, fetch });
    return fetch;
  }
}

const GUEST_STATUS_MIN = 400;
const GUEST_STATUS_MAX = 599;

/** A sandbox failure as the typed error callers see. Guest stacks go to the log, never to clients. */
function toMandiError(mod: LoadedModule, args: InvokeArgs, err: SandboxError): MandiError {
  const what = `${mod.key} ${args.kind === 'operation' ? `operation "${args.name}"` : `event handler "${args.name}"`}`;
  switch (err.code) {
    case 'TIMEOUT':
      return sandboxErrors.timeout(what, err.message, mod.alias);
    case 'MEMORY_LIMIT':
      return sandboxErrors.memory(what, err.message, mod.alias);
    case 'OUTPUT_TOO_LARGE':
      return sandboxErrors.outputTooLarge(what, err.message, mod.alias);
    case 'NOT_FOUND':
      return sandboxErrors.handlerMissing(what, mod.alias);
    case 'ISOLATE_CRASHED':
      return sandboxErrors.quarantined(what, mod.alias);
    case 'ISOLATE_DISPOSED':
      return sandboxErrors.restarted(what, mod.alias);
    case 'INVALID_INPUT':
      return sandboxErrors.invalidInput(err.message, mod.alias);
    case 'HANDLER_ERROR': {
      // A module reports business errors by throwing {code, message, details: {status?}}.
      const info = (err.details ?? {}) as { code?: string | number; details?: { status?: unknown } & Record<string, unknown> };
      const status = Number(info.details?.status);
      if (info.code !== undefined) {
        const ok = Number.isInteger(status) && status >= GUEST_STATUS_MIN && status <= GUEST_STATUS_MAX;
        return new MandiError(String(info.code), err.message, ok ? status : 400, info.details);
      }
      return sandboxErrors.failed(what, err.message, mod.alias);
    }
    default:
      return sandboxErrors.broken(what, err.message, mod.alias);
  }
}
