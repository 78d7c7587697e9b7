/**
 * How a state reaches the levels below (spec 3, States and transitions (chain order): every level
 * on the order's path sees its progress) when a level cannot be reached at the moment it changes.
 * The first try is made at once; a failure is recorded (a Propagation row) and retried by the push
 * job; once the job's attempts are spent the row is stuck, with its reason, and the re-drive
 * schedule (every 15 minutes, backing off per propagation up to 6 hours) or an admin's retry tries
 * it again, until it is applied or the copy below has moved past it (a final state, or a later
 * one). Each try is the same idempotent `sync`: a state applied twice changes nothing the second time.
 */
import { jobs, related, type HandlerContext, type JobInput } from '../../../sdk';
import type { ChainOrderRow, ChainStatus } from './chain';
import { codeOf, propagationFailed, propagationNotFound } from './errors';
import { findPage } from './paging';

/** The push job (manifest `jobs.push`): total tries and the base of its exponential backoff. */
export const PUSH_JOB = { attempts: 10, delay_seconds: 30 } as const;
/** The re-drive schedule's period, which is also the first wait of a stuck propagation. */
export const REDRIVE_EVERY_MS = 15 * 60_000;
const REDRIVE_MAX_WAIT_MS = 6 * 3_600_000;
/** Stuck propagations one schedule run tries (each is one related call). */
const REDRIVE_BATCH = 50;

export type Push = { tenant: string; chain_ref: string; status: ChainStatus; values: Record<string, unknown> };
export type PropagationState = 'retrying' | 'stuck' | 'done' | 'superseded';
export const PROPAGATION_STATES = ['retrying', 'stuck', 'done', 'superseded'] as const;

export type PropagationRow = {
  id: string;
  key: string;
  chain_order_id: string;
  chain_ref: string;
  origin_order_number: string;
  target_tenant_id: string;
  status: ChainStatus;
  values: Record<string, unknown>;
  state: PropagationState;
  attempts: number;
  redrives: number;
  last_error_code: string | null;
  last_error_message: string | null;
  last_attempt_at: string | null;
  next_retry_at: string | null;
  stuck_at: string | null;
  done_at: string | null;
  created_at: string;
  updated_at: string;
};

/** What a failed try leaves: retrying with the job's next wait, or stuck for the re-drive schedule. */
type OnFailure = { state: 'retrying'; retryInMs: number } | { state: 'stuck' };

/** A copy's state order below the top: a push of a state the copy has reached or passed is superseded. */
const RANK: Record<string, number> = { pending_forward: 0, forwarded: 1, accepted: 2, processing: 3, shipped: 4, delivered: 5, cancelled: 5, returned: 6, refunded: 6 };

const keyOf = (p: Pick<Push, 'chain_ref' | 'tenant' | 'status'>) => `${p.chain_ref}:${p.tenant}:${p.status}`;
const pushOf = (r: PropagationRow): Push => ({ tenant: r.target_tenant_id, chain_ref: r.chain_ref, status: r.status, values: r.values });
const at = (ctx: HandlerContext, plusMs = 0) => new Date(ctx.host.now() + plusMs).toISOString();

export const sendPush = (ctx: HandlerContext, p: Push) => related(ctx.host).call<{ applied: boolean }>(p.tenant, 'reseller_orders.sync', { chain_ref: p.chain_ref, status: p.status, values: p.values });

/** The copy below answered that it is already at or past this state: nothing is left to hand it. */
function superseded(err: unknown, status: ChainStatus): boolean {
  if (codeOf(err) !== 'INVALID_STATUS') return false;
  const current = (err as { details?: { current_status?: string } }).details?.current_status;
  return current !== undefined && (RANK[current] ?? -1) >= RANK[status]!;
}

const findByKey = (ctx: HandlerContext, key: string) => ctx.host.db.findOne<PropagationRow>('Propagation', { where: { key } });

