import fs from 'node:fs';
import { errorCatalogs } from '../../core/kernel/errors';
import { busErrors } from '../../core/kernel/bus/errors';
import { ERROR_REFERENCE, loadCatalogs, renderErrorReference } from '../../scripts/gen-error-reference';

describe('error catalogs and their reference (spec 1: Errors)', () => {
  beforeAll(loadCatalogs);

  it('docs/reference/error-codes.md is what the catalogs generate', () => {
    expect(fs.readFileSync(ERROR_REFERENCE, 'utf8')).toBe(renderErrorReference());
  });

  it('gives each code one HTTP status in every catalog', () => {
    const statuses = new Map<string, Set<number>>();
    for (const c of errorCatalogs()) for (const e of c.entries) (statuses.get(e.code) ?? statuses.set(e.code, new Set()).get(e.code)!).add(e.status);
    const split = [...statuses].filter(([, s]) => s.size > 1).map(([code, s]) => `${code}: ${[...s].join(', ')}`);
    expect(split).toEqual([]);
  });

  it('says what every code means, once, in the catalog that owns it', () => {
    const meant = new Set(errorCatalogs().flatMap((c) => c.entries.filter((e) => e.doc).map((e) => e.code)));
    const codes = new Set(errorCatalogs().flatMap((c) => c.entries.map((e) => e.code)));
    expect([...codes].filter((code) => !meant.has(code))).toEqual([]);
  });

  it('makes errors with the code, status, message and details of their entry', () => {
    const err = busErrors.providerAmbiguous('payment.createLink', 'payment', ['razorpay', 'stripe']);
    expect(err).toMatchObject({ code: 'PROVIDER_AMBIGUOUS', status: 422, details: { operation: 'payment.createLink', contract: 'payment', candidates: ['razorpay', 'stripe'] } });
    expect(err.message).toContain('(razorpay, stripe)');
    const entry = errorCatalogs().find((c) => c.area === 'bus')!.entries.find((e) => e.name === 'providerAmbiguous')!;
    expect({ code: entry.code, status: entry.status }).toEqual({ code: err.code, status: err.status });
  });
});
