/**
 * The tenant's business profile: the supplier printed on its tax invoices and credit notes (Rule 46
 * of the CGST Rules: name, address and GSTIN of the supplier; spec 3 leaves the route unshown).
 * `GET/PUT /order-settings/business-profile`; PUT merges the fields given and checks the whole
 * profile again, every problem in one 422. Kept in the settings table under `business_profile`.
 *
 * The profile's state is the supplier's location for GST: saving the profile also sets the
 * `seller_state` setting that decides intra- or inter-state supply (orders.ts), so the two never differ.
 */
import type { HandlerContext } from '../../../sdk';
import { ordersErrors } from './errors';
import { changingDefinitions } from './definition-cache';
import { gstinProblem, gstState, normalGstin } from './gstin';
import { getSetting, inTransaction, nowIso } from './store';

export type BusinessAddress = { line1: string; line2?: string; city: string; state: string; state_code: string; pincode: string; country: string };
export type BusinessProfile = {
  legal_name: string; trade_name?: string; gstin: string | null; address: BusinessAddress; email?: string; phone?: string; signatory?: string; updated_at?: string;
};

export const PROFILE_KEY = 'business_profile';

export const loadBusinessProfile = (db: HandlerContext['host']['db']) => getSetting<BusinessProfile | null>(db, PROFILE_KEY, null);

export async function getBusinessProfile(_input: unknown, ctx: HandlerContext) {
  return { business_profile: await loadBusinessProfile(ctx.host.db) };
}

type Input = Partial<Omit<BusinessProfile, 'address'>> & { address?: Partial<BusinessAddress> };
type FieldErrors = Record<string, string[]>;

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** The merged profile checked as a whole: normalised, or the list of every problem. */
function checked(merged: Input): { profile: BusinessProfile } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const bad = (field: string, message: string) => (errors[field] ??= []).push(message);
  const a = merged.address ?? {};
  const required = { legal_name: text(merged.legal_name), 'address.line1': text(a.line1), 'address.city': text(a.city), 'address.state': text(a.state), 'address.pincode': text(a.pincode) };
  for (const [field, value] of Object.entries(required)) if (!value) bad(field, `The ${field} is required on a tax invoice.`);
  const state = gstState(a.state);
  if (required['address.state'] && !state) bad('address.state', `"${required['address.state']}" is not an Indian state or union territory (name or GST state code).`);
  const pincode = required['address.pincode'];
  if (pincode && !/^[1-9]\d{5}$/.test(pincode)) bad('address.pincode', 'The PIN code must be 6 digits.');
  const gstin = merged.gstin ? normalGstin(merged.gstin) : null;
  if (gstin) {
    const problem = gstinProblem(gstin);
    if (problem) bad('gstin', `The GSTIN ${problem}.`);
    else if (state && gstin.slice(0, 2) !== state.code) bad('gstin', `The GSTIN is registered in state ${gstin.slice(0, 2)}, but the address is in ${state.name} (${state.code}).`);
  }
  if (Object.keys(errors).length) return { errors };
  const profile: BusinessProfile = {
    legal_name: required.legal_name,
    gstin,
    address: { line1: required['address.line1'], city: required['address.city'], state: state!.name, state_code: state!.code, pincode, country: text(a.country) || 'India' },
  };
  if (text(a.line2)) profile.address.line2 = text(a.line2);
  for (const k of ['trade_name', 'email', 'phone', 'signatory'] as const) if (text(merged[k])) profile[k] = text(merged[k]);
  return { profile };
}

export async function updateBusinessProfile(input: Input, ctx: HandlerContext) {
  const at = nowIso(ctx);
  const profile = await changingDefinitions(() => inTransaction(ctx.host.db, async (tx) => {
    const current = (await getSetting<BusinessProfile | null>(tx, PROFILE_KEY, null)) ?? {};
    const result = checked({ ...current, ...input, address: { ...(current as Input).address, ...input.address } });
    if ('errors' in result) {
      const count = Object.values(result.errors).flat().length;
      throw ordersErrors.invalidFields(count === 1 ? Object.values(result.errors)[0]![0]! : 'The given data was invalid.', result.errors);
    }
    const saved = { ...result.profile, updated_at: at };
    await tx.upsert('Setting', { key: PROFILE_KEY, value: saved });
    await tx.upsert('Setting', { key: 'seller_state', value: saved.address.state });
    return saved;
  }));
  return { business_profile: profile };
}