/** The row of a push, made on its first failure (or by a job queued before rows were kept). */
async function rowFor(ctx: HandlerContext, push: Push): Promise<PropagationRow | null> {
  const key = keyOf(push);
  const found = await findByKey(ctx, key);
  if (found) return found;
  const order = await ctx.host.db.findOne<ChainOrderRow>('ChainOrder', { where: { chain_ref: push.chain_ref }, attributes: ['id', 'origin_order_number'] });
  if (!order) return null;
  try {
    return await ctx.host.db.create<PropagationRow>('Propagation', {
      key,
      chain_order_id: order.id,
      chain_ref: push.chain_ref,
      origin_order_number: order.origin_order_number,
      target_tenant_id: push.tenant,
      status: push.status,
      values: push.values,
      state: 'retrying',
      attempts: 0,
      redrives: 0,
      created_at: at(ctx),
      updated_at: at(ctx),
    });
  } catch (err) {
    // The job and a re-drive failing at once: the unique key keeps one row.
    const again = await findByKey(ctx, key);
    if (again) return again;
    throw err;
  }
}

async function recordFailure(ctx: HandlerContext, push: Push, err: unknown, onFailure: OnFailure): Promise<PropagationRow | null> {
  const row = await rowFor(ctx, push);
  if (!row) return null;
  const now = at(ctx);
  const wasStuck = row.state === 'stuck';
  const redrives = onFailure.state === 'stuck' && wasStuck ? row.redrives + 1 : 0;
  const wait = onFailure.state === 'retrying' ? onFailure.retryInMs : Math.min(REDRIVE_EVERY_MS * 2 ** redrives, REDRIVE_MAX_WAIT_MS);
  const values: Partial<PropagationRow> = {
    state: onFailure.state,
    attempts: row.attempts + 1,
    redrives,
    last_error_code: String(codeOf(err) ?? 'ERROR').slice(0, 100),
    last_error_message: String((err as { message?: unknown } | null)?.message ?? err).slice(0, 500),
    last_attempt_at: now,
    next_retry_at: at(ctx, wait),
    stuck_at: onFailure.state === 'stuck' ? (row.stuck_at ?? now) : null,
    updated_at: now,
  };
  await ctx.host.db.update('Propagation', values, { where: { id: row.id } });
  return { ...row, ...values };
}

async function recordEnd(ctx: HandlerContext, push: Push, state: 'done' | 'superseded'): Promise<PropagationRow | null> {
  const row = await findByKey(ctx, keyOf(push));
  if (!row) return null; // delivered at the first try: nothing was recorded
  const now = at(ctx);
  const values: Partial<PropagationRow> = { state, attempts: row.attempts + 1, last_attempt_at: now, next_retry_at: null, done_at: row.done_at ?? now, updated_at: now };
  await ctx.host.db.update('Propagation', values, { where: { id: row.id } });
  return { ...row, ...values };
}

/**
 * One try of a push. Applied (or found already applied) → done; the copy below past it →
 * superseded; otherwise the failure is recorded as `onFailure` says (null: recorded nowhere).
 */
async function drive(ctx: HandlerContext, push: Push, onFailure: OnFailure | null): Promise<{ applied: boolean; row: PropagationRow | null; error?: unknown }> {
  try {
    const { applied } = await sendPush(ctx, push);
    return { applied, row: await recordEnd(ctx, push, 'done') };
  } catch (err) {
    if (superseded(err, push.status)) return { applied: false, row: await recordEnd(ctx, push, 'superseded') };
    return { applied: false, row: onFailure ? await recordFailure(ctx, push, err, onFailure) : await findByKey(ctx, keyOf(push)), error: err };
  }
}

/** At the state change: one try now; a level not reached gets the state from the push job. */
export async function propagate(ctx: HandlerContext, push: Push, opts: { later?: boolean } = {}): Promise<void> {
  if (opts.later) {
    await jobs<{ push: Push }>(ctx.host).enqueue('push', push, { key: `push:${keyOf(push)}`, delaySeconds: 0 });
    return;
  }
  const { error } = await drive(ctx, push, { state: 'retrying', retryInMs: PUSH_JOB.delay_seconds * 1000 });
  if (error === undefined) return;
  ctx.host.log.warn('state push deferred to a job', { tenant: push.tenant, status: push.status, code: codeOf(error) });
  await jobs<{ push: Push }>(ctx.host).enqueue('push', push, { key: `push:${keyOf(push)}`, delaySeconds: PUSH_JOB.delay_seconds });
}

/** The push job's attempt: throws to be retried; its last failed attempt leaves the push stuck. */
export async function pushAttempt(ctx: HandlerContext, input: JobInput<Push>): Promise<{ applied: boolean }> {
  const failed = input.attempt; // the host waits (2^failed attempts − 1) × delay before the next
  const onFailure: OnFailure = failed >= PUSH_JOB.attempts ? { state: 'stuck' } : { state: 'retrying', retryInMs: (2 ** failed - 1) * PUSH_JOB.delay_seconds * 1000 };
  const { applied, error } = await drive(ctx, input.data, onFailure);
  if (error !== undefined) throw error;
  return { applied };
}

