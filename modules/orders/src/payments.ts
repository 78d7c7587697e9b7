/**
 * Payments and refunds (spec 3, Order payment and Refund).
 *
 * Reconciliation, in the same transaction as the change: total_paid = sum of completed payments;
 * total_refunded = sum of completed refunds; balance_due = total − total_paid + total_refunded;
 * payment_status from what is kept (paid − refunded): no completed payment → pending; at least the
 * total → paid; more than zero → partial; everything paid was refunded → refunded.
 */
import type { DbTransaction, HandlerContext } from '../../../sdk';
import { invalid, invalidStatus, notFound, OrdersError, Retry } from './errors';
import { D, parseAmount, str, sum } from './money';
import { aliasOf, callProvider, checkName, recordName } from './providers';
import { getSetting, inTransaction, loadOrder, nowIso, publish, saveOrder, UUID_RE, type OrderRow, type Outbox } from './store';
import { issueCreditNote } from './invoices';

export type PaymentRow = {
  id: string; order_id: string; provider_module: string | null; external_payment_id: string | null; method: string; status: string;
  amount: string; refunded_amount: string; currency: string; payment_link_url: string | null; payment_link_expires_at: string | null;
  metadata: Record<string, unknown>; collected_by: string | null; paid_at: string | null; created_at: string; updated_at: string;
};
export type RefundRow = {
  id: string; order_id: string; payment_id: string | null; provider_module: string | null; external_refund_id: string | null; amount: string;
  reason: string; status: string; failure_reason: string | null; processed_at: string | null; created_at: string;
};

export async function reconcile(tx: DbTransaction, order: OrderRow, at: string, outbox: Outbox, cause: Record<string, unknown>): Promise<OrderRow> {
  const payments = await tx.find<PaymentRow>('Payment', { where: { order_id: order.id, status: 'completed' }, limit: 1000 });
  const refunds = await tx.find<RefundRow>('Refund', { where: { order_id: order.id, status: 'completed' }, limit: 1000 });
  const paid = sum(payments.map((p) => p.amount));
  const refunded = sum(refunds.map((r) => r.amount));
  const kept = paid.minus(refunded);
  const total = new D(order.total);
  const status = paid.isZero() ? 'pending' : kept.gte(total) ? 'paid' : kept.gt(0) ? 'partial' : 'refunded';
  const saved = await saveOrder(tx, order, { total_paid: str(paid), total_refunded: str(refunded), balance_due: str(total.minus(paid).plus(refunded)), payment_status: status }, at);
  outbox.push(['orders.payment_updated', {
    order_id: order.id, order_number: order.order_number, previous_payment_status: order.payment_status, payment_status: status,
    total: saved.total, total_paid: saved.total_paid, total_refunded: saved.total_refunded, balance_due: saved.balance_due, currency: order.currency, ...cause,
  }]);
  return saved;
}

type RecordInput = { id: string; method: string; amount: unknown; status?: string; external_payment_id?: string; provider_module?: string; metadata?: Record<string, unknown>; collected_by?: string; paid_at?: string };

/** cod, bank_transfer, or an online gateway ("razorpay" or "payment-razorpay"): its provider module. */
function methodOf(input: RecordInput): { method: string; provider: string | null } {
  const m = input.method.trim().toLowerCase();
  if (m === 'cod' || m === 'bank_transfer') return { method: m, provider: null };
  const provider = input.provider_module ?? (m.startsWith('payment-') || m.startsWith('payment_') ? m : `payment-${m}`);
  checkName(provider, 'payment', 'provider_module');
  return { method: recordName(provider).slice('payment-'.length), provider: recordName(provider) };
}

