/** Tax configurations CRUD, the tax calculator, and orders settings. */
import type { HandlerContext } from '../../../sdk';
import { invalid, notFound } from './errors';
import { D, parseAmount } from './money';
import { PROFILE_KEY } from './business-profile';
import { getSetting, inTransaction, nowIso } from './store';
import { gstConfigs, gstRate, lookupRate, taxResult, type TaxConfigRow } from './tax';
import { changingDefinitions } from './definition-cache';

type ConfigInput = { config_id?: number; name?: string; rate?: unknown; type?: string; is_default?: boolean; hsn_codes?: Array<string | number> };

function rateFor(type: string, rate: unknown): string {
  if (type === 'gst') return gstRate(rate, 'rate');
  const text = typeof rate === 'number' ? String(rate) : typeof rate === 'string' ? rate.trim() : '';
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(text) || new D(text).gt(100)) throw invalid('rate', 'The rate must be a percentage from 0 to 100 with at most 2 decimals.');
  return new D(text).toString();
}

const hsnList = (codes: Array<string | number> | undefined) => {
  const list = (codes ?? []).map((c) => String(c).trim());
  const bad = list.find((c) => !/^\d{2,8}$/.test(c));
  if (bad !== undefined) throw invalid('hsn_codes', `"${bad}" is not an HSN code (2 to 8 digits).`);
  return [...new Set(list)];
};

export async function createTaxConfig(input: ConfigInput, ctx: HandlerContext) {
  const type = input.type!;
  const rate = rateFor(type, input.rate);
  const hsn = hsnList(input.hsn_codes);
  const at = nowIso(ctx);
  return changingDefinitions(() => inTransaction(ctx.host.db, async (tx) => {
    if (input.is_default) await tx.update<TaxConfigRow>('TaxConfig', { is_default: false, updated_at: at }, { where: { type, is_default: true } });
    return tx.create<TaxConfigRow>('TaxConfig', { name: input.name, rate, type, is_default: input.is_default ?? false, hsn_codes: hsn, created_at: at, updated_at: at });
  }));
}

export async function updateTaxConfig(input: ConfigInput, ctx: HandlerContext) {
  const at = nowIso(ctx);
  return changingDefinitions(() => inTransaction(ctx.host.db, async (tx) => {
    const current = await tx.findOne<TaxConfigRow>('TaxConfig', { where: { id: input.config_id } });
    if (!current) throw notFound('Tax configuration', String(input.config_id));
    const type = input.type ?? current.type;
    const changes: Partial<TaxConfigRow> = { type, updated_at: at };
    if (input.name !== undefined) changes.name = input.name;
    if (input.rate !== undefined || input.type !== undefined) changes.rate = rateFor(type, input.rate ?? current.rate);
    if (input.hsn_codes !== undefined) changes.hsn_codes = hsnList(input.hsn_codes);
    if (input.is_default !== undefined) {
      changes.is_default = input.is_default;
      if (input.is_default) await tx.update<TaxConfigRow>('TaxConfig', { is_default: false, updated_at: at }, { where: { type, is_default: true, id: { $ne: current.id } } });
    }
    await tx.update<TaxConfigRow>('TaxConfig', changes, { where: { id: current.id } });
    return { ...current, ...changes };
  }));
}

export async function getTaxConfig(input: { config_id: number }, ctx: HandlerContext) {
  const row = await ctx.host.db.findOne<TaxConfigRow>('TaxConfig', { where: { id: input.config_id } });
  if (!row) throw notFound('Tax configuration', String(input.config_id));
  return row;
}

export async function deleteTaxConfig(input: { config_id: number }, ctx: HandlerContext) {
  const n = await changingDefinitions(() => ctx.host.db.destroy('TaxConfig', { where: { id: input.config_id } }));
  if (n === 0) throw notFound('Tax configuration', String(input.config_id));
  return { deleted: true as const, id: input.config_id };
}

export async function listTaxConfigs(input: { type?: string }, ctx: HandlerContext) {
  return { data: await ctx.host.db.find<TaxConfigRow>('TaxConfig', { where: input.type ? { type: input.type } : {}, order: [['id', 'ASC']], limit: 1000 }) };
}

export async function calculateTax(input: { amount: unknown; hsn_code?: string; same_state?: boolean; rate_override?: unknown }, ctx: HandlerContext) {
  const amount = parseAmount(input.amount, 'amount', { allowZero: true });
  const { rate, source } = await lookupRate(() => gstConfigs(ctx.host.db), input.hsn_code, input.rate_override);
  return { amount: amount.toFixed(2), same_state: input.same_state ?? true, ...taxResult(amount, rate, input.same_state ?? true, source) };
}

// Every key the manifest's update_settings input accepts; one left out here would be accepted and dropped.
// The seller's name and GSTIN are in the business profile (./business-profile.ts).
const SETTING_KEYS = ['seller_state', 'default_payment_provider', 'ndr_max_attempts', 'ndr_auto_reattempt', 'webhook_retry_backoff_ms'] as const;
const DEFAULTS: Record<string, unknown> = {
  seller_state: null, default_payment_provider: null, ndr_max_attempts: 3, ndr_auto_reattempt: true,
  webhook_retry_backoff_ms: 60_000, // spec 3 Limits: 60-second backoff
};

export async function getSettings(_input: unknown, ctx: HandlerContext) {
  const rows = await ctx.host.db.find<{ key: string; value: unknown }>('Setting', { limit: 100 });
  const out: Record<string, unknown> = { ...DEFAULTS };
  for (const r of rows) if ((SETTING_KEYS as readonly string[]).includes(r.key)) out[r.key] = r.value;
  return out;
}

export async function updateSettings(input: Record<string, unknown>, ctx: HandlerContext) {
  await changingDefinitions(() => inTransaction(ctx.host.db, async (tx) => {
    if (input.seller_state !== undefined && (await getSetting(tx, PROFILE_KEY, null))) {
      throw invalid('seller_state', 'The seller state is the business profile\'s address.state: change it with PUT /order-settings/business-profile.');
    }
    for (const key of SETTING_KEYS) if (input[key] !== undefined) await tx.upsert('Setting', { key, value: input[key] });
  }));
  return getSettings({}, ctx);
}
