/**
 * Indian GST, spec 3 "Tax configuration": intra-state tax splits into CGST and SGST, each
 * amount × rate / 200; inter-state tax is IGST = amount × rate / 100. Rate lookup: (1) rate_override;
 * (2) the configuration whose hsn_codes contain the HSN code; (3) the default GST configuration;
 * (4) 18 percent. Supported GST rates: 0, 5, 12, 18, 28.
 *
 * Rounding (see money.ts): each component is rounded to paise half-up on its own; total_tax is the
 * sum of the rounded components (so CGST + SGST always equals total_tax exactly).
 */
import type { Db, DbTransaction, RowOf } from '../../../sdk';
import { invalid } from './errors';
import { D, str, type Dec } from './money';
import type { data } from './models';

/** Row types come from the models' columns (RowOf); the second argument narrows json shapes and enum strings. */
type Models = typeof data.models;

export const GST_RATES = ['0', '5', '12', '18', '28'];
export const FALLBACK_RATE = '18';

export type TaxConfigRow = RowOf<Models['TaxConfig'], { hsn_codes: string[] }>;

export type RateSource = 'override' | 'hsn' | 'default' | 'fallback';

export interface TaxResult {
  rate: string;
  cgst: string;
  sgst: string;
  igst: string;
  total_tax: string;
  rate_source: RateSource;
}

/** "18", "18.0", "18.00", 18 → "18"; refuses rates GST does not have. */
export function gstRate(value: unknown, field: string): string {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(text)) throw invalid(field, `The ${field} must be one of the GST rates ${GST_RATES.join(', ')}.`);
  const normal = new D(text).toString();
  if (!GST_RATES.includes(normal)) throw invalid(field, `The ${field} must be one of the GST rates ${GST_RATES.join(', ')}.`);
  return normal;
}

/** The GST configurations, oldest first. */
export const gstConfigs = (db: Db | DbTransaction) => db.find<TaxConfigRow>('TaxConfig', { where: { type: 'gst' }, order: [['id', 'ASC']], limit: 1000 });

/**
 * The rate for an HSN code by the four-step lookup. `configs` gives the GST configurations (an
 * order create passes its cached copy, ./definition-cache.ts); it is not called for an override.
 */
export async function lookupRate(
  configs: () => Promise<TaxConfigRow[]>, hsn: string | null | undefined, override?: unknown,
): Promise<{ rate: string; source: RateSource; config_id?: number }> {
  if (override !== undefined && override !== null && override !== '') return { rate: gstRate(override, 'rate_override'), source: 'override' };
  const all = await configs();
  if (hsn) {
    const match = all.find((c) => Array.isArray(c.hsn_codes) && c.hsn_codes.map(String).includes(String(hsn)));
    if (match) return { rate: new D(match.rate).toString(), source: 'hsn', config_id: match.id };
  }
  const def = all.find((c) => c.is_default);
  if (def) return { rate: new D(def.rate).toString(), source: 'default', config_id: def.id };
  return { rate: FALLBACK_RATE, source: 'fallback' };
}

/** The tax on a taxable amount at a rate, intra-state (same_state) or inter-state. */
export function computeTax(amount: Dec, rate: string, sameState: boolean): { cgst: Dec; sgst: Dec; igst: Dec; total: Dec } {
  const r = new D(rate);
  if (sameState) {
    const half = new D(str(amount.times(r).div(200)));
    return { cgst: half, sgst: half, igst: new D(0), total: half.plus(half) };
  }
  const igst = new D(str(amount.times(r).div(100)));
  return { cgst: new D(0), sgst: new D(0), igst, total: igst };
}

export function taxResult(amount: Dec, rate: string, sameState: boolean, source: RateSource): TaxResult {
  const t = computeTax(amount, rate, sameState);
  return { rate, cgst: str(t.cgst), sgst: str(t.sgst), igst: str(t.igst), total_tax: str(t.total), rate_source: source };
}