export async function recordPayment(input: RecordInput, ctx: HandlerContext) {
  const amount = parseAmount(input.amount, 'amount');
  const { method, provider } = methodOf(input);
  if (input.paid_at !== undefined && Number.isNaN(Date.parse(input.paid_at))) throw invalid('paid_at', 'The paid_at must be an ISO 8601 date-time.');
  const status = input.status ?? 'completed';
  const at = nowIso(ctx);
  const outbox: Outbox = [];
  const result = await inTransaction(ctx.host.db, async (tx) => {
    outbox.length = 0;
    const order = await loadOrder(tx, input.id);
    if (order.status === 'cancelled') throw invalidStatus(`Order ${order.order_number} is cancelled; it takes no payments.`, order.status);
    if (provider && input.external_payment_id) {
      const dup = await tx.findOne<PaymentRow>('Payment', { where: { provider_module: provider, external_payment_id: input.external_payment_id } });
      if (dup) throw new OrdersError('DUPLICATE_PAYMENT', `Payment ${input.external_payment_id} of ${provider} is already recorded.`, { status: 409, payment_id: dup.id });
    }
    const payment = await tx.create<PaymentRow>('Payment', {
      order_id: order.id, provider_module: provider, external_payment_id: input.external_payment_id ?? null, method, status,
      amount: str(amount), refunded_amount: '0.00', currency: order.currency, metadata: input.metadata ?? {}, collected_by: method === 'cod' ? (input.collected_by ?? null) : null,
      paid_at: status === 'completed' ? (input.paid_at ? new Date(input.paid_at).toISOString() : at) : null, created_at: at, updated_at: at,
    });
    const saved = await reconcile(tx, order, at, outbox, { payment_id: payment.id, method, amount: payment.amount, payment_status_of_payment: status });
    return { payment, order: saved };
  });
  await publish(ctx, outbox);
  return { ...result.payment, order: orderSummary(result.order) };
}

export const orderSummary = (o: OrderRow) => ({
  id: o.id, order_number: o.order_number, status: o.status, payment_status: o.payment_status, total: o.total, total_paid: o.total_paid,
  total_refunded: o.total_refunded, balance_due: o.balance_due, currency: o.currency,
});

export async function listPayments(input: { id: string }, ctx: HandlerContext) {
  const order = await loadOrder(ctx.host.db, input.id);
  const payments = await ctx.host.db.find<PaymentRow>('Payment', { where: { order_id: order.id }, order: [['created_at', 'ASC'], ['id', 'ASC']], limit: 1000 });
  return { order: orderSummary(order), payments };
}

type LinkOut = { id: string; url: string; expires_at?: string | null; status?: string };

export async function createPaymentLink(input: { id: string; provider_module?: string; expires_in_minutes?: number }, ctx: HandlerContext) {
  const provider = input.provider_module ?? (await getSetting<string>(ctx.host.db, 'default_payment_provider', ''));
  if (!provider) throw invalid('provider_module', 'Name the provider_module (e.g. "payment-razorpay") or set default_payment_provider.');
  checkName(provider, 'payment', 'provider_module');
  const order = await loadOrder(ctx.host.db, input.id);
  if (order.status === 'cancelled') throw invalidStatus(`Order ${order.order_number} is cancelled.`, order.status);
  const due = new D(order.balance_due);
  if (due.lte(0)) throw new OrdersError('NOTHING_DUE', `Order ${order.order_number} has no balance due.`, { status: 409, balance_due: order.balance_due });
  const c = order.customer as { name?: string; email?: string; phone?: string };
  const expiresAt = input.expires_in_minutes ? new Date(ctx.host.now() + input.expires_in_minutes * 60_000).toISOString() : null;
  // The bus call happens before anything is written: a refused or failed provider leaves no record.
  const link = await callProvider<LinkOut>(ctx, 'payment provider', provider, 'createLink', {
    amount: order.balance_due, currency: order.currency, reference: order.order_number, description: `Order ${order.order_number}`,
    customer: { name: c?.name ?? null, email: c?.email ?? null, phone: c?.phone ?? null }, ...(expiresAt ? { expires_at: expiresAt } : {}),
  });
  const at = nowIso(ctx);
  const payment = await ctx.host.db.create<PaymentRow>('Payment', {
    order_id: order.id, provider_module: recordName(provider), external_payment_id: link.id, method: recordName(provider).slice('payment-'.length), status: 'pending',
    amount: order.balance_due, refunded_amount: '0.00', currency: order.currency, payment_link_url: link.url, payment_link_expires_at: link.expires_at ?? expiresAt,
    metadata: { link_id: link.id, link_status: link.status ?? 'created' }, created_at: at, updated_at: at,
  });
  return payment;
}

