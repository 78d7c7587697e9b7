/**
 * The host bridge of one sandboxed invocation: host.call goes back through the bus as the module,
 * host.db reaches only the module's own schema in the current tenant, host.emit only the events the
 * manifest publishes, host.fetch only the origins the tenant configured.
 *
 * A class, not an object of closures: the bridge is made for every call and most handlers never use
 * it, so its methods live on the prototype and what they need (a logger, a database bridge, an owner
 * key for transactions) is made on first use.
 */
import type { DbMethod, FetchRequest, FetchResponse, HostBridge, LogLevel, SandboxError } from '../../../sandbox';
import type { Clock } from '../clock';
import { MandiError } from '../errors';
import type { Logger } from '../logger';
import type { ModuleDataService } from '../module-data';
import type { LoadedModule } from '../modules/loaded-module';
import type { Bus } from '../bus/bus';
import { busErrors } from '../bus/errors';
import type { EventBus } from '../bus/events';
import type { CallContext } from '../bus/types';
import { uploadBody } from './upload-body';

/** What every invocation shares: the parts of the host its bridge reaches. */
export interface InvocationHost {
  bus: Bus;
  moduleData: ModuleDataService;
  events: EventBus;
  clock: Clock;
  logger: Logger;
  /** host.fetch for one module in one tenant (only the origins granted to that module). */
  fetcher(tenantId: string, alias: string): Promise<HostBridge['fetch']>;
}

// Owner keys of host.db transactions only need to be unique in this process and are never shown to
// guest code (transaction ids are random), so a counter does.
let lastOwnerKey = 0;

const passKey = (code: unknown, message: string) => `${String(code)}\u0000${message}`;

export class Invocation implements HostBridge {
  /** Set on first host.db use: the invocation's transactions are bound to it. */
  private ownerKey: string | undefined;
  private dbBridge: ReturnType<ModuleDataService['bridge']> | undefined;
  private logger: Logger | undefined;
  /** Errors the host handed to the guest: when the guest lets one escape, the caller sees the original. */
  private passedThrough: Map<string, MandiError> | undefined;

  constructor(
    private readonly host: InvocationHost,
    private readonly mod: LoadedModule,
    private readonly ctx: CallContext & { depth?: number },
  ) {}

  call(op: string, input: unknown): Promise<unknown> {
    // What the handler calls in turn is its own module's doing in this tenant, not the related tenant's.
    const ctx = this.ctx.relatedFrom === undefined && this.ctx.idempotencyKey === undefined && this.ctx.workflowExecutionId === undefined
      ? this.ctx
      : { ...this.ctx, relatedFrom: undefined, idempotencyKey: undefined, workflowExecutionId: undefined };
    return this.host.bus.call({ kind: 'module', alias: this.mod.alias }, op, input, ctx).catch((err: unknown) => this.remember(err));
  }

  db(method: DbMethod, args: unknown[], txId?: string): Promise<unknown> {
    if (this.dbBridge === undefined) {
      this.ownerKey = `invocation:${++lastOwnerKey}`;
      this.dbBridge = this.host.moduleData.bridge(this.ctx.tenantId, this.mod.alias, this.mod.manifest.data?.models, this.ownerKey);
    }
    return this.dbBridge(method, args, txId).catch((err: unknown) => this.remember(err));
  }

  async emit(event: string, payload: unknown): Promise<void> {
    if (!(this.mod.manifest.events?.publishes ?? []).includes(event)) this.remember(busErrors.eventNotDeclared(this.mod.alias, event));
    await this.host.events.emit(this.ctx.tenantId, event, payload, this.mod.alias, this.ctx.workflowChain);
  }

  log(level: LogLevel, message: string, data?: unknown): void {
    this.logger ??= this.host.logger.child({ module: this.mod.key, tenant: this.ctx.tenantId });
    this.logger[level]({ data }, message);
  }

  async fetch(req: FetchRequest): Promise<FetchResponse> {
    const fetch = await this.host.fetcher(this.ctx.tenantId, this.mod.alias);
    if (!req.bodyParts) return fetch(req);
    const { bodyParts, ...rest } = req;
    return fetch({ ...rest, loadBody: () => uploadBody(bodyParts, (input) => this.call('files.read_upload', input)) });
  }

  now(): number {
    return this.host.clock.now();
  }

  /** Rolls back what the handler left open; undefined (nothing to wait for) when it never used host.db. */
  release(): Promise<number> | undefined {
    return this.ownerKey === undefined ? undefined : this.host.moduleData.releaseAll(this.ownerKey);
  }

  /** The host error behind a guest failure, when the guest let one it was given escape unchanged. */
  original(err: SandboxError): MandiError | undefined {
    return this.passedThrough?.get(passKey((err.details as { code?: unknown } | undefined)?.code, err.message));
  }

  private remember(err: unknown): never {
    if (err instanceof MandiError) (this.passedThrough ??= new Map()).set(passKey(err.code, err.message), err);
    throw err;
  }
}
