/**
 * POST /orders/bulk/status and POST /orders/bulk/cancel (spec 3, Bulk operations; the bodies are
 * "not shown" there and designed in the module README). Set-based: in ONE transaction every named
 * order is read in one query, each is decided in memory by the single-order rules (bulk-plan.ts),
 * the moves are written as one compare-and-set UPDATE per version shared by the orders (usually one
 * or two statements) and one multi-row history insert; the events follow the commit, once per
 * changed order. An UPDATE that matches fewer rows than it named lost a compare-and-set to a
 * concurrent writer: the whole transaction runs again on fresh rows (inTransaction), so nothing is
 * half-written and no order is decided on a stale status.
 */
import type { DbTransaction, HandlerContext } from '../../../sdk';
import { invalid, Retry } from './errors';
import { decide, type Move } from './bulk-plan';
import { actorOf, inTransaction, nowIso, ORDER_STATUSES, publish, statusColumns, statusEvents, UUID_RE, type OrderRow, type Outbox } from './store';

/** What deciding and the events need of an order; the rest of the row never leaves the database. */
const COLUMNS = ['id', 'order_number', 'status', 'version', 'total', 'currency', 'customer'] as const;

/** ≤ 500 references (manifest), so ≤ 1000 rows: UUIDs by id plus every reference by number. */
function readOrders(tx: DbTransaction, refs: readonly string[]): Promise<OrderRow[]> {
  const ids = [...new Set(refs.filter((r) => UUID_RE.test(r)).map((r) => r.toLowerCase()))];
  const byNumber = { order_number: { $in: refs } };
  return tx.find<OrderRow>('Order', { where: ids.length ? { $or: [{ id: { $in: ids } }, byNumber] } : byNumber, attributes: [...COLUMNS], limit: 1000 });
}

type Change = { to: string; at: string; reason: string | undefined; actor: string };

async function write(tx: DbTransaction, moves: Move[], c: Change): Promise<void> {
  const byVersion = new Map<number, string[]>();
  for (const { order } of moves) {
    if (!byVersion.has(order.version)) byVersion.set(order.version, []);
    byVersion.get(order.version)!.push(order.id);
  }
  const columns = { ...statusColumns(c.to, c.at, c.reason), updated_at: c.at };
  // Sent together: the transaction runs them in turn, but their trips into the host overlap.
  const [won] = await Promise.all([
    Promise.all([...byVersion].map(async ([version, ids]) =>
      (await tx.update<OrderRow>('Order', { ...columns, version: version + 1 }, { where: { id: { $in: ids }, version } })) === ids.length)),
    tx.bulkCreate('StatusChange', moves.map(({ order, from }) => ({ order_id: order.id, from_status: from, to_status: c.to, reason: c.reason ?? null, actor: c.actor, created_at: c.at })), { returning: false }),
  ]);
  if (won.includes(false)) throw new Retry();
}

/**
 * Orders' events are independent, so several orders' trips into the host overlap (one order's events
 * keep their order). Bounded: a sandbox call may have at most 256 host requests waiting.
 */
const EMITS_IN_FLIGHT = 32;

async function publishAll(ctx: HandlerContext, outboxes: Outbox[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < outboxes.length; i = next++) await publish(ctx, outboxes[i]);
  };
  await Promise.all(Array.from({ length: Math.min(EMITS_IN_FLIGHT, outboxes.length) }, worker));
}

async function applyToAll(ctx: HandlerContext, refs: string[], to: string, reason: string | undefined) {
  if (!(ORDER_STATUSES as readonly string[]).includes(to)) throw invalid('status', `Unknown status "${to}".`);
  const change: Change = { to, at: nowIso(ctx), reason, actor: actorOf(ctx) };
  const { results, moves } = await inTransaction(ctx.host.db, async (tx) => {
    const decided = decide(refs, await readOrders(tx, refs), to);
    if (decided.moves.length) await write(tx, decided.moves, change);
    return decided;
  });
  await publishAll(ctx, moves.map(({ order, from }) => statusEvents(order, from, to, change.at)));
  const succeeded = results.filter((r) => r.ok).length;
  return { results, succeeded, failed: results.length - succeeded };
}

export const bulkStatus = (input: { order_ids: string[]; status: string; reason?: string }, ctx: HandlerContext) =>
  applyToAll(ctx, input.order_ids, input.status, input.reason);

export const bulkCancel = (input: { order_ids: string[]; reason: string }, ctx: HandlerContext) =>
  applyToAll(ctx, input.order_ids, 'cancelled', input.reason);
