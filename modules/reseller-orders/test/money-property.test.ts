/**
 * The reseller network's money in every order of events (spec 3 Wallet, transaction, remittance;
 * Chain order; Reseller product pricing; States and transitions): a seeded property test on the
 * real platform over HTTP and real PostgreSQL (support.ts's chain A → B → C → D, S under B).
 *
 * Each case draws a fresh master product with random base cost, stock and per-level margins, then
 * 1–3 orders from random origins (B, C, S or D: chains of 2–4 levels), COD or prepaid, random
 * prices (some below the origin's cost) and GST rates, and runs their steps interleaved at random
 * with re-pricings (a parent's margin, or the base cost) between costing and forwarding: create,
 * forward level by level, accept, ship, deliver or cancel; prepaid payments and full refunds at
 * random points, partial refunds of delivered paid orders (then sometimes the rest, or a return). Then every level processes its pending remittances, in random order, until none
 * is left, and the invariants below are checked; every violation names its invariant and the seed:
 *   ledger-zero         every tenant's trial balance is 0.00; what wallet_held holds is what is processing
 *   no-processing,      none of the case's remittances stays processing or pending once every level
 *   all-settled         has processed what it owes
 *   payments-balance    each payer's copy of a remittance has its recipient's twin (amount, status);
 *                       remittance credits − debits over all tenants = 0
 *   price-fixed-on-entry each copy's your_cost = the level's cost when the order entered it × quantity
 *   margins-telescope   Σ your_margin over the levels = taxable value − the top's cost
 *   wallet-shares,      each level's wallet moved by its share, margin plus net GST (origin: money in
 *   money-conserved     − its parent's invoice; middle: its invoice to its child − its parent's; top:
 *                       its invoice to level 1; invoice = cost + GST), all wallets by the customers'
 *                       money kept (COD delivered; prepaid delivered and paid, less partial refunds;
 *                       nothing once refunded); after partial refunds every invoice amount less its
 *                       pro rata part, D(a, R) = a × R / T in paise half up (reseller-orders README)
 *   stock               master stock = start − quantities delivered (reservations released otherwise)
 *   state-propagated    every copy ends delivered or cancelled with the order
 *   valid-step-accepted a step valid by spec 3 is not refused
 *   unpaid-not-delivered an unpaid prepaid order's delivery is refused (PAYMENT_PENDING)
 *
 * Replay: PROPERTY_SEED=<seed> runs the cases from that seed (a failure prints its case's seed).
 * Bound (it runs in CI on 2 cores, twice): at most PROPERTY_CASES cases (default 8) or
 * PROPERTY_BUDGET_MS of cases (default 120 000 ms), whichever comes first; a case is not started
 * once the budget is spent.
 *
 * The seed is fixed unless PROPERTY_SEED says otherwise (PROPERTY_SEED=random draws one), so a CI
 * run is repeatable; any seed can be replayed.
 */
import Decimal from 'decimal.js';
import { mulberry32, type Rng } from './prng';
import { admins, copyAt, placeOrder, startChain, type Chain, type Level, type Res } from './support';

const DEFAULT_SEED = 20_261_201;
const seedSetting = process.env.PROPERTY_SEED;
const BASE_SEED = seedSetting === 'random' ? (Date.now() ^ (process.pid << 16)) >>> 0 : seedSetting ? Number(seedSetting) >>> 0 : DEFAULT_SEED;
const MAX_CASES = Number(process.env.PROPERTY_CASES ?? 8);
const BUDGET_MS = Number(process.env.PROPERTY_BUDGET_MS ?? 120_000);

/**
 * Generators of each kind of step, each switchable with PROPERTY_GENERATE (e.g. `returns=0,tax=0`)
 * to replay or isolate a failure. Returns take the fulfiller's `POST /chain-orders/{id}/return`
 * (reseller-orders README; spec 3 Chain orders names none).
 *   reprice, baseCost  a parent's margin, or the base cost, changed between the steps
 *   prepaid            prepaid orders beside COD ones; payments: prepaid orders get paid (before delivery,
 *                      which waits for it: 422 PAYMENT_PENDING);
 *   unpaid             some prepaid orders are never paid: shipped, their delivery refused
 *   refunds, cancels   full refunds of paid delivered orders; cancels (a paid one refunded after)
 *   partialRefunds     1–2 partial refunds (0.1–40% of the total each) of paid delivered orders
 *   refundUnshipped    a paid order refunded in full before it ships, with no cancel (stock back)
 *   returns            delivered orders returned by the fulfiller
 *   tax, belowCost     GST rates other than 0; sale prices below the origin's cost
 */
