/**
 * Refunds (spec 3, Refund): pending → completed | failed.
 *
 * A refund reserves its amount on the payment (compare-and-set on refunded_amount) before the
 * provider is asked, so refunds at once can never exceed what was paid. It stays `pending` — amount
 * reserved, not in total_refunded or payment_status — while the gateway processes it; it completes
 * or fails from the provider's answer, its webhook (apply_refund_update) or the poll (sync_refunds).
 * Whichever comes first applies it, in one transaction with the order's reconciliation, guarded by
 * a compare-and-set on status = 'pending', so a duplicate webhook or a late poll changes nothing and
 * order.refund_processed is published once. A failed refund releases its reservation.
 */
import type { DbTransaction, HandlerContext, RowOf } from '../../../sdk';
import { invalid, invalidStatus, notFound, ordersErrors, Retry } from './errors';
import { D, parseAmount, str, sum } from './money';
import { callProvider, checkName, recordName } from './providers';
import { inTransaction, loadOrder, nowIso, publish, UUID_RE, type OrderRow, type Outbox } from './store';
import { issueCreditNote } from './invoices';
import { orderSummary, reconcile, type PaymentRow } from './payments';
import type { data } from './models';

/** Row types come from the models' columns (RowOf); the second argument narrows json shapes and enum strings. */
type Models = typeof data.models;

export type RefundRow = RowOf<Models['Refund']>;

/** What the provider (or the local settlement of a cod / bank transfer refund) says. */
type Outcome = { status: 'pending' | 'completed' | 'failed'; externalId?: string | null; failure?: string | null };
type ProviderRefund = { id: string; status?: string; amount?: string };

/** A pending refund is asked about once it is this old (the webhook normally arrives first). */
export const REFUND_POLL_AFTER_MS = 5 * 60_000;

const outcomeOf = (res: ProviderRefund): Outcome => ({
  status: res.status === 'completed' || res.status === 'failed' ? res.status : 'pending',
  externalId: res.id,
  failure: res.status === 'failed' ? 'the provider reported failure' : null,
});

type RefundInput = { id: string; payment_id: string; amount: unknown; reason: string; issue_credit_note?: boolean };

export async function refund(input: RefundInput, ctx: HandlerContext) {
  const amount = parseAmount(input.amount, 'amount');
  if (!UUID_RE.test(input.payment_id)) throw invalid('payment_id', 'The payment_id must be a UUID.');
  const at = nowIso(ctx);
  const reserved = await inTransaction(ctx.host.db, async (tx) => {
    const order = await loadOrder(tx, input.id);
    const payment = await tx.findOne<PaymentRow>('Payment', { where: { id: input.payment_id, order_id: order.id } });
    if (!payment) throw notFound('Payment', input.payment_id);
    if (payment.status !== 'completed') throw invalidStatus(`Payment ${payment.id} is ${payment.status}; only a completed payment can be refunded.`, payment.status);
    const refundable = new D(payment.amount).minus(payment.refunded_amount);
    if (amount.gt(refundable)) {
      throw ordersErrors.refundExceedsPayment(str(amount), str(refundable), payment.id);
    }
    const n = await tx.update<PaymentRow>('Payment', { refunded_amount: str(new D(payment.refunded_amount).plus(amount)), updated_at: at }, { where: { id: payment.id, refunded_amount: payment.refunded_amount } });
    if (n !== 1) throw new Retry();
    const external = Boolean(payment.provider_module && payment.external_payment_id);
    const row = await tx.create<RefundRow>('Refund', {
      order_id: order.id, payment_id: payment.id, provider_module: external ? payment.provider_module : null, amount: str(amount), reason: input.reason, status: 'pending',
      credit_note_requested: Boolean(input.issue_credit_note), created_at: at,
    });
    return { payment, row, external };
  });
  let outcome: Outcome = { status: 'completed' };
  if (reserved.external) {
    try {
      outcome = outcomeOf(await callProvider<ProviderRefund>(ctx, 'payment provider', reserved.payment.provider_module!, 'refund', {
        payment_id: reserved.payment.external_payment_id, amount: str(amount), currency: reserved.payment.currency, reason: input.reason, reference: reserved.row.id,
      }));
    } catch (err) {
      // Release the reservation, mark the refund failed, and report the provider's error.
      await finish(ctx, await settle(ctx, reserved.row.id, { status: 'failed', failure: (err as Error).message }));
      throw err;
    }
  }
  const done = await finish(ctx, await settle(ctx, reserved.row.id, outcome));
  return { ...done.refund, order: orderSummary(done.order), ...(done.credit_note ? { credit_note: done.credit_note } : {}) };
}

