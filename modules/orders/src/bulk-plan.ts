/**
 * The in-memory half of bulk status and cancel: given every order the request names (one read),
 * decide each reference in request order by the single-order rules. Pure, so the decision is the
 * same however many times a lost compare-and-set makes the caller read and decide again.
 */
import { codeOf, notFound, ordersErrors } from './errors';
import { shipOnly } from './orders';
import { transitionRefusal, UUID_RE, type OrderRow } from './store';

type BulkError = { code: string; message: string; details?: Record<string, unknown> };

export type BulkResult =
  | { order_id: string; ok: true; id: string; order_number: string; old_status: string; status: string; changed: boolean }
  | { order_id: string; ok: false; error: BulkError };

/** One order that changes: the row as read (its version is the compare-and-set) and its status then. */
export type Move = { order: OrderRow; from: string };

/** The per-order error: code and message as the single endpoint would answer, minus the HTTP status. */
export function errorOf(err: unknown): BulkError {
  const code = codeOf(err);
  const message = err instanceof Error ? err.message : String(err);
  if (typeof code !== 'string') return { code: ordersErrors.internal(message).code, message };
  const { status: _status, ...details } = ((err as { details?: Record<string, unknown> }).details ?? {}) as Record<string, unknown>;
  return Object.keys(details).length ? { code, message, details } : { code, message };
}

/**
 * Resolves each reference as findOrder does (a UUID by id first, else by order number) and applies
 * the transition rules. An order named twice (by id and by number) moves once: the later reference
 * sees the status the earlier one left, exactly as two single calls in a row would.
 */
export function decide(refs: readonly string[], rows: readonly OrderRow[], to: string): { results: BulkResult[]; moves: Move[] } {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const byNumber = new Map(rows.map((r) => [r.order_number, r]));
  const statusNow = new Map<string, string>();
  const moves: Move[] = [];
  const results = refs.map((ref): BulkResult => {
    const order = (UUID_RE.test(ref) ? byId.get(ref.toLowerCase()) : undefined) ?? byNumber.get(ref);
    if (!order) return { order_id: ref, ok: false, error: errorOf(notFound('Order', ref)) };
    const from = statusNow.get(order.id) ?? order.status;
    const refusal = to === 'shipped' ? shipOnly(from) : from === to ? null : transitionRefusal(from, to);
    if (refusal) return { order_id: ref, ok: false, error: errorOf(refusal) };
    if (from !== to) {
      moves.push({ order, from });
      statusNow.set(order.id, to);
    }
    return { order_id: ref, ok: true, id: order.id, order_number: order.order_number, old_status: from, status: to, changed: from !== to };
  });
  return { results, moves };
}
