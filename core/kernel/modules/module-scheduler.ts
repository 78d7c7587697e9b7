/**
 * Runs the `schedules` of installed modules (manifest: {name, operation, every_ms | cron}). One
 * repeatable tick job per minute, shared by every node through the queue; each tick queues, for each
 * tenant and due schedule, one run job whose id names the time slot, so however many nodes tick, a
 * slot runs once per tenant (and is retried if it fails). Time comes from the platform clock.
 */
import { parseExpression } from 'cron-parser';
import type { ModuleSchedule } from '../../../sdk/manifest';
import type { Bus } from '../bus/bus';
import { SCHEDULER } from '../bus/types';
import type { Clock } from '../clock';
import type { CentralDb } from '../data/central-db';
import type { JobQueue } from '../drivers';
import type { Logger } from '../logger';
import type { ModuleHost } from './module-host';

const TICK_QUEUE = 'module-schedule-ticks';
/** One job per tenant, schedule and slot, id `<tenant>:<alias>:<schedule>:<slot ms>`. */
export const RUN_QUEUE = 'module-schedule-runs';
const TICK_MS = 60_000;

export interface RunJob {
  tenantId: string;
  alias: string;
  schedule: string;
  operation: string;
  scheduledAt: string;
}

/** Start of the slot due in (tick - TICK_MS, tick], or undefined when none is. */
export function dueSlot(schedule: Pick<ModuleSchedule, 'every_ms' | 'cron'>, tick: number): number | undefined {
  if (schedule.every_ms) {
    const slot = Math.floor(tick / schedule.every_ms) * schedule.every_ms;
    return slot > tick - TICK_MS ? slot : undefined;
  }
  const next = parseExpression(schedule.cron!, { currentDate: new Date(tick - TICK_MS), tz: 'UTC' }).next().getTime();
  return next <= tick ? next : undefined;
}

export class ModuleScheduler {
  constructor(private readonly deps: { queue: JobQueue; central: CentralDb; modules: ModuleHost; bus: Bus; clock: Clock; logger: Logger }) {}

  async start(): Promise<void> {
    const { queue } = this.deps;
    queue.process<unknown, number>(TICK_QUEUE, 1, () => this.tick());
    queue.process<RunJob, unknown>(RUN_QUEUE, 4, (job) => this.run(job.data));
    await queue.add(TICK_QUEUE, 'tick', {}, { repeat: { every: TICK_MS }, jobId: 'module-schedule-tick', removeOnComplete: true, removeOnFail: 100 });
  }

  /** Queues every schedule due at `at` (default now) for every tenant that has its module. */
  async tick(at: number = this.deps.clock.now()): Promise<number> {
    const installs = await this.deps.central.models.ModuleInstall.findAll({ where: { status: 'installed' }, attributes: ['tenant_id', 'alias'] });
    let queued = 0;
    for (const tenantId of new Set(installs.map((i) => i.tenant_id))) {
      for (const mod of (await this.deps.modules.modulesFor(tenantId)).list) {
        for (const schedule of mod.manifest.schedules ?? []) {
          const slot = dueSlot(schedule, at);
          if (slot === undefined) continue;
          const data: RunJob = { tenantId, alias: mod.alias, schedule: schedule.name, operation: schedule.operation, scheduledAt: new Date(slot).toISOString() };
          await this.deps.queue.add(RUN_QUEUE, `${mod.alias}:${schedule.name}`, data, {
            jobId: `${tenantId}:${mod.alias}:${schedule.name}:${slot}`,
            attempts: 3,
            backoff: { type: 'exponential', delay: 5_000 },
            removeOnComplete: 1000,
          });
          queued++;
        }
      }
    }
    return queued;
  }

  /** Runs one schedule's operation now, as its queued run job does (also a test host's runSchedule). */
  run(job: RunJob): Promise<unknown> {
    this.deps.logger.debug({ ...job }, 'running module schedule');
    return this.deps.bus.call(SCHEDULER, job.operation, { schedule: job.schedule, scheduled_at: job.scheduledAt }, { tenantId: job.tenantId, user: null, scheduleSlot: job.scheduledAt });
  }
}
