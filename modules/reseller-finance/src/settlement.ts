/**
 * Settlement of delivered chain orders (spec 3, Wallet, transaction, remittance; States: remittance).
 * On delivery each level records, in its own database, its side of the customer's money between
 * adjacent levels. Upstream (COD: the origin, seller of record, received the carrier's collection):
 * the origin's wallet is credited, each level owes its parent its own cost. Downstream (prepaid
 * through the top: the top's gateway took the payment): the top's wallet is credited, each level
 * owes its child the customer total less the child's cost (the margins of every level below it).
 * Either way each level ends with its margin. The amounts come from reseller_orders: each cost is its
 * seller's invoice total (bound price plus GST), so each level's margin comes with its net GST.
 *
 * The payer processes a remittance: pending → processing (its money held) → completed (the hold
 * released and the money paid) once the recipient's copy is credited by a related-tenant call, or
 * back to pending (the hold released) when the recipient cannot be credited.
 */
import { jobs, related, type DbTransaction, type HandlerContext, type ModuleError } from '../../../sdk';
import { codeOf, contended, financeErrors, insufficientBalance, invalidStatus, notFound, notPayer, remittanceCancelled } from './errors';
import { D, money } from './money';
import { availableOf, CLEARING_ACCOUNTS, changeWallet, HELD_ACCOUNT, inTransaction, post, postAll, tenantAccount, walletOf, type WalletRow } from './wallet';

/** Spec 3, COD collection flow_type: money settling up the chain (COD at the origin) or down it (prepaid at the top). */
export type FlowType = 'upstream' | 'downstream';

export type RemittanceRow = {
  id: string;
  chain_ref: string;
  chain_order_id: string;
  origin_order_number: string;
  direction: 'incoming' | 'outgoing';
  payer_tenant_id: string;
  recipient_tenant_id: string;
  counterparty_name: string | null;
  amount: string;
  flow_type: FlowType;
  status: 'pending' | 'processing' | 'completed' | 'cancelled';
  due_date: string;
  is_overdue: boolean;
  due_notified_at: string | null;
  overdue_notified_at: string | null;
  completed_at: string | null;
  created_at: string;
  /** '' for the delivery's remittance; a partial refund's id, or `reversal` (models.ts). */
  adjustment_ref: string;
};

/** What names one remittance between a payer and a recipient: its order and its cause. */
export type RemittanceKey = { chain_ref: string; adjustment_ref?: string };
const keyOf = (r: RemittanceKey) => `${r.chain_ref}\n${r.adjustment_ref ?? ''}`;
/** What the payer tells the recipient it paid (receive_remittances). */
export const paidItem = (r: RemittanceRow) => ({ chain_ref: r.chain_ref, adjustment_ref: r.adjustment_ref ?? '', amount: r.amount });

export type CollectionRow = {
  id: string;
  chain_ref: string;
  chain_order_id: string;
  origin_order_number: string;
  collector_tenant_id: string;
  cod_amount: string;
  amount: string;
  tax_amount: string;
  gst_charged: string;
  gst_paid: string;
  flow_type: FlowType;
  status: 'pending' | 'settled' | 'reversed';
  collected_at: string;
  settled_at: string | null;
};

/** A remittance is due this many days after the delivery that created it (README: decisions). */
export const DUE_DAYS = 7;
/** wallet.low_balance fires when a debit leaves the balance below this (README: decisions). */
export const LOW_BALANCE = '0.00';
/** Attempts of the `deliver` job; after the last one fails the hold is released (README: decisions). */
export const DELIVER_ATTEMPTS = 10;

export interface Counterparty {
  tenant_id: string;
  name?: string | null;
  amount: string;
}