const GENERATE = parseSwitches(
  { reprice: true, baseCost: true, prepaid: true, payments: true, unpaid: true, refunds: true, cancels: true, refundUnshipped: true, returns: true, tax: true, belowCost: true, partialRefunds: true },
  process.env.PROPERTY_GENERATE ?? '',
);

function parseSwitches<T extends Record<string, boolean>>(defaults: T, spec: string): T {
  const out = { ...defaults };
  for (const part of spec.split(',').filter(Boolean)) {
    const [name, value] = part.split('=');
    if (!(name in out)) throw new Error(`PROPERTY_GENERATE: unknown generator ${name} (known: ${Object.keys(out).join(', ')})`);
    (out as Record<string, boolean>)[name] = value !== '0' && value !== 'false';
  }
  return out;
}
const SWITCHES = Object.entries(GENERATE).map(([k, v]) => `${k}=${v ? 1 : 0}`).join(',');
/** The fulfiller's return (reseller-orders README, States; spec 3 names no return route). */
const RETURN_ROUTE = (id: string) => `/chain-orders/${id}/return`;

const PARENT: Record<Level, Level | null> = { A: null, B: 'A', C: 'B', D: 'C', S: 'B' };
const LEVELS: Level[] = ['A', 'B', 'C', 'D', 'S'];
const CHILDREN = (['B', 'C', 'D', 'S'] as const).map((child) => ({ parent: PARENT[child] as Level, child }));
const GST_RATES = ['0', '5', '12', '18', '28'] as const; // spec 3, Tax configuration: supported GST rates

const money = (v: Decimal.Value) => new Decimal(v).toFixed(2);
const paise = (v: Decimal.Value) => new Decimal(v).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

/** The levels an order passes through, origin first, top (A) last. */
const pathFrom = (origin: Level): Level[] => {
  const path: Level[] = [origin];
  for (let p = PARENT[origin]; p; p = PARENT[p]) path.push(p);
  return path;
};

// ---------------------------------------------------------------------------------------------
// The model: what the network should hold (spec 3 Reseller product pricing; Wallet, transaction).

/** Unit costs per level now: cost_to_reseller = parent's cost × (1 + margin/100), paise half up from the parent's rounded cost (reseller-catalog README). */
class Prices {
  constructor(
    public base: Decimal,
    public margins: Record<Level, Decimal>,
  ) {}
  cost(level: Level): Decimal {
    const parent = PARENT[level];
    return parent ? paise(this.cost(parent).times(new Decimal(1).plus(this.margins[level].div(100)))) : this.base;
  }
}

/** How an order ends: delivered, cancelled where it is, (paid prepaid) fully refunded before it ships with no cancel, or (unpaid prepaid) shipped and never delivered. */
type Outcome = 'delivered' | 'cancelled' | 'refunded-unshipped' | 'shipped-unpaid';

interface OrderPlan {
  key: string;
  origin: Level;
  path: Level[];
  quantity: number;
  unitPrice: string;
  taxRate: string;
  cod: boolean;
  outcome: Outcome;
  paid: boolean;
  refunded: boolean;
  returned: boolean;
  /** Partial refunds after delivery, each in thousandths of the customer total. */
  partials: number[];
  steps: Step[];
}

type Step =
  | { kind: 'create' | 'accept' | 'ship' | 'deliver' | 'deliverUnpaid' | 'pay' | 'refund' | 'return'; order: string }
  | { kind: 'forward' | 'cancel'; order: string; level: Level }
  | { kind: 'partialRefund'; order: string; permille: number }
  | { kind: 'reprice'; parent: Level; child: Level; margin: string }
  | { kind: 'baseCost'; base: string };

/** What happened to one order as the run went, and what each copy should show. */
interface OrderRun {
  plan: OrderPlan;
  id?: string;
  number?: string;
  total?: string;
  paymentId?: string;
  /** What the partial refunds gave back so far. */
  partlyRefunded: Decimal;
  copies: Partial<Record<Level, string>>;
  /** Each level's unit cost, fixed when the order entered that level (design, wave 3: one price per level per order). */
  entered: Partial<Record<Level, Decimal>>;
  broken?: string;
}

const taxableOf = (p: OrderPlan) => new Decimal(p.unitPrice).times(p.quantity);

/** The customer's money that stays in the network: COD collected at delivery; prepaid only once paid; nothing once refunded or returned. */
function moneyIn(run: OrderRun): Decimal {
  const p = run.plan;
  if (p.outcome !== 'delivered' || p.refunded || p.returned) return new Decimal(0);
  if (!p.cod && !p.paid) return new Decimal(0);
  return new Decimal(run.total!).minus(run.partlyRefunded);
}

