/**
 * What a test drives on a booted platform beyond its API: schedules due now, module jobs run to their
 * end, event deliveries waited for or repeated, modules loaded from a built folder, and stand-ins for
 * consumed operations. Each goes through the platform's own parts (scheduler, job store, queue, bus),
 * never around them, so a test of a module sees what production would.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { QueryTypes } from 'sequelize';
import type { JobInfo } from '../../sdk/runtime/jobs';
import { EVENTS_QUEUE, deliveryJobId } from '../kernel/bus/events';
import type { CallContext, Caller } from '../kernel/bus/types';
import { tenantDbName } from '../kernel/data/tenant-databases';
import { backoffDelay } from '../kernel/drivers/queue/schedule';
import { loadModuleFromDir } from '../kernel/modules/loaded-module';
import { jobView } from '../kernel/modules/module-jobs';
import { dueSlot, RUN_QUEUE } from '../kernel/modules/module-scheduler';
import type { Platform } from '../platform';

export type DeliveryState = 'completed' | 'failed';

/** A stand-in's declared schemas (default: any input, no check of the answer) and permission. */
export interface StandInOptions {
  input?: TSchema;
  output?: TSchema;
  permission?: string;
}

export interface AuditRow {
  actor_type: string;
  actor_id: string | null;
  action: string;
  target: string | null;
  status: string;
  details: unknown;
}

export interface TestControls {
  /** How long a wait for a delivery or a run allows: every retry a failing subscriber gets, plus time to run them. */
  settleMs: number;
  /** Loads a built module folder (module.json and its bundle) into the platform's development source; resolves with its alias and version. */
  loadModule(dir: string): Promise<{ alias: string; version: string }>;
  /** The name of a tenant's own database on the PostgreSQL server. */
  tenantDatabase(tenantId: string): string;
  /** Queues every schedule due at `at` as the minute tick does; with `settle`, waits for the tenant's runs of those slots. */
  runSchedules(tenantId: string, at: number, opts?: { settle?: boolean }): Promise<number>;
  /** Runs one installed schedule now and resolves with its result. */
  runSchedule(tenantId: string, name: string, opts?: { module?: string; at?: Date | number }): Promise<unknown>;
  /** Runs the tenant's pending module jobs due at `at`, each to its end (attempts back to back). */
  runJobs(tenantId: string, at: number): Promise<JobInfo[]>;
  /** A module job as jobs.get shows it, or undefined. */
  job(tenantId: string, id: string): Promise<JobInfo | undefined>;
  /** Emits an event for the tenant; with `settle`, resolves once every module subscriber's delivery ended. */
  emit(tenantId: string, event: string, payload: unknown, opts?: { settle?: boolean }): Promise<string>;
  /** Waits for every module's delivery of an event to the tenant's modules to end. */
  settle(tenantId: string, eventId: string): Promise<void>;
  /** Waits for one module's delivery of an event to end. */
  delivery(eventId: string, module: string): Promise<DeliveryState>;
  /** Hands an event to `module` (or a host part's subscription, "core:workflows") once more, as at-least-once delivery may. */
  redeliver(eventId: string, module: string): Promise<DeliveryState>;
  /**
   * Answers `operation` with `handler`, registered on the bus (Bus.registerStandIn): a module that
   * consumes it reaches the function through every check a real provider's answer passes. Returns the removal.
   */
  standIn(operation: string, handler: (input: unknown, ctx: CallContext, caller: Caller) => unknown, opts?: StandInOptions): () => void;
  /** How many times the sandbox ran the handler of `operation` so far. */
  handlerCalls(operation: string): number;
  /** A tenant's audit rows, oldest first, pending ones flushed first. */
  auditRows(tenantId: string): Promise<AuditRow[]>;
}