export interface DeliveryInput {
  chain_ref: string;
  chain_order_id: string;
  origin_order_number: string;
  /** upstream: the origin took the customer's money (COD); downstream: the top did (prepaid). */
  flow_type: FlowType;
  /** Who took the customer's money, as far as this level may know it: the origin (upstream); the top itself, or this level's parent, below it (downstream). */
  collector_tenant_id: string;
  /** Set at the level that took the customer's money: collected by the carrier (cod) or a payment gateway (prepaid). */
  collected: { amount: string; method: 'cod' | 'prepaid' } | null;
  /** At the origin: the GST its invoice charged, part of the customer's money but not its earnings. */
  tax?: string;
  /** The GST of this level's invoice to its child, and of its parent's invoice to it, within the remittances (README: Tax). */
  gst_charged?: string;
  gst_paid?: string;
  /**
   * Remittances this level pays: to its parent (upstream, its own cost) or its child (downstream, the
   * total less the child's cost, or to its parent the shortfall of a sale below its own cost); none at the end of the flow.
   */
  pay: Counterparty[];
  /** Remittances this level receives, from the other side (downstream, a child's shortfall too); none where the money came in. */
  receive: Counterparty[];
}

const isoNow = (ctx: HandlerContext) => new Date(ctx.host.now()).toISOString();
const dateAfter = (ms: number, days: number) => new Date(ms + days * 86_400_000).toISOString().slice(0, 10);

/** Records a delivered chain order's money at this level; a second call for the same chain_ref changes nothing. */
export async function recordDelivery(ctx: HandlerContext, input: DeliveryInput): Promise<{ recorded: boolean; remittance_ids: string[] }> {
  const at = isoNow(ctx);
  const due = dateAfter(ctx.host.now(), DUE_DAYS);
  const result = await inTransaction(ctx.host.db, async (tx) => {
    if (await tx.findOne<CollectionRow>('Collection', { where: { chain_ref: input.chain_ref }, attributes: ['id'] })) return { recorded: false, remittances: [] as RemittanceRow[] };
    let wallet = await walletOf(tx);
    const own = input.collected && new D(input.collected.amount).gt(0) ? input.collected : null;
    const collected = own?.amount ?? input.receive.reduce((a, r) => a.plus(r.amount), new D(0));
    // A level that took the customer's money and pays nobody is settled now; another once it has paid (or, paying nobody, been paid).
    await tx.create<CollectionRow>('Collection', {
      chain_ref: input.chain_ref,
      chain_order_id: input.chain_order_id,
      origin_order_number: input.origin_order_number,
      collector_tenant_id: input.collector_tenant_id,
      cod_amount: own?.method === 'cod' ? own.amount : '0.00',
      amount: money(collected),
      tax_amount: input.tax ?? '0.00',
      gst_charged: input.gst_charged ?? '0.00',
      gst_paid: input.gst_paid ?? '0.00',
      flow_type: input.flow_type,
      status: own && !input.pay.length ? 'settled' : 'pending',
      collected_at: at,
      settled_at: own && !input.pay.length ? at : null,
    });
    if (own) {
      wallet = await changeWallet(tx, wallet, { balance: own.amount, total_earned: own.amount, last_settlement_at: at }, at);
      await post(
        tx,
        {
          type: 'credit',
          amount: own.amount,
          account: CLEARING_ACCOUNTS[own.method],
          reference_type: 'chain_order',
          reference_id: input.chain_order_id,
          counterparty_tenant_id: null,
          description: `${own.method === 'cod' ? 'COD' : 'Prepaid payment'} collected for order ${input.origin_order_number}`,
        },
        wallet.balance,
        at,
      );
    }
    const remittances: RemittanceRow[] = [];
    const base = { chain_ref: input.chain_ref, chain_order_id: input.chain_order_id, origin_order_number: input.origin_order_number, flow_type: input.flow_type, status: 'pending' as const, due_date: due, created_at: at };
    for (const pay of input.pay.filter((p) => new D(p.amount).gt(0))) {
      remittances.push(await tx.create<RemittanceRow>('Remittance', { ...base, direction: 'outgoing', payer_tenant_id: ctx.tenantId, recipient_tenant_id: pay.tenant_id, counterparty_name: pay.name ?? null, amount: pay.amount }));
      wallet = await changeWallet(tx, wallet, { pending_debits: pay.amount }, at);
    }
    for (const receive of input.receive.filter((r) => new D(r.amount).gt(0))) {
      remittances.push(
        await tx.create<RemittanceRow>('Remittance', { ...base, direction: 'incoming', payer_tenant_id: receive.tenant_id, recipient_tenant_id: ctx.tenantId, counterparty_name: receive.name ?? null, amount: receive.amount }),
      );
      wallet = await changeWallet(tx, wallet, { pending_credits: receive.amount }, at);
    }
    return { recorded: true, remittances };
  });
  for (const r of result.remittances) await ctx.host.emit('remittance.created', envelope(ctx, 'remittance.created', remittanceData(r)));
  return { recorded: result.recorded, remittance_ids: result.remittances.map((r) => r.id) };
}