/**
 * The re-drive schedule: every stuck push that is due, oldest first. A level that fails is left
 * alone for the rest of the run (its later states would fail too, and must follow the earlier).
 */
export async function redriveStuck(ctx: HandlerContext): Promise<{ retried: number; done: number; stuck: number }> {
  const due = await ctx.host.db.find<PropagationRow>('Propagation', { where: { state: 'stuck', next_retry_at: { $lte: at(ctx) } } as never, order: [['created_at', 'ASC'], ['id', 'ASC']], limit: REDRIVE_BATCH });
  const down = new Set<string>();
  const out = { retried: 0, done: 0, stuck: 0 };
  for (const row of due) {
    if (down.has(row.target_tenant_id)) continue;
    out.retried++;
    const { error } = await drive(ctx, pushOf(row), { state: 'stuck' });
    if (error === undefined) out.done++;
    else {
      out.stuck++;
      down.add(row.target_tenant_id);
    }
  }
  return out;
}

/**
 * An admin's retry of one propagation, now. A retrying or stuck one is recorded as the schedule's
 * would be; a done or superseded one is sent again (sync changes nothing) and stays as it was.
 */
export async function retryOne(ctx: HandlerContext, id: string): Promise<{ applied: boolean; propagation: PropagationView }> {
  const row = await ctx.host.db.findOne<PropagationRow>('Propagation', { where: { id } });
  if (!row) throw propagationNotFound(id);
  const open = row.state === 'retrying' || row.state === 'stuck';
  const onFailure: OnFailure | null = !open ? null : row.state === 'stuck' ? { state: 'stuck' } : { state: 'retrying', retryInMs: Math.max(0, Date.parse(row.next_retry_at ?? at(ctx)) - ctx.host.now()) };
  const { applied, row: now, error } = await drive(ctx, pushOf(row), onFailure);
  if (error !== undefined) throw propagationFailed(presentPropagation(now ?? row), error);
  return { applied, propagation: presentPropagation(now ?? row) };
}

export type PropagationView = ReturnType<typeof presentPropagation>;

export function presentPropagation(r: PropagationRow) {
  return {
    id: r.id,
    chain_order_id: r.chain_order_id,
    origin_order_number: r.origin_order_number,
    target_tenant_id: r.target_tenant_id,
    status: r.status,
    state: r.state,
    attempts: r.attempts,
    last_error: r.last_error_code ? { code: r.last_error_code, message: r.last_error_message, at: r.last_attempt_at } : null,
    next_retry_at: r.next_retry_at,
    stuck_at: r.stuck_at,
    done_at: r.done_at,
    created_at: r.created_at,
  };
}

/** The admin's list: open ones (retrying, stuck) unless a state is asked for, oldest first. */
export async function listPropagations(ctx: HandlerContext, input: { state?: PropagationState; per_page?: number; page?: number }) {
  const where = { state: input.state ?? { $in: ['retrying', 'stuck'] } };
  const { rows, pagination } = await findPage<PropagationRow>(ctx, 'Propagation', where, [['created_at', 'ASC'], ['id', 'ASC']], input);
  return { propagations: rows.map(presentPropagation), pagination };
}

/** A chain order's view: how its states are getting to the levels below (synced when nothing is open). */
export async function propagationOf(ctx: HandlerContext, chainOrderId: string) {
  const open = await ctx.host.db.find<PropagationRow>('Propagation', { where: { chain_order_id: chainOrderId, state: { $in: ['retrying', 'stuck'] } } as never });
  if (open.length === 0) return { state: 'synced' as const, pending: 0, last_error: null, next_retry_at: null };
  const latest = open.reduce((a, b) => ((b.last_attempt_at ?? '') > (a.last_attempt_at ?? '') ? b : a));
  const next = open.map((r) => r.next_retry_at).filter((t): t is string => !!t).sort()[0] ?? null;
  return { state: open.some((r) => r.state === 'stuck') ? ('stuck' as const) : ('retrying' as const), pending: open.length, last_error: presentPropagation(latest).last_error, next_retry_at: next };
}
