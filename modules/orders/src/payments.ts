/**
 * Payments (spec 3, Order payment) and the reconciliation refunds share (refunds.ts).
 *
 * Reconciliation, in the same transaction as the change: total_paid = sum of completed payments
 * (and of payments since refunded in full, status refunded);
 * total_refunded = sum of completed refunds; balance_due = total − total_paid + total_refunded;
 * payment_status by spec 3's rule on total_paid: nothing paid → pending; at least the total → paid;
 * more than zero → partial. Refunds do not change it: they show in total_refunded and balance_due.
 */
import type { DbTransaction, HandlerContext, RowOf } from '../../../sdk';
import { invalid, invalidStatus, notFound, ordersErrors, Retry } from './errors';
import { D, parseAmount, str, sum } from './money';
import { callProvider, checkName, chosenProvider, recordName } from './providers';
import { getSetting, inTransaction, loadOrder, nowIso, publish, saveOrder, type OrderRow, type Outbox } from './store';
import type { RefundRow } from './refunds';
import type { data } from './models';

/** Row types come from the models' columns (RowOf); the second argument narrows json shapes and enum strings. */
type Models = typeof data.models;

export type PaymentRow = RowOf<Models['Payment'], { metadata: Record<string, unknown> }>;

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
  outbox.push(['order.payment_updated', {
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
  // The gateway must be a provider module orders can call (its refunds go there), before anything is written.
  if (provider) await callProvider(ctx, 'payment provider', provider, 'describe', {});
  const at = nowIso(ctx);
  const outbox: Outbox = [];
  const result = await inTransaction(ctx.host.db, async (tx) => {
    outbox.length = 0;
    const order = await loadOrder(tx, input.id);
    if (order.status === 'cancelled') throw invalidStatus(`Order ${order.order_number} is cancelled; it takes no payments.`, order.status);
    if (provider && input.external_payment_id) {
      const dup = await tx.findOne<PaymentRow>('Payment', { where: { provider_module: provider, external_payment_id: input.external_payment_id } });
      if (dup) throw ordersErrors.duplicatePayment(input.external_payment_id, provider, dup.id);
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
  // Named, else orders' own default, else the tenant's provider for payment@1 (payment.describe says which).
  const provider = input.provider_module || (await getSetting<string>(ctx.host.db, 'default_payment_provider', '')) || (await chosenProvider(ctx, 'payment provider'));
  checkName(provider, 'payment', 'provider_module');
  const order = await loadOrder(ctx.host.db, input.id);
  if (order.status === 'cancelled') throw invalidStatus(`Order ${order.order_number} is cancelled.`, order.status);
  const due = new D(order.balance_due);
  if (due.lte(0)) throw ordersErrors.nothingDue(order.order_number, order.balance_due);
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

type Settlement = { status: 'completed' | 'failed'; external_payment_id?: string; amount?: string; metadata?: Record<string, unknown> };

/**
 * Settles a pending (link) payment once: completed (reconciled, order.payment_updated) or failed.
 * `find` picks the payment inside the transaction; a payment no longer pending is answered
 * `applied: false` (a gateway's repeated webhook), or refused when `strict` (a person asked).
 */
async function settlePayment(ctx: HandlerContext, orderRef: string, find: (tx: DbTransaction, order: OrderRow) => Promise<PaymentRow | null>, what: string, s: Settlement, strict: boolean) {
  const at = nowIso(ctx);
  const outbox: Outbox = [];
  const result = await inTransaction(ctx.host.db, async (tx) => {
    outbox.length = 0;
    const order = await loadOrder(tx, orderRef);
    const payment = await find(tx, order);
    if (!payment) throw notFound('Payment', what);
    if (payment.status !== 'pending') {
      if (strict) throw invalidStatus(`Payment ${payment.id} is ${payment.status}, not pending.`, payment.status);
      return { applied: false, payment, order };
    }
    const changes = {
      status: s.status, updated_at: at, paid_at: s.status === 'completed' ? at : null, ...(s.amount ? { amount: s.amount } : {}),
      external_payment_id: s.external_payment_id ?? payment.external_payment_id, metadata: { ...payment.metadata, ...s.metadata },
    };
    const updated = tx.update<PaymentRow>('Payment', changes, { where: { id: payment.id, status: 'pending' } });
    const cause = () => ({ payment_id: payment.id, method: payment.method, amount: changes.amount ?? payment.amount });
    const saved = s.status === 'completed' ? (await reconcile(tx, order, at, outbox, cause, updated.then(casOne))).order : await updated.then(casOne).then(() => order);
    return { applied: true, payment: { ...payment, ...changes }, order: saved };
  });
  await publish(ctx, outbox);
  return result;
}

export async function confirmPayment(input: { id: string; payment_id: string } & Settlement, ctx: HandlerContext) {
  const find = (tx: DbTransaction, order: OrderRow) => tx.findOne<PaymentRow>('Payment', { where: { id: input.payment_id, order_id: order.id } });
  const { payment, order } = await settlePayment(ctx, input.id, find, input.payment_id, { status: input.status, external_payment_id: input.external_payment_id, metadata: input.metadata }, true);
  return { ...payment, order: orderSummary(order) };
}

type LinkUpdate = { provider_module: string; link_id: string; status: 'completed' | 'failed' | 'pending'; external_payment_id?: string; amount?: string; link_status?: string };

/** The payment a link made, found by its provider and link id (kept in metadata once the gateway's payment id replaces it). */
async function linkPayment(db: DbTransaction, provider: string, linkId: string) {
  return db.findOne<PaymentRow>('Payment', { where: { provider_module: provider, metadata: { $contains: { link_id: linkId } } } });
}

/**
 * A payment provider module reports what became of a payment link (its gateway's webhook, or the
 * link_sync poll): paid → the pending payment completes with the gateway's payment id and amount;
 * expired or cancelled → failed. Applied once; a repeat answers `applied: false`.
 */
export async function applyPaymentUpdate(input: LinkUpdate, ctx: HandlerContext) {
  checkName(input.provider_module, 'payment', 'provider_module');
  const provider = recordName(input.provider_module);
  const known = await linkPayment(ctx.host.db, provider, input.link_id);
  if (!known) throw notFound('Payment link', input.link_id);
  if (input.status === 'pending') return { applied: false, payment: known };
  const amount = input.amount === undefined ? undefined : str(parseAmount(input.amount, 'amount'));
  const done = await settlePayment(ctx, known.order_id, (tx) => linkPayment(tx, provider, input.link_id), input.link_id, {
    status: input.status, external_payment_id: input.external_payment_id, amount, metadata: { link_status: input.link_status ?? (input.status === 'completed' ? 'paid' : 'expired') },
  }, false);
  return { applied: done.applied, payment: done.payment, order: orderSummary(done.order) };
}

/** How long a link payment stays pending before the poll asks its gateway (webhooks usually come first). */
export const LINK_POLL_AFTER_MS = 5 * 60_000;

/** The poll (schedule payment_link_sync): asks each link's provider (`<alias>.link_status`) about links still pending. */
export async function syncPaymentLinks(input: { limit?: number }, ctx: HandlerContext) {
  const cutoff = new Date(ctx.host.now() - LINK_POLL_AFTER_MS).toISOString();
  const due = await ctx.host.db.find<PaymentRow>('Payment', {
    where: { status: 'pending', provider_module: { $ne: null }, payment_link_url: { $ne: null }, created_at: { $lt: cutoff } }, order: [['created_at', 'ASC']], limit: input.limit ?? 200,
  });
  const result = { checked: due.length, completed: 0, failed: 0, pending: 0, errors: {} as Record<string, string> };
  for (const row of due) {
    const linkId = String(row.metadata.link_id ?? row.external_payment_id);
    try {
      const link = await callProvider<{ status: 'completed' | 'failed' | 'pending'; payment_id?: string | null; amount_paid?: string | null; link_status?: string }>(
        ctx, 'payment provider', row.provider_module!, 'link_status', { link_id: linkId },
      );
      const done = await applyPaymentUpdate({
        provider_module: row.provider_module!, link_id: linkId, status: link.status, link_status: link.link_status,
        ...(link.payment_id ? { external_payment_id: link.payment_id } : {}), ...(link.amount_paid ? { amount: link.amount_paid } : {}),
      }, ctx);
      result[done.applied ? (link.status === 'completed' ? 'completed' : 'failed') : 'pending']++;
    } catch (err) {
      result.errors[row.id] = (err as Error).message;
    }
  }
  return result;
}
