/**
 * Payments (spec 3, Order payment) and the reconciliation refunds share (refunds.ts).
 *
 * Reconciliation, in the same transaction as the change: total_paid = sum of completed payments
 * (and of payments since refunded in full, status refunded);
 * total_refunded = sum of completed refunds; balance_due = total − total_paid + total_refunded;
 * payment_status by spec 3's rule on total_paid: nothing paid → pending; at least the total → paid;
 * more than zero → partial. Refunds do not change it: they show in total_refunded and balance_due.
 */
import type { DbTransaction, HandlerContext } from '../../../sdk';
import { invalid, invalidStatus, notFound, OrdersError, Retry } from './errors';
import { D, parseAmount, str, sum } from './money';
import { callProvider, checkName, recordName } from './providers';
import { getSetting, inTransaction, loadOrder, nowIso, publish, saveOrder, type OrderRow, type Outbox } from './store';
import type { RefundRow } from './refunds';

export type PaymentRow = {
  id: string; order_id: string; provider_module: string | null; external_payment_id: string | null; method: string; status: string;
  amount: string; refunded_amount: string; currency: string; payment_link_url: string | null; payment_link_expires_at: string | null;
  metadata: Record<string, unknown>; collected_by: string | null; paid_at: string | null; created_at: string; updated_at: string;
};

/**
 * `written` is the change's own write, sent before the two reads so that they see it: the
 * transaction runs the three in turn, but their trips into the host overlap.
 */
export async function reconcile<W>(
  tx: DbTransaction, order: OrderRow, at: string, outbox: Outbox, cause: (written: W) => Record<string, unknown>, written: Promise<W>,
): Promise<{ order: OrderRow; written: W }> {
  // A payment refunded in full was still received: its refunds are counted in total_refunded.
  const [row, payments, refunds] = await Promise.all([
    written,
    tx.find<PaymentRow>('Payment', { where: { order_id: order.id, status: { $in: ['completed', 'refunded'] } }, limit: 1000 }),
    tx.find<RefundRow>('Refund', { where: { order_id: order.id, status: 'completed' }, limit: 1000 }),
  ]);
  const paid = sum(payments.map((p) => p.amount));
  const refunded = sum(refunds.map((r) => r.amount));
  const total = new D(order.total);
  const status = paid.isZero() ? 'pending' : paid.gte(total) ? 'paid' : 'partial';
  const saved = await saveOrder(tx, order, { total_paid: str(paid), total_refunded: str(refunded), balance_due: str(total.minus(paid).plus(refunded)), payment_status: status }, at);
  outbox.push(['orders.payment_updated', {
    order_id: order.id, order_number: order.order_number, previous_payment_status: order.payment_status, payment_status: status,
    total: saved.total, total_paid: saved.total_paid, total_refunded: saved.total_refunded, balance_due: saved.balance_due, currency: order.currency, ...cause(row),
  }]);
  return { order: saved, written: row };
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
    const created = tx.create<PaymentRow>('Payment', {
      order_id: order.id, provider_module: provider, external_payment_id: input.external_payment_id ?? null, method, status,
      amount: str(amount), refunded_amount: '0.00', currency: order.currency, metadata: input.metadata ?? {}, collected_by: method === 'cod' ? (input.collected_by ?? null) : null,
      paid_at: status === 'completed' ? (input.paid_at ? new Date(input.paid_at).toISOString() : at) : null, created_at: at, updated_at: at,
    });
    const { order: saved, written: payment } = await reconcile(tx, order, at, outbox, (p) => ({ payment_id: p.id, method, amount: p.amount, payment_status_of_payment: status }), created);
    return { payment, order: saved };
  });
  await publish(ctx, outbox);
  return { ...result.payment, order: orderSummary(result.order) };
}

/** A compare-and-set update must have changed exactly one row. */
const casOne = (n: number) => {
  if (n !== 1) throw new Retry();
};

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
    const updated = tx.update<PaymentRow>('Payment', changes, { where: { id: payment.id, status: 'pending' } });
    const cause = () => ({ payment_id: payment.id, method: payment.method, amount: payment.amount });
    const saved = input.status === 'completed' ? (await reconcile(tx, order, at, outbox, cause, updated.then(casOne))).order : await updated.then(casOne).then(() => order);
    return { payment: { ...payment, ...changes }, order: saved };
  });
  await publish(ctx, outbox);
  return { ...result.payment, order: orderSummary(result.order) };
}
