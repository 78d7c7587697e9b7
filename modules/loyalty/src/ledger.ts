/**
 * The ledger and the balances: every change of a customer's points is one `Points` row, and the
 * `Balance` row holds their sum so reading a balance is one primary-key lookup.
 *
 * Concurrency: host.db has no row locks (SELECT … FOR UPDATE), so a balance changes by
 * compare-and-set: `UPDATE balances SET points = new WHERE customer_id = c AND points = old`. When
 * another transaction changed it first, no row matches and the whole transaction is retried on
 * fresh values; the same happens when two transactions create the same balance or award the same
 * order at once (the unique key refuses the second, the retry then sees the first).
 */
import type { Db, DbTransaction } from '../../../sdk';
import { busy, codeOf, insufficientPoints, loyaltyErrors } from './errors';

// Row types are `type` aliases: host.db's generics need an index-signature-compatible type.
export type PointsRow = {
  id: string; // bigint: host.db returns it as a string
  customer_id: string;
  order_id: string | null;
  points: number;
  reason: string;
  created_at: string;
};

export type BalanceRow = {
  customer_id: string;
  points: number;
  updated_at: string;
};

/** The catalog's code for a lost compare-and-set, which the transaction is run again on. */
const CONTENDED = loyaltyErrors.contended().code;
const ATTEMPTS = 8;
/** Errors after which running the transaction again on fresh values can succeed. */
const TRANSIENT = new Set([CONTENDED, 'DB_CONFLICT', 'DB_RETRY']);

/** Runs `work` in a transaction, again (up to ATTEMPTS times) when it lost a race. */
export async function inTransaction<T>(db: Db, customerId: string, work: (tx: DbTransaction) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (err) {
      if (!TRANSIENT.has(codeOf(err) as string)) throw err;
      if (attempt >= ATTEMPTS) throw busy(customerId);
    }
  }
}

/**
 * Adds `delta` (negative to spend) to a customer's balance inside `tx`; returns the new balance.
 * Refuses with INSUFFICIENT_POINTS rather than going below zero.
 */
export async function adjustBalance(tx: DbTransaction, customerId: string, delta: number, at: string): Promise<number> {
  const row = await tx.findOne<BalanceRow>('Balance', { where: { customer_id: customerId } });
  const current = row?.points ?? 0;
  const next = current + delta;
  if (next < 0) throw insufficientPoints(customerId, current, -delta);
  if (delta === 0) return current;
  if (!row) {
    await tx.create<BalanceRow>('Balance', { customer_id: customerId, points: next, updated_at: at });
    return next;
  }
  const changed = await tx.update<BalanceRow>('Balance', { points: next, updated_at: at }, { where: { customer_id: customerId, points: current } });
  if (changed !== 1) throw loyaltyErrors.contended();
  return next;
}

export async function balanceOf(db: Db, customerId: string): Promise<number> {
  const row = await db.findOne<BalanceRow>('Balance', { where: { customer_id: customerId }, attributes: ['points'] });
  return row?.points ?? 0;
}

export interface OrderPoints {
  orderId: string;
  customerId: string;
  points: number;
}

/**
 * Awards an order's points once: the ledger's unique order_id is the idempotency key, so a
 * redelivered event (at-least-once) finds its entry and changes nothing. Returns whether it awarded.
 */
export function awardOrder(db: Db, order: OrderPoints, at: string): Promise<boolean> {
  return inTransaction(db, order.customerId, async (tx) => {
    const existing = await tx.findOne<PointsRow>('Points', { where: { order_id: order.orderId }, attributes: ['id'] });
    if (existing) return false;
    await tx.create<PointsRow>('Points', { customer_id: order.customerId, order_id: order.orderId, points: order.points, reason: 'order', created_at: at });
    await adjustBalance(tx, order.customerId, order.points, at);
    return true;
  });
}

export interface Correction {
  previousPoints: number | null;
  changed: boolean;
}

/**
 * Sets an order's points to what it should earn now: creates the entry when the order never earned
 * (its event was lost), otherwise corrects the entry in place and moves the difference, also when
 * the order moved to another customer.
 */
export function correctOrder(db: Db, order: OrderPoints, at: string): Promise<Correction> {
  return inTransaction(db, order.customerId, async (tx) => {
    const entry = await tx.findOne<PointsRow>('Points', { where: { order_id: order.orderId } });
    if (!entry) {
      await tx.create<PointsRow>('Points', { customer_id: order.customerId, order_id: order.orderId, points: order.points, reason: 'order', created_at: at });
      await adjustBalance(tx, order.customerId, order.points, at);
      return { previousPoints: null, changed: true };
    }
    if (entry.customer_id === order.customerId && entry.points === order.points) return { previousPoints: entry.points, changed: false };
    if (entry.customer_id === order.customerId) {
      await adjustBalance(tx, order.customerId, order.points - entry.points, at);
    } else {
      await adjustBalance(tx, entry.customer_id, -entry.points, at);
      await adjustBalance(tx, order.customerId, order.points, at);
    }
    await tx.update<PointsRow>('Points', { customer_id: order.customerId, points: order.points, reason: 'order_recalculated' }, { where: { id: entry.id } });
    return { previousPoints: entry.points, changed: true };
  });
}
