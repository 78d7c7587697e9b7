/**
 * The workflow service (spec 2, Workflows; Executions; Public webhook trigger): the store, the
 * engine, webhook tokens and the event trigger, with the tenant's node catalog. Routes are in
 * workflow-routes.ts, execution-routes.ts and webhook-route.ts.
 */
import { LRUCache } from 'lru-cache';
import { ActivityLog } from '../activity/activity-log';
import type { AuthService } from '../../kernel/auth/auth-service';
import type { Bus } from '../../kernel/bus/bus';
import type { EventBus, EventEnvelope } from '../../kernel/bus/events';
import type { Catalog } from '../contributions/catalog';
import type { TenantCatalogs } from '../contributions/tenant-catalogs';
import type { Clock } from '../../kernel/clock';
import type { RequestContext } from '../../kernel/context';
import type { CentralDb } from '../../kernel/data/central-db';
import type { TenantDatabases } from '../../kernel/data/tenant-databases';
import type { JobQueue, PubSub } from '../../kernel/drivers';
import { isObject } from '../../kernel/is-object';
import type { Logger } from '../../kernel/logger';
import type { ModuleHost } from '../../kernel/modules/module-host';
import type { TenantService } from '../../kernel/tenancy/tenant-service';
import { WorkflowEngine } from './engine';
import { RunSweeper } from './run-sweeper';
import { assertActivatable, checkGraph, checkInput } from './graph-check';
import { checkErrorWorkflowSetting } from './error-workflow';
import { assertHoldsNodePermissions, type Actor } from './node-permissions';
import { chainOf } from './run-chain';
import { workflowErrors } from './errors';
import { notifyOwnerInactive, ownerInactiveReason } from './owner-inactive';
import { WORKFLOWS_MODULE } from './route-support';
import { RunWaiters } from './run-waiters';
import type { SimulateDeps } from './simulate';
import type { ExecutionRow, Graph } from './workflow';
import type { WorkflowInput } from './workflow-input';
import { WorkflowStore } from './workflow-store';
import { SUMMARIES } from './workflow-versions';
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
  pubsub: PubSub;
  clock: Clock;
  logger: Logger;
  appUrl: string;
  workers: number;
  tenantWorkers: number;
  /** WORKFLOW_MAX_CHAIN_DEPTH (./run-chain.ts). */
  maxChainDepth: number;
  /** Versions kept per workflow besides those unfinished runs are pinned to (WORKFLOW_VERSIONS_KEEP). */
  versionsKeep: number;
  /** Webhook calls one tenant may have waiting for their run on this node (WORKFLOW_WEBHOOK_WAITS_PER_TENANT). */
  webhookWaitsPerTenant: number;
  /** The sweeper's interval (WORKFLOW_SWEEP_SECONDS) and a run's lease (WORKFLOW_RUN_LEASE_SECONDS), in ms. */
  sweepMs: number;
  leaseMs: number;
}

export class Workflows {
  readonly store: WorkflowStore;
  readonly engine: WorkflowEngine;
  readonly tokens: WebhookTokens;
  readonly waiters: RunWaiters;
  private readonly activity: ActivityLog;
  private readonly sweeper: RunSweeper;
  private readonly rings = new LRUCache<string, string>({ max: 10_000, ttl: 30_000 });
  /**
   * Per tenant, the events its active event-triggered workflows follow: most events start nothing,
   * so most deliveries end here without a query. Dropped on this node at every change; another
   * node sees a change within EVENT_TRIGGERS_TTL_MS.
   */
  private readonly eventTriggers = new LRUCache<string, Promise<Set<string>>>({ max: 10_000, ttl: EVENT_TRIGGERS_TTL_MS });

