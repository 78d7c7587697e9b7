/**
 * The schedule trigger (spec 2: "a workflow runs on ... a schedule"). The `workflows` module
 * declares a one-minute schedule (the platform's module scheduler queues one job per tenant and
 * minute slot) whose operation calls `workflow_engine.fire_schedules`; this core operation starts
 * every active schedule workflow of the tenant whose cron (trigger_config.cron, in
 * trigger_config.timezone, default UTC: the tenant record has no time zone yet) has a slot in that
 * minute. The slot is the execution's trigger key, so a slot runs once however many nodes tick.
 */
import { parseExpression } from 'cron-parser';
import type { Bus } from '../bus/bus';
import type { Workflows } from './workflows';

export const FIRE_SCHEDULES = 'workflow_engine.fire_schedules';
const MINUTE = 60_000;

/** The cron slot in (at - 1 minute, at], or undefined. A bad cron or zone never fires (activation reports it). */
export function cronSlot(cron: string, timezone: string, at: number): number | undefined {
  try {
    const next = parseExpression(cron, { currentDate: new Date(at - MINUTE), tz: timezone }).next().getTime();
    return next <= at ? next : undefined;
  } catch {
    return undefined;
  }
}

export function registerScheduleOperation(bus: Bus, w: Workflows): void {
  bus.registerCore({
    name: FIRE_SCHEDULES,
    description: "Starts the tenant's active schedule-triggered workflows due in the minute ending at scheduled_at (called by the workflows module's schedule).",
    input: { type: 'object', additionalProperties: true, properties: { scheduled_at: { type: 'string', format: 'date-time' } } },
    output: { type: 'object', required: ['started'], properties: { started: { type: 'integer' } } },
    handler: async (input: { scheduled_at?: string }, ctx) => {
      const at = input.scheduled_at ? Date.parse(input.scheduled_at) + MINUTE - 1 : w.now();
      let started = 0;
      for (const g of await w.store.activeByTrigger(ctx.tenantId, 'schedule')) {
        const cron = g.workflow.trigger_config.cron;
        const tz = typeof g.workflow.trigger_config.timezone === 'string' ? g.workflow.trigger_config.timezone : 'UTC';
        const slot = typeof cron === 'string' ? cronSlot(cron, tz, at) : undefined;
        if (slot === undefined) continue;
        const run = await w.engine.execute(ctx.tenantId, g, { type: 'schedule', data: { scheduled_at: new Date(slot).toISOString() }, triggeredBy: null, key: `schedule:${slot}` });
        if (run) started++;
      }
      return { started };
    },
  });
}
