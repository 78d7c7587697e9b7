/**
 * The schedule trigger (spec 2: "a workflow runs on ... a schedule"). The `workflows` module
 * declares a one-minute schedule (the platform's module scheduler queues one job per tenant and
 * minute slot) whose operation calls `workflow_engine.fire_schedules`; this core operation starts
 * every active schedule workflow of the tenant whose cron (trigger_config.cron, in
 * trigger_config.timezone, default UTC: spec 1 gives tenants no time zone) has a slot in that
 * minute. The slot is the execution's trigger key, so a slot runs once however many nodes tick.
 * Only a scheduler run fires, and only its own slot while it is current (a member or a module that
 * could name any minute would start the admins' workflows at will: spec 2, Execution).
 */
import { parseExpression } from 'cron-parser';
import { workflowEngineFireSchedules } from '../../../sdk/contracts/platform';
import type { Bus } from '../../kernel/bus/bus';
import { defineCoreOperation } from '../../kernel/bus/core-operation';
import { scheduleErrors } from '../../kernel/bus/errors';
import type { Workflows } from './workflows';

export const FIRE_SCHEDULES = workflowEngineFireSchedules.name;
const MINUTE = 60_000;

/**
 * Why trigger_config cannot schedule runs, by field (checked on save, a 422): `timezone` must be an
 * IANA time zone name, `cron` an expression cron-parser reads.
 */
export function scheduleConfigErrors(config: Record<string, unknown>): Record<string, string> {
  const errors: Record<string, string> = {};
  const tz = config.timezone;
  if (tz !== undefined && !isTimezone(tz)) errors['trigger_config.timezone'] = `Unknown timezone ${JSON.stringify(tz)}: use an IANA time zone name such as "Asia/Kolkata" or "UTC".`;
  const cron = config.cron;
  if (cron !== undefined && (typeof cron !== 'string' || cronError(cron))) errors['trigger_config.cron'] = `The cron must be a cron expression such as "*/5 * * * *"${typeof cron === 'string' ? `: ${cronError(cron)}` : ''}.`;
  return errors;
}

/** An IANA name Intl knows ("Asia/Kolkata", "UTC"); not an offset such as "+05:30". */
function isTimezone(tz: unknown): boolean {
  if (typeof tz !== 'string' || !/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function cronError(cron: string): string | undefined {
  try {
    parseExpression(cron);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

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
  bus.registerCore(defineCoreOperation(workflowEngineFireSchedules, async (input, ctx) => {
    // Only a schedule fires, and only the slot it runs for while that slot is the current one:
    // neither a module nor a replayed job starts another minute's workflows.
    const firing = Date.parse(input.scheduled_at);
    const now = w.now();
    if (!ctx.scheduleSlot) throw scheduleErrors.scheduleOnly(FIRE_SCHEDULES);
    if (input.scheduled_at !== ctx.scheduleSlot || !(firing <= now && now < firing + MINUTE)) throw scheduleErrors.slotNotCurrent(FIRE_SCHEDULES, input.scheduled_at);
    const at = firing + MINUTE - 1;
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
  }));
}