async function jobEnded(platform: Platform, queue: string, jobId: string, timeoutMs: number, must: boolean): Promise<DeliveryState | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await platform.drivers.queue.getJob(queue, jobId);
    if (job && (job.state === 'completed' || job.state === 'failed')) return job.state;
    if (!job && !must) return undefined;
    if (Date.now() > deadline) throw new Error(`job ${jobId} of ${queue} did not finish within ${timeoutMs} ms (state: ${job?.state ?? 'not queued'})`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export function testControls(platform: Platform, eventDelivery: { attempts: number; backoffMs: number }): TestControls {
  const { attempts, backoffMs } = eventDelivery;
  const settleMs = 15_000 + Array.from({ length: attempts - 1 }, (_, i) => backoffDelay({ type: 'exponential', delay: backoffMs }, i + 1)).reduce((a, b) => a + b, 0);
  const { queue } = platform.drivers;
  const tenantModules = (tenantId: string) => platform.kernel.modules.modulesFor(tenantId);
  const delivery = async (eventId: string, module: string) => (await jobEnded(platform, EVENTS_QUEUE, deliveryJobId(eventId, module), settleMs, true))!;
  let redeliveries = 0;

  return {
    settleMs,
    loadModule: async (dir) => {
      const mod = await loadModuleFromDir(dir);
      platform.kernel.source.add(mod);
      return { alias: mod.alias, version: mod.manifest.version };
    },
    tenantDatabase: tenantDbName,
    runSchedules: async (tenantId, at, o = {}) => {
      const queued = await platform.kernel.scheduler.tick(at);
      if (o.settle) {
        for (const mod of (await tenantModules(tenantId)).list) {
          for (const s of mod.manifest.schedules ?? []) {
            const slot = dueSlot(s, at);
            if (slot === undefined) continue;
            const runId = (t: number) => `${tenantId}:${mod.alias}:${s.name}:${t}`;
            await jobEnded(platform, RUN_QUEUE, runId(slot), settleMs, true);
            if (s.every_ms) await jobEnded(platform, RUN_QUEUE, runId(slot - s.every_ms), settleMs, false);
          }
        }
      }
      return queued;
    },
    runSchedule: async (tenantId, name, o = {}) => {
      const found = (await tenantModules(tenantId)).list.flatMap((m) => (m.manifest.schedules ?? []).filter((s) => s.name === name && (!o.module || m.alias === o.module)).map((s) => ({ alias: m.alias, s })));
      if (found.length !== 1) throw new Error(`${found.length ? 'more than one' : 'no'} schedule named ${name}${o.module ? ` in ${o.module}` : ''} is installed in the test tenant`);
      const { alias, s } = found[0]!;
      return platform.kernel.scheduler.run({ tenantId, alias, schedule: s.name, operation: s.operation, scheduledAt: new Date(o.at ?? platform.clock.now()).toISOString() });
    },
    runJobs: async (tenantId, at) => (await platform.kernel.jobs.runDue(tenantId, at)).map(jobView),
    job: async (tenantId, id) => {
      const row = await platform.kernel.jobs.get(tenantId, id);
      return row ? jobView(row) : undefined;
    },
    emit: async (tenantId, event, payload, o = {}) => {
      const id = await platform.kernel.events.emit(tenantId, event, payload, 'test');
      if (o.settle) for (const m of (await tenantModules(tenantId)).subscribersOf(event)) await delivery(id, m.alias);
      return id;
    },
    settle: async (tenantId, eventId) => {
      for (const m of (await tenantModules(tenantId)).list) await jobEnded(platform, EVENTS_QUEUE, deliveryJobId(eventId, m.alias), settleMs, false);
    },
    delivery,
    redeliver: async (eventId, module) => {
      // A host part's subscription (e.g. "core:workflows") has its own delivery job id (core/kernel/bus/events.ts).
      const job = await queue.getJob(EVENTS_QUEUE, module.startsWith('core:') ? `${eventId}:${module}` : deliveryJobId(eventId, module));
      if (!job) throw new Error(`event ${eventId} was never delivered to ${module}`);
      const again = await queue.add(EVENTS_QUEUE, job.name, job.data, { jobId: `${eventId}:redelivery-${++redeliveries}` });
      return (await jobEnded(platform, EVENTS_QUEUE, again, settleMs, true))!;
    },
    standIn: (operation, handler, o = {}) =>
      platform.kernel.bus.registerStandIn({
        name: operation,
        description: `stand-in for ${operation} (a test's function)`,
        input: o.input ?? Type.Unknown(),
        output: o.output,
        permission: o.permission,
        handler: async (input, ctx, caller) => handler(input, ctx, caller),
      }),
    handlerCalls: (operation) => platform.kernel.sandboxTimings.snapshot()[operation]?.calls ?? 0,
    auditRows: async (tenantId) => {
      await platform.kernel.audit.flush();
      return platform.central.sequelize.query('SELECT actor_type, actor_id, action, target, status, details FROM audit_log WHERE tenant_id = $1 ORDER BY id', {
        bind: [tenantId],
        type: QueryTypes.SELECT,
      });
    },
  };
}
