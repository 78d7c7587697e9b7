/**
 * The workflow service (spec 2, Workflows; Executions; Public webhook trigger): the store, the
 * engine, webhook tokens and the event trigger, with the tenant's node catalog. Routes are in
 * workflow-routes.ts, execution-routes.ts and webhook-route.ts.
 */
import { LRUCache } from 'lru-cache';
import type { AuthService } from '../auth/auth-service';
import type { Bus } from '../bus/bus';
import type { EventBus, EventEnvelope } from '../bus/events';
import type { Catalog } from '../catalogs/catalog';
import type { TenantCatalogs } from '../catalogs/tenant-catalogs';
import type { Clock } from '../clock';
import type { RequestContext } from '../context';
import type { CentralDb } from '../data/central-db';
import type { TenantDatabases } from '../data/tenant-databases';
import type { JobQueue } from '../drivers';
import { isObject } from '../is-object';
import type { Logger } from '../logger';
import type { ModuleHost } from '../modules/module-host';
import type { TenantService } from '../tenancy/tenant-service';
import { WorkflowEngine } from './engine';
import { actingOwner, type Acting } from './owner';
import { WORKFLOWS_MODULE } from './route-support';
import type { SimulateDeps } from './simulate';
import type { ExecutionRow, Graph } from './workflow';
import type { WorkflowInput } from './workflow-input';
import { WorkflowStore } from './workflow-store';
import { WebhookTokens } from './webhook-tokens';

const EVENT_TRIGGERS_TTL_MS = 5_000;

export interface WorkflowsDeps {
  central: CentralDb;
  tenantDbs: TenantDatabases;
  tenants: TenantService;
  auth: AuthService;
  modules: ModuleHost;
  bus: Bus;
  events: EventBus;
  catalogs: TenantCatalogs;
  queue: JobQueue;
  clock: Clock;
  logger: Logger;
  appUrl: string;
  workers: number;
  tenantWorkers: number;
}

export class Workflows {
  readonly store: WorkflowStore;
  readonly engine: WorkflowEngine;
  readonly tokens: WebhookTokens;
  private readonly rings = new LRUCache<string, string>({ max: 10_000, ttl: 30_000 });
  private readonly owners = new LRUCache<string, Promise<Acting>>({ max: 10_000, ttl: 5_000 });
  /**
   * Per tenant, the events its active event-triggered workflows follow: most events start nothing,
   * so most deliveries end here without a query. Dropped on this node at every change; another
   * node sees a change within EVENT_TRIGGERS_TTL_MS.
   */
  private readonly eventTriggers = new LRUCache<string, Promise<Set<string>>>({ max: 10_000, ttl: EVENT_TRIGGERS_TTL_MS });

  constructor(private readonly deps: WorkflowsDeps) {
    this.store = new WorkflowStore(deps.tenantDbs);
    this.tokens = new WebhookTokens(deps.central);
    this.engine = new WorkflowEngine({
      store: this.store, queue: deps.queue, bus: deps.bus, events: deps.events, clock: deps.clock, logger: deps.logger, workers: deps.workers, tenantWorkers: deps.tenantWorkers,
      catalogFor: (id) => this.catalogFor(id),
      acting: (tenantId, ownerId) => {
        // The owner's user row, briefly cached like memberships (auth): a run makes one lookup, not one per node.
        const key = `${tenantId}:${ownerId}`;
        const hit = this.owners.get(key);
        if (hit) return hit;
        const found = actingOwner(deps.central, deps.auth, tenantId, ownerId);
        this.owners.set(key, found);
        found.catch(() => this.owners.delete(key));
        return found;
      },
    });
  }

  /** This node runs executions and follows platform events for event-triggered workflows. */
  start(): void {
    this.engine.start();
    this.deps.events.subscribeCore('workflows', '*', (envelope) => this.onEvent(envelope));
  }

  now(): number {
    return this.deps.clock.now();
  }

  async catalogFor(tenantId: string): Promise<Catalog> {
    let ring = this.rings.get(tenantId);
    if (!ring) {
      ring = (await this.deps.tenants.describe(tenantId))?.ring ?? 'stable';
      this.rings.set(tenantId, ring);
    }
    return (await this.deps.catalogs.forTenant({ id: tenantId, ring })).catalog;
  }

  async create(tenantId: string, input: WorkflowInput, ownerId: number): Promise<Graph> {
    const graph = await this.store.create(tenantId, input, ownerId);
    await this.tokens.add(tenantId, graph.workflow.webhook_token, graph.workflow.id);
    this.eventTriggers.delete(tenantId);
    return graph;
  }

  async remove(tenantId: string, graph: Graph): Promise<void> {
    await this.store.remove(tenantId, graph.workflow.id);
    await this.tokens.remove(tenantId, graph.workflow.webhook_token);
    this.eventTriggers.delete(tenantId);
  }

  async update(tenantId: string, id: string, input: WorkflowInput): Promise<Graph | undefined> {
    const graph = await this.store.update(tenantId, id, input);
    this.eventTriggers.delete(tenantId);
    return graph;
  }

  async setStatus(tenantId: string, id: string, status: string): Promise<void> {
    await this.store.setStatus(tenantId, id, status);
    this.eventTriggers.delete(tenantId);
  }

  /** POST /workflows/{id}/test: a run made and run to its end (or first suspension) before answering. */
  async test(tenantId: string, g: Graph, data: Record<string, unknown>, userId: number): Promise<ExecutionRow> {
    const row = (await this.store.createExecution(tenantId, g, { trigger_type: 'manual', trigger_data: data, triggered_by: userId, queue: g.nodes.filter((n) => n.node_category === 'trigger').map((n) => n.id) }))!;
    await this.engine.run(tenantId, row.id);
    return (await this.store.execution(tenantId, row.id))!;
  }

  simulateDeps(tenantId: string, ctx: RequestContext): SimulateDeps {
    return { call: (op, input) => this.deps.bus.call({ kind: 'edge', via: 'workflow' }, op, input, { tenantId, user: ctx.user ?? null, permissions: ctx.permissions, requestId: ctx.requestId }) };
  }

  webhookUrl(token: string): string {
    return `${this.deps.appUrl}/api/webhooks/workflows/${token}`;
  }

  /** Spec 2: an event trigger starts each active workflow naming the event, once per event id. */
  private async onEvent(envelope: EventEnvelope): Promise<void> {
    const mods = await this.deps.modules.modulesFor(envelope.tenantId);
    if (!mods.byAlias.has(WORKFLOWS_MODULE)) return;
    let followed = this.eventTriggers.get(envelope.tenantId);
    if (!followed) {
      followed = this.store.activeEventNames(envelope.tenantId);
      this.eventTriggers.set(envelope.tenantId, followed);
      followed.catch(() => this.eventTriggers.delete(envelope.tenantId));
    }
    if (!(await followed).has(envelope.event)) return;
    const graphs = (await this.store.activeByTrigger(envelope.tenantId, 'event')).filter((g) => g.workflow.trigger_config.event === envelope.event);
    for (const g of graphs) {
      const data = isObject(envelope.payload) ? envelope.payload : { payload: envelope.payload };
      await this.engine.execute(envelope.tenantId, g, { type: 'event', data, triggeredBy: null, key: `event:${envelope.id}` });
    }
  }
}