export async function confirmPayment(input: { id: string; payment_id: string; status: 'completed' | 'failed'; external_payment_id?: string; metadata?: Record<string, unknown> }, ctx: HandlerContext) {
  const at = nowIso(ctx);
  const outbox: Outbox = [];
  const result = await inTransaction(ctx.host.db, async (tx) => {
    outbox.length = 0;
    const order = await loadOrder(tx, input.id);
    const payment = await tx.findOne<PaymentRow>('Payment', { where: { id: input.payment_id, order_id: order.id } });
    if (!payment) throw notFound('Payment', input.payment_id);
    if (payment.status !== 'pending') throw invalidStatus(`Payment ${payment.id} is ${payment.status}, not pending.`, payment.status);
    const changes = {
      status: input.status, updated_at: at, paid_at: input.status === 'completed' ? at : null,
      external_payment_id: input.external_payment_id ?? payment.external_payment_id, metadata: { ...payment.metadata, ...input.metadata },
    };
    if ((await tx.update<PaymentRow>('Payment', changes, { where: { id: payment.id, status: 'pending' } })) !== 1) throw new Retry();
    const saved = input.status === 'completed' ? await reconcile(tx, order, at, outbox, { payment_id: payment.id, method: payment.method, amount: payment.amount }) : order;
    return { payment: { ...payment, ...changes }, order: saved };
  });
  await publish(ctx, outbox);
  return { ...result.payment, order: orderSummary(result.order) };
}

type RefundInput = { id: string; payment_id: string; amount: unknown; reason: string; issue_credit_note?: boolean };
type ProviderRefund = { id: string; status?: string; amount?: string };

/**
 * A refund reserves its amount on the payment (compare-and-set on refunded_amount) before the
 * provider is asked, so two refunds at once can never exceed what was paid; a failed provider call
 * releases the reservation and leaves a failed refund record.
 */