type Settled = { refund: RefundRow; order: OrderRow; applied: boolean; outbox: Outbox };

/**
 * Applies an outcome to a pending refund in one transaction: `pending` only records the gateway's
 * refund id; completed reconciles the order and queues refund_processed; failed releases the
 * amount. A refund no longer pending is left as it is (applied: false).
 */
async function settle(ctx: HandlerContext, refundId: string, outcome: Outcome): Promise<Settled> {
  const at = nowIso(ctx);
  return inTransaction(ctx.host.db, async (tx) => {
    const outbox: Outbox = [];
    const row = await tx.findOne<RefundRow>('Refund', { where: { id: refundId } });
    if (!row) throw notFound('Refund', refundId);
    const order = await loadOrder(tx, row.order_id);
    if (row.status !== 'pending') return { refund: row, order, applied: false, outbox };
    const externalId = outcome.externalId ?? row.external_refund_id;
    const changes: Partial<RefundRow> = outcome.status === 'pending'
      ? { external_refund_id: externalId }
      : { status: outcome.status, external_refund_id: externalId, failure_reason: outcome.failure ?? null, processed_at: at };
    if ((await tx.update<RefundRow>('Refund', changes, { where: { id: row.id, status: 'pending' } })) !== 1) throw new Retry();
    const refundRow = { ...row, ...changes };
    if (outcome.status === 'pending') return { refund: refundRow, order, applied: false, outbox };
    if (outcome.status === 'failed') {
      const payment = await tx.findOne<PaymentRow>('Payment', { where: { id: row.payment_id } });
      const released = str(new D(payment!.refunded_amount).minus(row.amount));
      if ((await tx.update<PaymentRow>('Payment', { refunded_amount: released, updated_at: at }, { where: { id: payment!.id, refunded_amount: payment!.refunded_amount } })) !== 1) throw new Retry();
      return { refund: refundRow, order, applied: true, outbox };
    }
    await markRefundedWhenFull(tx, row.payment_id, at);
    const { order: saved } = await reconcile(tx, order, at, outbox, () => ({ refund_id: row.id, refund_amount: row.amount }), Promise.resolve());
    outbox.push(['order.refund_processed', {
      order_id: order.id, order_number: order.order_number, refund_id: row.id, payment_id: row.payment_id, amount: row.amount, reason: row.reason,
      provider_module: row.provider_module, external_refund_id: externalId, total_refunded: saved.total_refunded, balance_due: saved.balance_due,
    }]);
    return { refund: refundRow, order: saved, applied: true, outbox };
  });
}

/**
 * Spec 3 lists `refunded` among payment statuses: a payment whose completed refunds reach its amount
 * takes it (same transaction as the refund's completion). It still counts as money received in
 * total_paid (its refunds are in total_refunded), so balance_due stays total − paid + refunded.
 */
async function markRefundedWhenFull(tx: DbTransaction, paymentId: string | null, at: string) {
  if (!paymentId) return;
  const payment = await tx.findOne<PaymentRow>('Payment', { where: { id: paymentId } });
  if (!payment || payment.status !== 'completed') return;
  const refunds = await tx.find<RefundRow>('Refund', { where: { payment_id: paymentId, status: 'completed' }, limit: 1000 });
  if (sum(refunds.map((r) => r.amount)).gte(payment.amount)) await tx.update<PaymentRow>('Payment', { status: 'refunded', updated_at: at }, { where: { id: paymentId } });
}