/**
 * Each level's end share of an order whose money stayed in (README: each level ends with its
 * margin plus its net GST, whoever took the money): each level pays its parent the parent's invoice
 * total (its cost plus that invoice's GST at the order line's rate; no business profiles here, so
 * CGST and SGST, each cost × rate / 200 half up), so origin = customer total − its invoice; a middle
 * level = its invoice to its child − its parent's to it; the top = its invoice to level 1 (its margin
 * over base cost is the goods' cost, not a wallet movement). The origin keeps the tax it charged, as
 * seller of record.
 */
function shares(run: OrderRun): Partial<Record<Level, Decimal>> {
  const inflow = moneyIn(run);
  if (inflow.isZero()) return {};
  const { path, quantity } = run.plan;
  // Each amount of an invoice less its part of the partial refunds (the pro rata rule, amount by
  // amount as the credit notes are; the parts of successive refunds add up to it).
  const left = (a: Decimal) => a.minus(paise(a.times(run.partlyRefunded).div(run.total!)));
  const cost = (l: Level) => {
    const taxable = run.entered[l]!.times(quantity);
    const half = paise(taxable.times(run.plan.taxRate).div(200));
    return left(taxable).plus(left(half)).plus(left(half));
  };
  const out: Partial<Record<Level, Decimal>> = {};
  path.forEach((level, i) => {
    if (i === 0) out[level] = inflow.minus(cost(level));
    else if (i === path.length - 1) out[level] = cost(path[i - 1]);
    else out[level] = cost(path[i - 1]).minus(cost(level));
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Generators.

function genOrder(rng: Rng, key: string, prices: Prices): OrderPlan {
  const origin = rng.pick(['B', 'C', 'S', 'D'] as const);
  const path = pathFrom(origin);
  const quantity = rng.int(1, 3);
  // Some sales below the origin's cost (spec 3 leaves it open; the upper levels keep their margins).
  const unitPrice = money(paise(prices.cost(origin).times(rng.int(GENERATE.belowCost ? 85 : 110, 160)).div(100)));
  const cod = !GENERATE.prepaid || rng.chance(0.5);
  const paid = !cod && GENERATE.payments && (!GENERATE.unpaid || rng.chance(0.7));
  const stop = rng.next();
  const outcome: Outcome =
    GENERATE.cancels && stop < 0.25 ? 'cancelled' : paid && GENERATE.refundUnshipped && stop < 0.4 ? 'refunded-unshipped' : !cod && !paid ? 'shipped-unpaid' : 'delivered';
  // A paid order that is cancelled is always refunded; a delivered one sometimes.
  const refunded = paid && (outcome === 'refunded-unshipped' || (GENERATE.refunds && (outcome === 'cancelled' || (outcome === 'delivered' && rng.chance(0.3)))));
  const returned = GENERATE.returns && outcome === 'delivered' && !refunded && rng.chance(0.3);
  const plan: OrderPlan = { key, origin, path, quantity, unitPrice, taxRate: GENERATE.tax ? rng.pick(GST_RATES) : '0', cod, outcome, paid, refunded, returned, partials: [], steps: [] };
  plan.steps = genLifecycle(rng, plan);
  // Drawn last, so the draws above stay those of the seed without partial refunds.
  if (GENERATE.partialRefunds && paid && outcome === 'delivered' && rng.chance(0.5)) {
    plan.partials = Array.from({ length: rng.int(1, 2) }, () => rng.int(1, 400));
    const after = plan.steps.findIndex((s) => s.kind === 'deliver') + 1;
    plan.steps.splice(after, 0, ...plan.partials.map((permille) => ({ kind: 'partialRefund' as const, order: key, permille })));
  }
  return plan;
}

/** The steps of one order in a valid order (README, States): created, forwarded up, accepted, shipped, delivered; or cancelled where it is. */
function genLifecycle(rng: Rng, plan: OrderPlan): Step[] {
  const order = plan.key;
  const top = plan.path[plan.path.length - 1];
  const life: Step[] = [{ kind: 'create', order }];
  for (const level of plan.path.slice(0, -1)) life.push({ kind: 'forward', order, level });
  life.push({ kind: 'accept', order }, { kind: 'ship', order }, { kind: 'deliver', order });
  let steps = life;
  if (plan.outcome === 'shipped-unpaid') steps = [...life.slice(0, -1), { kind: 'deliverUnpaid', order }];
  else if (plan.outcome !== 'delivered') {
    // Stopped before shipping: pending_forward where the order is now (after create or any forward), or accepted at the top.
    const cut = rng.int(1, plan.path.length + 1); // steps kept: 1..path.length (pending somewhere), path.length+1 (accepted)
    const at = cut <= plan.path.length ? plan.path[cut - 1] : top;
    steps = life.slice(0, cut);
    if (plan.outcome === 'cancelled') steps.push({ kind: 'cancel', order, level: at });
  }
  // Paid any time after creation and before the order stops (README: a prepaid order is delivered only once paid).
  if (plan.paid) steps.splice(rng.int(1, plan.outcome === 'refunded-unshipped' ? steps.length : steps.length - 1), 0, { kind: 'pay', order });
  if (plan.refunded) steps.push({ kind: 'refund', order });
  if (plan.returned) steps.push({ kind: 'return', order });
  return steps;
}

function genReprice(rng: Rng): Step {
  if (GENERATE.baseCost && (!GENERATE.reprice || rng.chance(0.3))) return { kind: 'baseCost', base: rng.money(100, 2000) };
  const { parent, child } = rng.pick(CHILDREN);
  return { kind: 'reprice', parent, child, margin: (rng.int(1000, 4000) / 100).toFixed(2) };
}

/** Interleaves the orders' steps at random (each order's own steps stay in order), with re-pricings between them. */
function interleave(rng: Rng, plans: OrderPlan[]): Step[] {
  const queues = plans.map((p) => [...p.steps]);
  let reprices = GENERATE.reprice || GENERATE.baseCost ? rng.int(0, 4) : 0;
  const out: Step[] = [];
  while (queues.some((q) => q.length)) {
    if (reprices > 0 && rng.chance(0.25)) {
      out.push(genReprice(rng));
      reprices--;
      continue;
    }
    const open = queues.filter((q) => q.length);
    out.push(rng.pick(open).shift()!);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The platform, over HTTP.

let c: Chain;
const pool: Record<Level, string[]> = { A: [], B: [], C: [], D: [], S: [] };
const turn: Record<Level, number> = { A: 0, B: 0, C: 0, D: 0, S: 0 };

/**
 * A request as one of a level's admins, in turn (spec 3, Limits: 30 writes and 100 reads a minute
 * per user), moving to the next admin on a 429 and waiting out Retry-After once all were refused.
 */
async function call(level: Level, method: string, p: string, body?: unknown): Promise<Res> {
  for (let tries = 0; ; tries++) {
    const token = pool[level][turn[level]++ % pool[level].length];
    const res = await c.as(level, method, p, body, token);
    if (res.status !== 429 || tries > 3 * pool[level].length) return res;
    if ((tries + 1) % pool[level].length === 0) await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 5)));
  }
}

async function ok(level: Level, method: string, p: string, body?: unknown) {
  const r = await call(level, method, p, body);
  if (r.status !== 200 && r.status !== 201) throw new Error(`${method} ${p} at ${level}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Every row of a paginated finance list (spec 3 Finance; pagination as the README shows it). */
async function all<T>(level: Level, p: string, key: string): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const body = await ok(level, 'GET', `${p}${p.includes('?') ? '&' : '?'}per_page=100&page=${page}`);
    out.push(...body[key]);
    if (!body.pagination || page >= body.pagination.last_page) return out;
  }
}

type Remittance = { id: string; origin_order_number: string; direction: string; payer_tenant_id: string; recipient_tenant_id: string; amount: string; flow_type: string; status: string; adjustment_ref: string };
const remittances = (level: Level, query = '') => all<Remittance>(level, `/finance/settlements/remittances${query}`, 'remittances');
const balance = async (level: Level) => new Decimal((await ok(level, 'GET', '/finance/wallet')).wallet.balance as string);
const stockOf = async (productId: string) => Number((await ok('A', 'GET', `/reseller-catalog/master-products/${productId}`)).product.stock_quantity);

// ---------------------------------------------------------------------------------------------
// Running a case.

interface Case {
  seed: number;
  productId: string;
  sku: string;
  prices: Prices;
  stock: number;
  runs: Map<string, OrderRun>;
  trace: string[];
  violations: string[];
}

async function setUpProduct(rng: Rng, seed: number): Promise<Case> {
  const prices = new Prices(new Decimal(rng.money(100, 2000)), { A: new Decimal(0), B: new Decimal(0), C: new Decimal(0), D: new Decimal(0), S: new Decimal(0) });
  const sku = `PROP-${seed.toString(36)}`;
  const stock = rng.int(20, 60);
  const { product } = await ok('A', 'POST', '/reseller-catalog/master-products', { sku, name: `Property kettle ${seed}`, base_cost: money(prices.base), stock_quantity: stock, minimum_margin_percent: 0 });
  for (const { parent, child } of CHILDREN) {
    const margin = (rng.int(1000, 4000) / 100).toFixed(2);
    await ok(parent, 'POST', '/reseller-catalog/pricing/set', { product_id: product.id, sub_reseller_id: c.ids[child], margin_percent: Number(margin) });
    prices.margins[child] = new Decimal(margin);
  }
  return { seed, productId: product.id, sku, prices, stock, runs: new Map(), trace: [], violations: [] };
}

const describeStep = (s: Step) => ('order' in s ? `${s.kind}(${s.order}${'level' in s ? `@${s.level}` : ''}${'permille' in s ? ` ${s.permille}‰` : ''})` : s.kind === 'reprice' ? `reprice(${s.parent}→${s.child} ${s.margin}%)` : `baseCost(${s.base})`);

/** One step through the public routes (spec 3 Endpoints: Chain orders, Reseller catalog; orders' Payments, refunds). */
async function runStep(k: Case, step: Step): Promise<void> {
  if (step.kind === 'reprice') {
    await ok(step.parent, 'POST', '/reseller-catalog/pricing/set', { product_id: k.productId, sub_reseller_id: c.ids[step.child], margin_percent: Number(step.margin) });
    k.prices.margins[step.child] = new Decimal(step.margin);
    return;
  }
  if (step.kind === 'baseCost') {
    await ok('A', 'PUT', `/reseller-catalog/master-products/${k.productId}`, { base_cost: step.base });
    k.prices.base = new Decimal(step.base);
    return;
  }
  const run = k.runs.get(step.order)!;
  if (run.broken) return;
  const { plan } = run;
  const top = plan.path[plan.path.length - 1];
  switch (step.kind) {
    case 'create': {
      const placed = await placeOrder(c, plan.origin, `Buyer ${plan.key}`, plan.cod, [{ name: 'Property kettle', sku: k.sku, quantity: plan.quantity, unit_price: plan.unitPrice, tax_rate: plan.taxRate }]);
      Object.assign(run, { id: placed.id, number: placed.order_number, total: placed.total });
      run.entered[plan.origin] = k.prices.cost(plan.origin);
      run.copies[plan.origin] = (await ok(plan.origin, 'POST', '/chain-orders', { order_id: placed.id })).order.id;
      return;
    }
    case 'forward': {
      await ok(step.level, 'POST', `/chain-orders/${run.copies[step.level]}/forward`);
      const parent = PARENT[step.level]!;
      run.entered[parent] = k.prices.cost(parent);
      const copy = await copyAt(c, parent, run.number!);
      if (!copy) throw new Error(`no copy of ${run.number} at ${parent} after forward`);
      run.copies[parent] = copy.id;
      return;
    }
    case 'deliverUnpaid': {
      // Spec 3 Order payment: a prepaid order not paid is not delivered (README: 422 PAYMENT_PENDING).
      const r = await call(top, 'POST', `/chain-orders/${run.copies[top]}/deliver`);
      if (r.status !== 422 || r.body?.code !== 'PAYMENT_PENDING') k.violations.push(`[unpaid-not-delivered] ${run.number}: deliver answered ${r.status} ${JSON.stringify(r.body)}`);
      return;
    }
    case 'accept':
    case 'deliver':
      await ok(top, 'POST', `/chain-orders/${run.copies[top]}/${step.kind}`);
      return;
    case 'ship':
      await ok(top, 'POST', `/chain-orders/${run.copies[top]}/ship`, { tracking_number: `TRK-${run.number}`, carrier: 'Delhivery' });
      return;
    case 'cancel':
      await ok(step.level, 'POST', `/chain-orders/${run.copies[step.level]}/cancel`, { reason: 'property test: customer cancelled' });
      return;
    case 'pay': {
      const body = await ok(plan.origin, 'POST', `/orders/${run.id}/payments`, { method: 'bank_transfer', amount: run.total, external_payment_id: `UTR-${run.number}` });
      run.paymentId = (body.payment ?? body).id;
      return;
    }
    case 'refund':
      // What is left of it after the partial refunds.
      await ok(plan.origin, 'POST', `/orders/${run.id}/refund`, { payment_id: run.paymentId, amount: money(new Decimal(run.total!).minus(run.partlyRefunded)), reason: 'property test: full refund' });
      return;
    case 'partialRefund': {
      const amount = Decimal.max('0.01', paise(new Decimal(run.total!).times(step.permille).div(1000)));
      await ok(plan.origin, 'POST', `/orders/${run.id}/refund`, { payment_id: run.paymentId, amount: money(amount), reason: 'property test: partial refund' });
      run.partlyRefunded = run.partlyRefunded.plus(amount);
      return;
    }
    case 'return':
      await ok(top, 'POST', RETURN_ROUTE(run.copies[top]!), { reason: 'property test: returned' });
      return;
  }
}

/** A fingerprint of every level's remittances and wallet, to know when the jobs and propagations are done. */
async function snapshot(): Promise<string> {
  const parts: string[] = [];
  for (const level of LEVELS) parts.push(`${level}:${(await balance(level)).toFixed(2)}:${(await remittances(level)).map((r) => `${r.id}=${r.status}`).sort().join(',')}`);
  return parts.join('|');
}

/** Waits until two snapshots a second apart agree (module jobs and related calls have landed), at most 15 s. */
async function quiesce(): Promise<void> {
  const until = Date.now() + 15_000;
  let last = await snapshot();
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = await snapshot();
    if (now === last) return;
    last = now;
  }
}

/** Every level pays what it owes (spec 3, States: pending → completed by process), in random order, until nothing pending is left or nothing moves. */
async function settleAll(rng: Rng, k: Case): Promise<void> {
  for (let pass = 0; pass < 6; pass++) {
    let moved = 0;
    for (const level of rng.shuffle(LEVELS)) {
      for (const rem of rng.shuffle(await remittances(level, '?direction=outgoing&status=pending'))) {
        const r = await call(level, 'POST', `/finance/settlements/remittances/${rem.id}/process`);
        if (r.status === 200) moved++;
        else k.violations.push(`[remittance-processable] ${level} could not process ${rem.id} (${rem.origin_order_number}, ${rem.amount}): ${r.status} ${JSON.stringify(r.body)}`);
      }
    }
    if (moved === 0) return;
    await quiesce();
  }
}

// ---------------------------------------------------------------------------------------------
// Invariants (each pushes `[name] what was seen` into the case's violations).

/** Spec 3 / design: a double-entry ledger whose sum is always zero; what it holds is exactly what is being paid (processing). */
async function ledgersAtZero(k: Case) {
  for (const level of LEVELS) {
    const trial = await ok(level, 'GET', '/finance/ledger/trial-balance');
    const processing = (await remittances(level, '?direction=outgoing&status=processing')).reduce((sum, r) => sum.plus(r.amount), new Decimal(0));
    if (trial.total !== '0.00') k.violations.push(`[ledger-zero] ${level}: trial balance ${trial.total}`);
    if (!new Decimal(trial.accounts.wallet_held ?? 0).eq(processing)) k.violations.push(`[ledger-zero] ${level}: wallet_held ${trial.accounts.wallet_held ?? '0.00'}, processing remittances ${money(processing)}`);
  }
}

/** Spec 3, States (remittance): once settled nothing of this case's orders stays processing or pending (an earlier case's is reported there). */
async function nothingOpen(k: Case) {
  const numbers = new Set([...k.runs.values()].map((r) => r.number));
  for (const level of LEVELS) {
    for (const rem of await remittances(level)) {
      if (!numbers.has(rem.origin_order_number)) continue;
      if (rem.status === 'processing') k.violations.push(`[no-processing] ${level}: ${rem.direction} ${rem.id} (${rem.origin_order_number}) is processing`);
      else if (rem.status === 'pending') k.violations.push(`[all-settled] ${level}: ${rem.direction} ${rem.id} (${rem.origin_order_number}, ${rem.amount}) is still pending`);
    }
  }
}

/** Spec 3 Wallet, transaction, remittance: what one level paid is what the other received — each payer's copy has its recipient's twin, same amount and status; remittance credits and debits of all tenants cancel out. */
async function paymentsBalance(k: Case) {
  const numbers = new Set([...k.runs.values()].map((r) => r.number));
  const byTenant = Object.fromEntries(LEVELS.map((l) => [c.ids[l], l])) as Record<string, Level>;
  const sides = new Map<string, { outgoing?: Remittance; incoming?: Remittance; seenAt: Level[] }>();
  for (const level of LEVELS) {
    for (const rem of await remittances(level)) {
      if (!numbers.has(rem.origin_order_number)) continue;
      const key = `${rem.origin_order_number} ${byTenant[rem.payer_tenant_id]}→${byTenant[rem.recipient_tenant_id]} ${rem.flow_type} ${rem.adjustment_ref || 'delivery'}`;
      const side = sides.get(key) ?? { seenAt: [] };
      side[rem.direction as 'incoming' | 'outgoing'] = rem;
      side.seenAt.push(level);
      sides.set(key, side);
    }
  }
  for (const [key, { outgoing, incoming }] of sides) {
    if (!outgoing || !incoming) k.violations.push(`[payments-balance] ${key}: only the ${outgoing ? 'payer' : 'recipient'}'s copy exists (${(outgoing ?? incoming)!.amount})`);
    else if (outgoing.amount !== incoming.amount || outgoing.status !== incoming.status) k.violations.push(`[payments-balance] ${key}: payer ${outgoing.amount} ${outgoing.status}, recipient ${incoming.amount} ${incoming.status}`);
  }
  let sum = new Decimal(0);
  for (const level of LEVELS) {
    for (const t of await all<{ type: string; amount: string }>(level, '/finance/wallet/transactions?reference_type=remittance', 'transactions')) {
      if (t.type === 'credit') sum = sum.plus(t.amount);
      if (t.type === 'debit') sum = sum.minus(t.amount);
    }
  }
  if (!sum.isZero()) k.violations.push(`[payments-balance] remittance credits − debits over all tenants = ${money(sum)}`);
}

/** Per copy: its cost is the price fixed when the order entered the level; the margins of the levels telescope to taxable value − the top's cost; each copy ends in the order's final state. */
const finalState = (p: OrderPlan): string | null =>
  p.outcome === 'delivered' ? (p.returned ? 'returned' : p.refunded ? 'refunded' : 'delivered') : p.outcome === 'cancelled' ? 'cancelled' : p.outcome === 'shipped-unpaid' ? 'shipped' : null;

async function pricesAndMargins(k: Case) {
  for (const run of k.runs.values()) {
    if (run.broken || !run.number) continue;
    const { plan } = run;
    // A refund before shipping has no chain route to follow (spec 3 Chain orders): its copies' state is not asserted, only its money and stock.
    const final = finalState(plan);
    let marginSum = new Decimal(0);
    let reached: Level[] = [];
    for (const level of plan.path) {
      if (!run.copies[level]) break;
      reached = [...reached, level];
      const { order } = await ok(level, 'GET', `/chain-orders/${run.copies[level]}`);
      const expected = money(run.entered[level]!.times(plan.quantity));
      if (order.pricing.your_cost !== expected) k.violations.push(`[price-fixed-on-entry] ${run.number} at ${level}: your_cost ${order.pricing.your_cost}, fixed on entry ${expected}`);
      if (final && order.chain_status !== final) k.violations.push(`[state-propagated] ${run.number} at ${level}: ${order.chain_status}, expected ${final}`);
      marginSum = marginSum.plus(order.pricing.your_margin);
    }
    if (reached.length !== plan.path.length) continue;
    const top = plan.path[plan.path.length - 1];
    const { order: atTop } = await ok(top, 'GET', `/chain-orders/${run.copies[top]}`);
    const expected = taxableOf(plan).minus(atTop.pricing.your_cost);
    if (!marginSum.eq(expected)) k.violations.push(`[margins-telescope] ${run.number} (${plan.path.join('→')}, taxable ${money(taxableOf(plan))}, total ${run.total}): Σ your_margin ${money(marginSum)} ≠ taxable − top cost ${money(expected)}`);
  }
}

/** Wallets: each level's balance moved by exactly its share of this case's orders; together by exactly the customers' money that stayed in. */
async function walletsMoveByShares(k: Case, before: Record<Level, Decimal>) {
  const expected = Object.fromEntries(LEVELS.map((l) => [l, new Decimal(0)])) as Record<Level, Decimal>;
  let inflow = new Decimal(0);
  for (const run of k.runs.values()) {
    if (run.broken || !run.number) continue;
    inflow = inflow.plus(moneyIn(run));
    for (const [level, share] of Object.entries(shares(run)) as Array<[Level, Decimal]>) expected[level] = expected[level].plus(share);
  }
  let moved = new Decimal(0);
  for (const level of LEVELS) {
    const delta = (await balance(level)).minus(before[level]);
    moved = moved.plus(delta);
    if (!delta.eq(expected[level])) k.violations.push(`[wallet-shares] ${level}: balance moved ${money(delta)}, its shares ${money(expected[level])}`);
  }
  if (!moved.eq(inflow)) k.violations.push(`[money-conserved] wallets moved ${money(moved)} in all, customers' money kept ${money(inflow)}`);
}

/**
 * Spec 3 Master product stock_quantity: reserved on accept and released on cancel or refund before
 * shipping; gone on delivery. A return reverses the money but not the stock: returned goods go back on
 * sale only when the fulfiller counts them in (modules/reseller-orders README, Returns and refunds).
 */
async function stockBack(k: Case) {
  let sold = 0;
  for (const run of k.runs.values()) if (run.plan.outcome === 'delivered' || run.plan.outcome === 'shipped-unpaid') sold += run.plan.quantity;
  const now = await stockOf(k.productId);
  if (now !== k.stock - sold) k.violations.push(`[stock] ${k.sku}: stock ${now}, expected ${k.stock} − ${sold} delivered = ${k.stock - sold}`);
}

async function runCase(seed: number): Promise<Case> {
  const rng = mulberry32(seed);
  const k = await setUpProduct(rng, seed);
  const plans = Array.from({ length: rng.int(1, 3) }, (_, i) => genOrder(rng, `o${i + 1}`, k.prices));
  for (const plan of plans) k.runs.set(plan.key, { plan, copies: {}, entered: {}, partlyRefunded: new Decimal(0) });
  const steps = interleave(rng, plans);
  const before = Object.fromEntries(await Promise.all(LEVELS.map(async (l) => [l, await balance(l)]))) as Record<Level, Decimal>;
  for (const plan of plans) k.trace.push(`${plan.key}: ${plan.path.join('→')} qty ${plan.quantity} × ${plan.unitPrice} GST ${plan.taxRate}% ${plan.cod ? 'COD' : 'prepaid'}${plan.paid ? ' paid' : ''} → ${plan.outcome}${plan.partials.length ? ` partly refunded ${plan.partials.join('‰, ')}‰` : ''}${plan.refunded ? ' refunded' : ''}${plan.returned ? ' returned' : ''}`);
  k.trace.push(`steps: ${steps.map(describeStep).join(' ')}`);
  for (const step of steps) {
    try {
      await runStep(k, step);
    } catch (err) {
      // A step valid by spec 3 that the platform refuses: the order goes no further.
      const run = 'order' in step ? k.runs.get(step.order) : undefined;
      if (run) run.broken = (err as Error).message;
      k.violations.push(`[valid-step-accepted] ${describeStep(step)}: ${(err as Error).message}`);
    }
  }
  k.trace.push(`orders: ${[...k.runs.values()].map((r) => `${r.plan.key}=${r.number ?? '-'}`).join(' ')}`);
  await quiesce();
  await settleAll(rng, k);
  await quiesce();
  await ledgersAtZero(k);
  await nothingOpen(k);
  await paymentsBalance(k);
  await pricesAndMargins(k);
  await walletsMoveByShares(k, before);
  await stockBack(k);
  return k;
}


describe('spec 3 Wallet, transaction, remittance: the network\'s money is right in every order of events (property, seeded)', () => {
  beforeAll(async () => {
    c = await startChain();
    for (const level of LEVELS) pool[level] = [c.tokens[level], ...(await admins(c, level, 3, 'prop'))];
    // Sales below cost leave a level owing more than it holds: credit limits let every remittance be paid (README: available + credit_limit must cover it).
    for (const { parent, child } of CHILDREN) await ok(parent, 'PUT', `/finance/sub-resellers/${c.ids[child]}/credit-limit`, { credit_limit: '10000000.00' });
  }, 300_000);
  afterAll(() => c?.host.close());

  test(`random chains of 2–4 levels, orders, re-pricings, payments, refunds, deliveries and cancels: ledgers at zero, payments balanced, margins telescoping, wallets by shares, stock back (PROPERTY_SEED=${BASE_SEED})`, async () => {
    const started = Date.now();
    const failed: string[] = [];
    let cases = 0;
    let partials = 0;
    for (; cases < MAX_CASES && Date.now() - started < BUDGET_MS; cases++) {
      const seed = (BASE_SEED + cases) >>> 0;
      const k = await runCase(seed).catch((err: Error) => ({ trace: [], violations: [`[case-ran] ${err.message}`] }) as Pick<Case, 'trace' | 'violations'>);
      if ('runs' in k) for (const run of k.runs.values()) partials += run.plan.partials.length;
      if (k.violations.length) failed.push([`case ${cases} — replay with PROPERTY_SEED=${seed} PROPERTY_CASES=1 PROPERTY_GENERATE=${SWITCHES} (run seed ${BASE_SEED}):`, ...k.trace.map((t) => `  ${t}`), ...k.violations.map((v) => `  ✗ ${v}`)].join('\n'));
    }
    console.log(`money property: ${cases} cases (${partials} partial refunds) in ${Math.round((Date.now() - started) / 1000)} s from PROPERTY_SEED=${BASE_SEED} (${SWITCHES}), ${failed.length} failing`);
    if (failed.length) throw new Error(`PROPERTY_SEED=${BASE_SEED}: ${failed.length} of ${cases} cases broke an invariant\n\n${failed.join('\n\n')}`);
  }, 300_000 + BUDGET_MS);
});
