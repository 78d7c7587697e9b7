/**
 * Module events (DESIGN.md, Bus, Events): `emit` publishes; every subscriber receives each event at
 * least once through the job queue, one job per (event, subscriber), retried with backoff.
 * Subscribers are modules that list the event in events.subscribes, and host parts (outbound
 * webhooks, notification rules, workflows) registered with `subscribeCore`.
 */
import { randomUUID } from 'node:crypto';
import type { JobQueue } from '../drivers';
import type { Logger } from '../logger';
import type { ModuleHost } from '../modules/module-host';
import type { Clock } from '../clock';

export const EVENTS_QUEUE = 'module-events';

export interface EventEnvelope {
  id: string;
  tenantId: string;
  event: string;
  payload: unknown;
  /** Who emitted it: a module alias or "core". */
  source: string;
  emittedAt: string;
  /**
   * The workflows of the chain of runs the event was emitted under (CallContext.workflowChain), when
   * a workflow run caused it: a run it starts is refused if it would loop (core/services/workflows/run-chain.ts).
   */
  chain?: readonly string[];
}

interface DeliveryJob {
  envelope: EventEnvelope;
  /** "module:<alias>" or "core:<name>". */
  subscriber: string;
}

export type CoreEventHandler = (envelope: EventEnvelope) => Promise<void>;
export type ModuleEventHandler = (alias: string, envelope: EventEnvelope) => Promise<void>;

export interface EventBusOptions {
  attempts: number;
  backoffMs: number;
  concurrency: number;
}

/** The queue job that delivers one event to one module: stable, so a re-queued delivery deduplicates. */
export const deliveryJobId = (eventId: string, alias: string) => `${eventId}:module:${alias}`;

const eventMatches = (pattern: string, event: string) => pattern === event || pattern === '*' || (pattern.endsWith('.*') && event.startsWith(pattern.slice(0, -1)));

export class EventBus {
  private readonly core = new Map<string, { pattern: string; handler: CoreEventHandler }>();
  private deliverToModule: ModuleEventHandler | undefined;

  constructor(
    private readonly deps: { queue: JobQueue; modules: ModuleHost; logger: Logger; clock: Clock },
    private readonly opts: EventBusOptions,
  ) {}

  /** A host part that wants events matching `pattern` ("orders.created", "orders.*", "*"). */
  subscribeCore(name: string, pattern: string, handler: CoreEventHandler): void {
    this.core.set(name, { pattern, handler });
  }

  /** Starts this node's delivery worker; module deliveries go through `deliver` (the sandbox). */
  start(deliver: ModuleEventHandler): void {
    this.deliverToModule = deliver;
    this.deps.queue.process<DeliveryJob, void>(EVENTS_QUEUE, this.opts.concurrency, async (job) => {
      const { envelope, subscriber } = job.data;
      const [kind, name] = [subscriber.slice(0, subscriber.indexOf(':')), subscriber.slice(subscriber.indexOf(':') + 1)];
      if (kind === 'core') {
        const sub = this.core.get(name);
        if (sub) await sub.handler(envelope);
        return;
      }
      await this.deliverToModule!(name, envelope);
    });
  }

  /** Queues one delivery per subscriber; returns the event id. `chain`: the workflow runs it was emitted under. */
  async emit(tenantId: string, event: string, payload: unknown, source: string, chain?: readonly string[]): Promise<string> {
    const envelope: EventEnvelope = { id: randomUUID(), tenantId, event, payload, source, emittedAt: new Date(this.deps.clock.now()).toISOString() };
    if (chain?.length) envelope.chain = chain;
    const modules = (await this.deps.modules.modulesFor(tenantId)).subscribersOf(event);
    const jobs = modules.map((m) => ({ subscriber: `module:${m.alias}`, jobId: deliveryJobId(envelope.id, m.alias) }));
    for (const [name, sub] of this.core) {
      if (eventMatches(sub.pattern, event)) jobs.push({ subscriber: `core:${name}`, jobId: `${envelope.id}:core:${name}` });
    }
    await Promise.all(
      jobs.map(({ subscriber, jobId }) =>
        this.deps.queue.add<DeliveryJob>(EVENTS_QUEUE, event, { envelope, subscriber }, {
          attempts: this.opts.attempts,
          backoff: { type: 'exponential', delay: this.opts.backoffMs },
          // The same event never reaches the same subscriber twice through a re-emit of this envelope.
          jobId,
          removeOnComplete: 1000,
        }),
      ),
    );
    this.deps.logger.debug({ tenantId, event, subscribers: jobs.map((j) => j.subscriber) }, 'event emitted');
    return envelope.id;
  }
}
