/**
 * GSTINs and GST state codes (Rule 46 of the CGST Rules: supplier and recipient GSTIN, place of
 * supply with state name and code).
 *
 * A GSTIN is 15 characters: the 2-digit state code, the holder's PAN (5 letters, 4 digits, 1
 * letter), the entity number (1-9, A-Z), a letter (Z for ordinary taxpayers) and a check character,
 * the mod-36 Luhn sum of the first 14 over 0-9A-Z.
 */
import { invalid } from './errors';

/** GST state and union territory codes, as the GST portal lists them (25: registrations from before Daman and Diu joined 26). */
export const STATE_CODES: Record<string, string> = {
  '01': 'Jammu and Kashmir', '02': 'Himachal Pradesh', '03': 'Punjab', '04': 'Chandigarh', '05': 'Uttarakhand', '06': 'Haryana', '07': 'Delhi',
  '08': 'Rajasthan', '09': 'Uttar Pradesh', '10': 'Bihar', '11': 'Sikkim', '12': 'Arunachal Pradesh', '13': 'Nagaland', '14': 'Manipur',
  '15': 'Mizoram', '16': 'Tripura', '17': 'Meghalaya', '18': 'Assam', '19': 'West Bengal', '20': 'Jharkhand', '21': 'Odisha', '22': 'Chhattisgarh',
  '23': 'Madhya Pradesh', '24': 'Gujarat', '25': 'Daman and Diu', '26': 'Dadra and Nagar Haveli and Daman and Diu', '27': 'Maharashtra', '29': 'Karnataka', '30': 'Goa',
  '31': 'Lakshadweep', '32': 'Kerala', '33': 'Tamil Nadu', '34': 'Puducherry', '35': 'Andaman and Nicobar Islands', '36': 'Telangana',
  '37': 'Andhra Pradesh', '38': 'Ladakh', '97': 'Other Territory',
};

const squash = (s: string) => s.toLowerCase().replace(/&/g, 'and').replace(/[^a-z]/g, '');
const BY_NAME = new Map(Object.entries(STATE_CODES).map(([code, name]) => [squash(name), code]));
// Other names addresses use: former names, and the two-letter abbreviations (MH, KA, TN, …).
const ALIASES = 'Orissa:21,Pondicherry:34,New Delhi:07,Dadra and Nagar Haveli:26,JK:01,HP:02,PB:03,CH:04,UK:05,UT:05,HR:06,DL:07,RJ:08,UP:09,BR:10,SK:11,AR:12,NL:13,MN:14,'
  + 'MZ:15,TR:16,ML:17,AS:18,WB:19,JH:20,OD:21,OR:21,CG:22,CT:22,MP:23,GJ:24,DD:25,DN:26,MH:27,KA:29,GA:30,LD:31,KL:32,TN:33,PY:34,AN:35,TS:36,TG:36,AP:37,LA:38';
for (const pair of ALIASES.split(',')) {
  const [alias, code] = pair.split(':') as [string, string];
  BY_NAME.set(squash(alias), code);
}

/** A state given by name (any case, "&" for "and") or by its 2-digit code; null when unknown. */
export function gstState(value: unknown): { code: string; name: string } | null {
  if (typeof value !== 'string' || !value.trim()) return null;
  const v = value.trim();
  const code = /^\d{1,2}$/.test(v) ? v.padStart(2, '0') : BY_NAME.get(squash(v));
  return code && STATE_CODES[code] ? { code, name: STATE_CODES[code] } : null;
}

const CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const SHAPE = /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z][A-Z][0-9A-Z]$/;

function checkCharacter(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const product = CHARS.indexOf(first14[i]!) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return CHARS[(36 - (sum % 36)) % 36]!;
}

/** A GSTIN as typed, in the form it is checked and stored in: spaces removed, upper-cased. */
export const normalGstin = (value: unknown): string => String(value).replace(/\s+/g, '').toUpperCase();

/** Why a GSTIN is not one, or null when it is (normalised first: normalGstin). */
export function gstinProblem(gstin: string): string | null {
  if (gstin.length !== 15) return 'must be 15 characters';
  if (!SHAPE.test(gstin)) return 'must be a 2-digit state code, a PAN (5 letters, 4 digits, 1 letter), an entity number, a letter and a check character';
  if (!STATE_CODES[gstin.slice(0, 2)]) return `starts with ${gstin.slice(0, 2)}, which is not a GST state code`;
  if (checkCharacter(gstin) !== gstin[14]) return 'has a wrong check character (a typing mistake?)';
  return null;
}

/** A GSTIN field of a request: normalised, or a 422 on that field. Empty means none. */
export function parseGstin(value: unknown, field: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  const gstin = normalGstin(value);
  const problem = gstinProblem(gstin);
  if (problem) throw invalid(field, `The GSTIN ${problem}.`);
  return gstin;
}