  constructor(private readonly deps: WorkflowsDeps) {
    this.store = new WorkflowStore(deps.tenantDbs, deps.versionsKeep, deps.leaseMs);
    this.tokens = new WebhookTokens(deps.central);
    this.activity = new ActivityLog(deps.tenantDbs);
    this.waiters = new RunWaiters({ pubsub: deps.pubsub, store: this.store, logger: deps.logger, perTenant: deps.webhookWaitsPerTenant });
    this.engine = new WorkflowEngine({
      store: this.store, queue: deps.queue, bus: deps.bus, events: deps.events, clock: deps.clock, logger: deps.logger, workers: deps.workers, tenantWorkers: deps.tenantWorkers, maxChainDepth: deps.maxChainDepth, leaseMs: deps.leaseMs,
      catalogFor: (id) => this.catalogFor(id),
      acting: (tenantId, ownerId) => deps.auth.actingUser(tenantId, ownerId),
      ownerInactive: (tenantId, g) => this.ownerInactive(tenantId, g),
      finished: (tenantId, run) => this.waiters.finished(tenantId, run),
    });
    this.sweeper = new RunSweeper({ central: deps.central, store: this.store, engine: this.engine, logger: deps.logger.child({ part: 'workflows' }), now: () => deps.clock.now(), everyMs: deps.sweepMs });
  }

  /** This node runs executions and follows platform events for event-triggered workflows. */
  start(): void {
    this.engine.start();
    this.sweeper.start();
    this.deps.events.subscribeCore('workflows', '*', (envelope) => this.onEvent(envelope));
  }