export interface Processed {
  remittance: RemittanceRow;
  wallet: WalletRow;
}

const remittanceEvent = (rem: RemittanceRow) => ({ reference_type: 'remittance' as const, reference_id: rem.id, counterparty_tenant_id: rem.recipient_tenant_id });

/** Remittances held, or completed, per transaction: one wallet change for the lot (bulk-process hands over up to 1000). */
const WRITE_BATCH = 100;

/**
 * First step of paying outgoing remittances (spec 3, States: only a pending remittance may be
 * processed): each pending → processing, with a hold on the payer's money. The conditional status
 * update is the lock: of concurrent calls exactly one changes the row, the others wait for it and
 * then find it processing or completed (INVALID_STATUS). An id refused (unknown, another tenant's
 * side, INVALID_STATUS, or INSUFFICIENT_BALANCE: the available balance plus credit limit, less what
 * this call already held, cannot cover it) writes nothing and is returned in `errors`.
 */
export async function holdRemittances(ctx: HandlerContext, ids: string[]): Promise<{ held: Processed[]; errors: Map<string, ModuleError> }> {
  const held: Processed[] = [];
  const errors = new Map<string, ModuleError>();
  for (let i = 0; i < ids.length; i += WRITE_BATCH) {
    const out = await inTransaction(ctx.host.db, (tx) => holdBatch(tx, ids.slice(i, i + WRITE_BATCH), isoNow(ctx)));
    held.push(...out.held);
    for (const [id, err] of out.errors) errors.set(id, err);
  }
  return { held, errors };
}

async function holdBatch(tx: DbTransaction, ids: string[], at: string) {
  const found = new Map((await tx.find<RemittanceRow>('Remittance', { where: { id: { $in: ids } }, limit: ids.length })).map((r) => [r.id, r]));
  const wallet = await walletOf(tx);
  const fast = await holdAll(tx, ids, found, wallet);
  const { moved, errors } = fast ?? (await holdEach(tx, ids, found, wallet));
  if (!moved.length) return { held: [], errors };
  const next = await changeWallet(tx, wallet, { held: money(moved.reduce((a, r) => a.plus(r.amount), new D(0))) }, at);
  await postAll(
    tx,
    moved.map((rem) => ({ movement: { type: 'hold', amount: rem.amount, account: HELD_ACCOUNT, ...remittanceEvent(rem), description: `Held for the remittance of order ${rem.origin_order_number}` }, balanceAfter: next.balance })),
    at,
  );
  return { held: moved.map((remittance) => ({ remittance, wallet: next })), errors };
}

/**
 * The common case in one statement: every id the payer's, pending when read, and their sum within
 * reach. The conditional update is the lock as in holdEach; when it changed fewer rows than read
 * pending, a concurrent call took some of them, and the transaction is run again (this update
 * undone), so the fresh read sends those ids through holdEach. Null when the case is not common.
 */
async function holdAll(tx: DbTransaction, ids: string[], found: Map<string, RemittanceRow>, wallet: WalletRow) {
  const rems = ids.map((id) => found.get(id));
  if (!rems.every((r) => r && r.direction === 'outgoing' && r.status === 'pending')) return null;
  const sum = (rems as RemittanceRow[]).reduce((a, r) => a.plus(r.amount), new D(0));
  if (availableOf(wallet).plus(wallet.credit_limit).lt(sum)) return null;
  if ((await tx.update<RemittanceRow>('Remittance', { status: 'processing' }, { where: { id: { $in: ids }, status: 'pending' } })) !== ids.length) throw contended();
  return { moved: (rems as RemittanceRow[]).map((rem) => ({ ...rem, status: 'processing' as const })), errors: new Map<string, ModuleError>() };
}