export async function refund(input: RefundInput, ctx: HandlerContext) {
  const amount = parseAmount(input.amount, 'amount');
  if (!UUID_RE.test(input.payment_id)) throw invalid('payment_id', 'The payment_id must be a UUID.');
  const db = ctx.host.db;
  const at = nowIso(ctx);
  const outbox: Outbox = [];
  const reserved = await inTransaction(db, async (tx) => {
    const order = await loadOrder(tx, input.id);
    const payment = await tx.findOne<PaymentRow>('Payment', { where: { id: input.payment_id, order_id: order.id } });
    if (!payment) throw notFound('Payment', input.payment_id);
    if (payment.status !== 'completed') throw invalidStatus(`Payment ${payment.id} is ${payment.status}; only a completed payment can be refunded.`, payment.status);
    const refundable = new D(payment.amount).minus(payment.refunded_amount);
    if (amount.gt(refundable)) {
      throw new OrdersError('REFUND_EXCEEDS_PAYMENT', `The refund of ${str(amount)} is more than the ${str(refundable)} left to refund on payment ${payment.id}.`, {
        status: 422, refundable: str(refundable), errors: { amount: [`at most ${str(refundable)}`] },
      });
    }
    const n = await tx.update<PaymentRow>('Payment', { refunded_amount: str(new D(payment.refunded_amount).plus(amount)), updated_at: at }, { where: { id: payment.id, refunded_amount: payment.refunded_amount } });
    if (n !== 1) throw new Retry();
    const external = Boolean(payment.provider_module && payment.external_payment_id);
    const row = await tx.create<RefundRow>('Refund', {
      order_id: order.id, payment_id: payment.id, provider_module: external ? payment.provider_module : null, amount: str(amount), reason: input.reason, status: 'pending', created_at: at,
    });
    return { order, payment, row, external };
  });
  let outcome: { status: 'completed' | 'failed'; externalId: string | null; failure: string | null } = { status: 'completed', externalId: null, failure: null };
  if (reserved.external) {
    try {
      const res = await callProvider<ProviderRefund>(ctx, 'payment provider', reserved.payment.provider_module!, 'refund', {
        payment_id: reserved.payment.external_payment_id, amount: str(amount), currency: reserved.payment.currency, reason: input.reason, reference: reserved.row.id,
      });
      outcome = { status: res.status === 'failed' ? 'failed' : 'completed', externalId: res.id, failure: res.status === 'failed' ? 'the provider reported failure' : null };
    } catch (err) {
      outcome = { status: 'failed', externalId: null, failure: (err as Error).message };
      // Release the reservation, mark the refund failed, and report the provider's error.
      await settleRefund(ctx, reserved.row, reserved.payment.id, amount, outcome, outbox);
      throw err;
    }
  }
  const done = await settleRefund(ctx, reserved.row, reserved.payment.id, amount, outcome, outbox);
  await publish(ctx, outbox);
  let creditNote = null;
  if (done.refund.status === 'completed' && input.issue_credit_note) {
    creditNote = await issueCreditNote({ id: reserved.order.id, amount: str(amount), reason: input.reason, refund_id: done.refund.id }, ctx);
  }
  return { ...done.refund, order: done.order ? orderSummary(done.order) : undefined, ...(creditNote ? { credit_note: creditNote } : {}) };
}

async function settleRefund(
  ctx: HandlerContext, row: RefundRow, paymentId: string, amount: InstanceType<typeof D>,
  outcome: { status: 'completed' | 'failed'; externalId: string | null; failure: string | null }, outbox: Outbox,
) {
  const at = nowIso(ctx);
  return inTransaction(ctx.host.db, async (tx) => {
    outbox.length = 0;
    const changes = { status: outcome.status, external_refund_id: outcome.externalId, failure_reason: outcome.failure, processed_at: at };
    await tx.update<RefundRow>('Refund', changes, { where: { id: row.id } });
    const refundRow = { ...row, ...changes };
    if (outcome.status === 'failed') {
      const payment = await tx.findOne<PaymentRow>('Payment', { where: { id: paymentId } });
      const n = await tx.update<PaymentRow>('Payment', { refunded_amount: str(new D(payment!.refunded_amount).minus(amount)), updated_at: at }, { where: { id: paymentId, refunded_amount: payment!.refunded_amount } });
      if (n !== 1) throw new Retry();
      return { refund: refundRow, order: null };
    }
    const order = await loadOrder(tx, row.order_id);
    const saved = await reconcile(tx, order, at, outbox, { refund_id: row.id, refund_amount: row.amount });
    outbox.push(['orders.refund_processed', {
      order_id: order.id, order_number: order.order_number, refund_id: row.id, payment_id: paymentId, amount: row.amount, reason: row.reason,
      provider_module: row.provider_module, external_refund_id: outcome.externalId, total_refunded: saved.total_refunded, balance_due: saved.balance_due,
    }]);
    return { refund: refundRow, order: saved };
  });
}

export async function listRefunds(input: { id: string }, ctx: HandlerContext) {
  const order = await loadOrder(ctx.host.db, input.id);
  return { refunds: await ctx.host.db.find<RefundRow>('Refund', { where: { order_id: order.id }, order: [['created_at', 'ASC']], limit: 1000 }) };
}

export { aliasOf };