  /**
   * Stops this node's sweeps and its workers, waiting for the runs they hold (their checkpoints,
   * lifecycle events and wake-ups go into a queue still open: the drivers part's drain closes it
   * after this one, core/services/workflows/part.ts), then its lease renewals. Runs still queued stay for another node, or this one's next start.
   */
  async stop(): Promise<void> {
    await this.sweeper.stop();
    await this.engine.stop();
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

  /**
   * A new workflow (create, import, duplicate), owned by `actor`, who must hold every permission its
   * nodes need (node-permissions.ts).
   */
  async create(tenantId: string, input: WorkflowInput, actor: Actor, summary: string): Promise<Graph> {
    await this.assertHolds(tenantId, 'save', input.nodes, actor);
    if (input.status === 'active') assertActivatable(checkInput(input, await this.catalogFor(tenantId)));
    await checkErrorWorkflowSetting(this.store, tenantId, input.settings);
    const graph = await this.store.create(tenantId, input, actor.user, summary);
    await this.tokens.add(tenantId, graph.workflow.webhook_token, graph.workflow.id);
    this.eventTriggers.delete(tenantId);
    await this.changed(tenantId, actor, 'workflow_created', graph);
    return graph;
  }

  async remove(tenantId: string, graph: Graph, actor: Actor): Promise<void> {
    await this.store.remove(tenantId, graph.workflow.id);
    await this.tokens.remove(tenantId, graph.workflow.webhook_token);
    this.eventTriggers.delete(tenantId);
    await this.changed(tenantId, actor, 'workflow_deleted', graph);
  }

  /**
   * A save: the workflow becomes `actor`'s, whoever owned it, and `actor` must hold every permission
   * its nodes need, so a run never acts with more than its last editor may do (README, Owner and permissions).
   */
  async update(tenantId: string, current: Graph, input: WorkflowInput, actor: Actor, restoredFrom?: number): Promise<Graph | undefined> {
    await this.assertHolds(tenantId, 'save', input.nodes, actor);
    // An active workflow stays runnable: a save that leaves it active passes activation's checks.
    if (input.status === 'active') assertActivatable(checkInput(input, await this.catalogFor(tenantId)));
    await checkErrorWorkflowSetting(this.store, tenantId, input.settings, current.workflow.id);
    const save = restoredFrom === undefined ? {} : { summary: SUMMARIES.restored(restoredFrom), restoredFrom };
    const graph = await this.store.update(tenantId, current.workflow.id, input, actor.user, save);
    this.eventTriggers.delete(tenantId);
    if (graph) await this.changed(tenantId, actor, 'workflow_updated', graph, { previous_owner_id: Number(current.workflow.owner_id) });
    return graph;
  }

  /**
   * Activation turns on runs as the owner: `actor` must hold every permission the nodes need too, and
   * an owner who is no longer an active member would only stop them again (409: save it first to take it over).
   */
  async activate(tenantId: string, graph: Graph, actor: Actor): Promise<void> {
    assertActivatable(checkGraph(graph, await this.catalogFor(tenantId)));
    await this.assertHolds(tenantId, 'activate', graph.nodes, actor);
    if (!(await this.deps.auth.actingUser(tenantId, Number(graph.workflow.owner_id)))) throw workflowErrors.ownerInactive(graph.workflow.owner_id);
    await this.setStatus(tenantId, graph, 'active', actor);
  }

  async setStatus(tenantId: string, graph: Graph, status: string, actor: Actor): Promise<void> {
    await this.store.setStatus(tenantId, graph.workflow.id, status);
    this.eventTriggers.delete(tenantId);
    await this.changed(tenantId, actor, status === 'active' ? 'workflow_activated' : 'workflow_deactivated', graph);
  }

  /** Spec 2, deactivate: "prevents automatic execution"; the platform does it once for an owner who left (./owner-inactive.ts). */
  private async ownerInactive(tenantId: string, g: Graph): Promise<void> {
    const reason = ownerInactiveReason(g.workflow.owner_id);
    if (!(await this.store.pauseActive(tenantId, g.workflow.id, reason))) return;
    this.eventTriggers.delete(tenantId);
    await this.changed(tenantId, null, 'workflow_deactivated', g, { reason });
    // The pause is what stops the runs; a notice that could not be sent must not fail the run's job.
    await notifyOwnerInactive(this.deps, tenantId, g).catch((err) => this.deps.logger.error({ err, workflow: g.workflow.id }, 'owner-inactive notification not sent'));
  }

  /**
   * 403 unless `actor` holds every permission the nodes need: to save or activate a workflow, or to
   * run one by hand, whose trigger data (an order id, say) the person choosing it steers.
   */
  async assertHolds(tenantId: string, action: string, nodes: readonly { label: string; node_type: string }[], actor: Actor): Promise<void> {
    await assertHoldsNodePermissions(action, nodes, await this.catalogFor(tenantId), (op) => this.deps.bus.permissionOf(tenantId, op), actor);
  }

  /** The tenant's activity log: who (null: the platform) changed which workflow, and whose it is now. */
  private changed(tenantId: string, actor: Actor | null, action: string, graph: Graph, extra: Record<string, unknown> = {}): Promise<void> {
    return this.activity.record(tenantId, {
      userId: actor?.user.id ?? null, action, subjectType: 'workflow', subjectId: graph.workflow.id,
      properties: { name: graph.workflow.name, owner_id: Number(graph.workflow.owner_id), ...extra },
    });
  }

  /** POST /workflows/{id}/test: a run made and run to its end (or first suspension) before answering. */
  async test(tenantId: string, g: Graph, data: Record<string, unknown>, userId: number): Promise<ExecutionRow> {
    const row = (await this.store.createExecution(tenantId, g, { trigger_type: 'manual', trigger_data: data, triggered_by: userId, queue: g.nodes.filter((n) => n.node_category === 'trigger').map((n) => n.id) }))!;
    await this.engine.run(tenantId, row.id);
    return (await this.store.execution(tenantId, row.id))!;
  }

  simulateDeps(tenantId: string, ctx: RequestContext): SimulateDeps {
    return {
      call: (op, input) => this.deps.bus.call({ kind: 'edge', via: 'workflow' }, op, input, { tenantId, user: ctx.user ?? null, permissions: ctx.permissions, requestId: ctx.requestId }),
      publishes: async (alias) => (await this.deps.modules.modulesFor(tenantId)).byAlias.get(alias)?.manifest.events?.publishes ?? [],
    };
  }

  webhookUrl(token: string): string {
    return `${this.deps.appUrl}/api/webhooks/workflows/${token}`;
  }

  /** Spec 2: an event trigger starts each active workflow naming the event, once per event id, with the event's run chain (./run-chain.ts). */
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
      await this.engine.execute(envelope.tenantId, g, { type: 'event', data, triggeredBy: null, key: `event:${envelope.id}`, chain: chainOf(envelope.chain) });
    }
  }
}