/** One id at a time, each refused for its own reason. */
async function holdEach(tx: DbTransaction, ids: string[], found: Map<string, RemittanceRow>, wallet: WalletRow) {
  const errors = new Map<string, ModuleError>();
  const moved: RemittanceRow[] = [];
  let holding = new D(0);
  for (const id of ids) {
    const rem = found.get(id);
    if (!rem) {
      errors.set(id, notFound('Remittance', id));
      continue;
    }
    if (rem.direction !== 'outgoing') {
      errors.set(id, notPayer(id));
      continue;
    }
    // The status first: a call that lost the race is told the remittance is being paid, not that
    // the winner's hold left too little (the row read above may predate the winner's commit).
    if ((await tx.update<RemittanceRow>('Remittance', { status: 'processing' }, { where: { id, status: 'pending' } })) !== 1) {
      errors.set(id, invalidStatus(id, (await tx.findOne<RemittanceRow>('Remittance', { where: { id }, attributes: ['status'] }))?.status ?? 'completed'));
      continue;
    }
    const reach = availableOf(wallet).minus(holding).plus(wallet.credit_limit);
    if (reach.lt(rem.amount)) {
      // Ours since the update above (its row lock lasts to the end of this transaction): undone here.
      await tx.update<RemittanceRow>('Remittance', { status: 'pending' }, { where: { id, status: 'processing' } });
      errors.set(id, insufficientBalance(rem.amount, money(reach)));
      continue;
    }
    holding = holding.plus(rem.amount);
    moved.push({ ...rem, status: 'processing' });
  }
  return { moved, errors };
}

/**
 * Last step, once the recipients' copies are credited: processing → completed, each hold released
 * and the money paid (debit to the recipient's account). A remittance no longer processing
 * (completed or released meanwhile) is left out: nothing is written twice.
 */
export async function completeRemittances(ctx: HandlerContext, ids: string[]): Promise<Processed[]> {
  const done: Processed[] = [];
  for (let i = 0; i < ids.length; i += WRITE_BATCH) {
    const batch = await inTransaction(ctx.host.db, (tx) => completeBatch(tx, ids.slice(i, i + WRITE_BATCH), isoNow(ctx)));
    done.push(...batch);
    const wallet = batch[batch.length - 1]?.wallet;
    if (wallet && new D(wallet.balance).lt(LOW_BALANCE)) {
      await ctx.host.emit('wallet.low_balance', envelope(ctx, 'wallet.low_balance', { balance: wallet.balance, credit_limit: wallet.credit_limit, threshold: LOW_BALANCE }));
    }
  }
  return done;
}

async function completeBatch(tx: DbTransaction, ids: string[], at: string): Promise<Processed[]> {
  const processing = await tx.find<RemittanceRow>('Remittance', { where: { id: { $in: ids }, status: 'processing' }, limit: ids.length });
  if (!processing.length) return [];
  // One conditional update for the lot: fewer rows changed than read means a concurrent call
  // completed or released some meanwhile, and the run again reads which (nothing is written twice).
  if ((await tx.update<RemittanceRow>('Remittance', { status: 'completed', completed_at: at }, { where: { id: { $in: processing.map((r) => r.id) }, status: 'processing' } })) !== processing.length) throw contended();
  const moved = processing.map((rem) => ({ ...rem, status: 'completed' as const, completed_at: at }));
  const wallet = await walletOf(tx);
  const paid = moved.reduce((a, r) => a.plus(r.amount), new D(0));
  const minus = money(paid.neg());
  const next = await changeWallet(tx, wallet, { held: minus, balance: minus, pending_debits: minus, total_paid_out: money(paid), last_settlement_at: at }, at);
  let balance = new D(wallet.balance);
  await postAll(
    tx,
    moved.flatMap((rem) => {
      const before = money(balance);
      balance = balance.minus(rem.amount);
      return [
        { movement: { type: 'release' as const, amount: rem.amount, account: HELD_ACCOUNT, ...remittanceEvent(rem), description: `Hold released: remittance of order ${rem.origin_order_number} paid` }, balanceAfter: before },
        { movement: { type: 'debit' as const, amount: rem.amount, account: tenantAccount(rem.recipient_tenant_id), ...remittanceEvent(rem), description: `Remittance for order ${rem.origin_order_number}` }, balanceAfter: money(balance) },
      ];
    }),
    at,
  );
  await settleCollections(tx, moved.map((r) => r.chain_ref), at);
  return moved.map((remittance) => ({ remittance, wallet: next }));
}