/** After the commit: publish the events and issue the credit note the refund asked for. */
async function finish(ctx: HandlerContext, s: Settled) {
  await publish(ctx, s.outbox);
  const credit_note = s.applied && s.refund.status === 'completed' && s.refund.credit_note_requested
    ? await issueCreditNote({ id: s.order.id, amount: s.refund.amount, reason: s.refund.reason, refund_id: s.refund.id }, ctx)
    : null;
  return { ...s, credit_note };
}

type UpdateInput = { provider_module: string; external_refund_id: string; refund_id?: string; status: 'completed' | 'failed'; failure_reason?: string };

/**
 * A provider module reports a refund's outcome (e.g. from its gateway's webhook). The refund is
 * found by our id (`refund_id`, which providers pass to the gateway as a reference) or else by the
 * gateway's id; applied once, repeated reports answer applied: false.
 */
export async function applyRefundUpdate(input: UpdateInput, ctx: HandlerContext) {
  checkName(input.provider_module, 'payment', 'provider_module');
  const provider = recordName(input.provider_module);
  if (input.refund_id !== undefined && !UUID_RE.test(input.refund_id)) throw invalid('refund_id', 'The refund_id must be a UUID.');
  const where = input.refund_id ? { id: input.refund_id.toLowerCase(), provider_module: provider } : { provider_module: provider, external_refund_id: input.external_refund_id };
  const row = await ctx.host.db.findOne<RefundRow>('Refund', { where });
  if (!row) throw notFound('Refund', input.refund_id ?? input.external_refund_id);
  if (row.external_refund_id && row.external_refund_id !== input.external_refund_id) {
    throw ordersErrors.refundMismatch(row.id, row.external_refund_id, provider, input.external_refund_id);
  }
  const done = await finish(ctx, await settle(ctx, row.id, { status: input.status, externalId: input.external_refund_id, failure: input.failure_reason ?? (input.status === 'failed' ? 'the provider reported failure' : null) }));
  return { applied: done.applied, refund: done.refund, order: orderSummary(done.order) };
}

/**
 * The poll (schedule refund_sync): asks each refund's provider (`<alias>.refund_status`) about
 * refunds still pending REFUND_POLL_AFTER_MS after they were made. Refunds whose provider never
 * answered (no gateway id) are not polled: there is nothing to ask about.
 */
export async function syncRefunds(input: { limit?: number }, ctx: HandlerContext) {
  const cutoff = new Date(ctx.host.now() - REFUND_POLL_AFTER_MS).toISOString();
  const due = await ctx.host.db.find<RefundRow>('Refund', {
    where: { status: 'pending', external_refund_id: { $ne: null }, created_at: { $lt: cutoff } }, order: [['created_at', 'ASC']], limit: input.limit ?? 200,
  });
  const result = { checked: due.length, completed: 0, failed: 0, pending: 0, errors: {} as Record<string, string> };
  for (const row of due) {
    try {
      const res = await callProvider<ProviderRefund>(ctx, 'payment provider', row.provider_module!, 'refund_status', { refund_id: row.external_refund_id });
      const done = await finish(ctx, await settle(ctx, row.id, outcomeOf(res)));
      if (done.applied) result[done.refund.status === 'completed' ? 'completed' : 'failed']++;
      else result.pending++;
    } catch (err) {
      result.errors[row.id] = (err as Error).message;
    }
  }
  return result;
}

export async function listRefunds(input: { id: string }, ctx: HandlerContext) {
  const order = await loadOrder(ctx.host.db, input.id);
  return { refunds: await ctx.host.db.find<RefundRow>('Refund', { where: { order_id: order.id }, order: [['created_at', 'ASC']], limit: 1000 }) };
}