/**
 * A level's collection of an order is settled once it has paid every remittance it owes for it, or,
 * paying none (the top, or a level owed by both neighbours), once every one owed to it is in.
 */
async function settleCollections(tx: DbTransaction, refs: string[], at: string) {
  const unique = [...new Set(refs)];
  // The delivery's remittances only: a partial refund's adjustments come after the collection is settled or not.
  const rems = await tx.find<RemittanceRow>('Remittance', { where: { chain_ref: { $in: unique }, adjustment_ref: '' }, attributes: ['chain_ref', 'direction', 'status'], limit: unique.length * 4 });
  const done = unique.filter((ref) => {
    const mine = rems.filter((r) => r.chain_ref === ref);
    const paying = mine.filter((r) => r.direction === 'outgoing');
    return (paying.length ? paying : mine).every((r) => r.status === 'completed');
  });
  if (done.length) await tx.update<CollectionRow>('Collection', { status: 'settled', settled_at: at }, { where: { chain_ref: { $in: done }, status: 'pending' } });
}

/** The recipient could not be credited: processing → pending and the hold released, so it can be processed again. */
export async function releaseRemittance(ctx: HandlerContext, id: string, reason: string): Promise<boolean> {
  const at = isoNow(ctx);
  return inTransaction(ctx.host.db, async (tx) => {
    const changed = await tx.update<RemittanceRow>('Remittance', { status: 'pending' }, { where: { id, status: 'processing' } });
    if (changed !== 1) return false;
    const rem = (await tx.findOne<RemittanceRow>('Remittance', { where: { id } }))!;
    const next = await changeWallet(tx, await walletOf(tx), { held: money(new D(rem.amount).neg()) }, at);
    await post(tx, { type: 'release', amount: rem.amount, account: HELD_ACCOUNT, ...remittanceEvent(rem), description: `Hold released: ${reason}`.slice(0, 255) }, next.balance, at);
    return true;
  });
}

/**
 * Pays held remittances: the recipients credited in batches, and those credited completed. One still
 * processing (its recipient could not be reached) is completed by the retried `deliver` job, or
 * released after its last attempt.
 */
export async function payHeld(ctx: HandlerContext, held: Processed[]): Promise<Processed[]> {
  const credited = await deliverToRecipients(ctx, held.map((h) => h.remittance));
  const done = new Map((await completeRemittances(ctx, [...credited])).map((p) => [p.remittance.id, p]));
  return held.map((h) => done.get(h.remittance.id) ?? h);
}

/** Remittances credited per related call (bulk-process hands over up to 1000). */
const DELIVERY_BATCH = 100;

/**
 * Credits the recipients' copies through the related-tenant call, one call per recipient and batch,
 * and returns the ids credited. The payer's hold is committed first; when a call fails (the
 * recipient unreachable for a moment), a retried job delivers each of its remittances, and the
 * recipient's side is idempotent (its copy is completed once).
 */
export async function deliverToRecipients(ctx: HandlerContext, remittances: RemittanceRow[]): Promise<Set<string>> {
  const credited = new Set<string>();
  const byRecipient = new Map<string, RemittanceRow[]>();
  for (const r of remittances) byRecipient.set(r.recipient_tenant_id, [...(byRecipient.get(r.recipient_tenant_id) ?? []), r]);
  for (const [recipient, list] of byRecipient) {
    for (let i = 0; i < list.length; i += DELIVERY_BATCH) {
      const batch = list.slice(i, i + DELIVERY_BATCH);
      try {
        await related(ctx.host).call(recipient, 'reseller_finance.receive_remittances', { items: batch.map(paidItem) });
        for (const r of batch) credited.add(r.id);
      } catch (err) {
        ctx.host.log.warn('remittance delivery deferred to a job', { recipient, count: batch.length, code: codeOf(err) });
        for (const r of batch) await jobs<{ deliver: { remittance_id: string } }>(ctx.host).enqueue('deliver', { remittance_id: r.id }, { key: `deliver:${r.id}`, delaySeconds: 30 });
      }
    }
  }
  return credited;
}

/**
 * The recipient's side of processed remittances, run in the recipient's tenant by the payer's
 * module: a batch (up to DELIVERY_BATCH) in one transaction, all or nothing. A copy already
 * completed is left as it is (a redelivery); the answer counts the copies credited now.
 */
export async function receiveRemittances(ctx: HandlerContext, payer: string, items: Array<RemittanceKey & { amount: string }>): Promise<{ received: number }> {
  const at = isoNow(ctx);
  const refs = [...new Set(items.map((i) => i.chain_ref))];
  const causes = [...new Set(items.map((i) => i.adjustment_ref ?? ''))];
  return inTransaction(ctx.host.db, async (tx) => {
    // A payer sending no adjustment_ref (a version before adjustments) means the delivery's remittance.
    const candidates = await tx.find<RemittanceRow>('Remittance', { where: { chain_ref: { $in: refs }, adjustment_ref: { $in: causes }, payer_tenant_id: payer, recipient_tenant_id: ctx.tenantId }, limit: refs.length * causes.length });
    const wanted = new Set(items.map(keyOf));
    const byRef = new Map(candidates.filter((r) => wanted.has(keyOf(r))).map((r) => [keyOf(r), r]));
    for (const item of items) {
      const rem = byRef.get(keyOf(item));
      if (!rem) throw notFound('Remittance of chain order', item.chain_ref);
      // Its order was reversed before this payment arrived: the payer is told, and its hold is released in time.
      if (rem.status === 'cancelled') throw remittanceCancelled(item.chain_ref);
      if (!new D(rem.amount).eq(item.amount)) throw financeErrors.amountMismatch(rem.amount, item.amount);
    }
    const pending = [...byRef.values()].filter((r) => r.status === 'pending');
    if (!pending.length) return { received: 0 };
    // The conditional update is the lock: fewer rows changed than read pending means a concurrent
    // delivery credited some meanwhile, and the run again reads which.
    if ((await tx.update<RemittanceRow>('Remittance', { status: 'completed', completed_at: at }, { where: { id: { $in: pending.map((r) => r.id) }, status: 'pending' } })) !== pending.length) throw contended();
    const sum = money(pending.reduce((a, r) => a.plus(r.amount), new D(0)));
    const wallet = await walletOf(tx);
    await changeWallet(tx, wallet, { balance: sum, pending_credits: money(new D(sum).neg()), total_earned: sum, last_settlement_at: at }, at);
    let balance = new D(wallet.balance);
    await postAll(
      tx,
      pending.map((rem) => {
        balance = balance.plus(rem.amount);
        const movement = { type: 'credit' as const, amount: rem.amount, account: tenantAccount(payer), reference_type: 'remittance' as const, reference_id: rem.id, counterparty_tenant_id: payer, description: `Remittance received for order ${rem.origin_order_number}` };
        return { movement, balanceAfter: money(balance) };
      }),
      at,
    );
    await settleCollections(tx, pending.map((r) => r.chain_ref), at);
    return { received: pending.length };
  });
}

/** Spec 3, Events: {event, timestamp, tenant_id, data}. */
export function envelope(ctx: HandlerContext, event: string, data: Record<string, unknown>) {
  return { event, timestamp: new Date(ctx.host.now()).toISOString(), tenant_id: ctx.tenantId, data };
}

export function remittanceData(r: RemittanceRow) {
  return {
    remittance_id: r.id,
    chain_order_id: r.chain_order_id,
    origin_order_number: r.origin_order_number,
    direction: r.direction,
    payer_tenant_id: r.payer_tenant_id,
    recipient_tenant_id: r.recipient_tenant_id,
    amount: r.amount,
    due_date: r.due_date,
  };
}
