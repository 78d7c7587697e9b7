import fs from 'node:fs';
import { errorCatalogs } from '../../core/kernel/errors';
import { busErrors } from '../../core/kernel/bus/errors';
import { moduleErrorCatalogs, type ErrorCatalog } from '../../sdk/runtime/errors';
import { ERROR_REFERENCE, loadCatalogs, renderErrorReference } from '../../scripts/gen-error-reference';

describe('error catalogs and their reference (spec 1: Errors)', () => {
  beforeAll(loadCatalogs);

  it('docs/reference/error-codes.md is what the catalogs generate', () => {
    expect(fs.readFileSync(ERROR_REFERENCE, 'utf8')).toBe(renderErrorReference());
  });

  /** Codes given more than one HTTP status by the catalogs. */
  const splitStatuses = (catalogs: readonly ErrorCatalog[]) => {
    const statuses = new Map<string, Set<number>>();
    for (const c of catalogs) for (const e of c.entries) (statuses.get(e.code) ?? statuses.set(e.code, new Set()).get(e.code)!).add(e.status);
    return [...statuses].filter(([, s]) => s.size > 1).map(([code, s]) => `${code}: ${[...s].join(', ')}`);
  };
  const meant = (catalogs: readonly ErrorCatalog[]) => new Set(catalogs.flatMap((c) => c.entries.filter((e) => e.doc).map((e) => e.code)));

  it('gives each code one HTTP status in every catalog of the platform', () => {
    expect(splitStatuses(errorCatalogs())).toEqual([]);
  });

  it("gives each module's code one status, and a platform code the platform's status", () => {
    expect(moduleErrorCatalogs().map((c) => c.area)).toEqual(expect.arrayContaining(['orders', 'ai', 'live-chat', 'loyalty', 'reseller-orders']));
    const platform = new Set(errorCatalogs().flatMap((c) => c.entries.map((e) => e.code)));
    for (const m of moduleErrorCatalogs()) {
      const shared = errorCatalogs().map((c) => ({ ...c, entries: c.entries.filter((e) => m.entries.some((x) => x.code === e.code)) }));
      expect({ area: m.area, split: splitStatuses([m, ...shared]) }).toEqual({ area: m.area, split: [] });
      // A module's own code says what it means; a platform code it reuses means what the platform's does.
      const own = meant([m]);
      expect({ area: m.area, unexplained: m.entries.filter((e) => !own.has(e.code) && !platform.has(e.code)).map((e) => e.code) }).toEqual({ area: m.area, unexplained: [] });
    }
  });

  it('says what every code means, once, in the catalog that owns it', () => {
    const explained = meant(errorCatalogs());
    const codes = new Set(errorCatalogs().flatMap((c) => c.entries.map((e) => e.code)));
    expect([...codes].filter((code) => !explained.has(code))).toEqual([]);
  });

  it("lists each module's catalog in its own section of the reference", () => {
    const page = renderErrorReference();
    const orders = page.slice(page.indexOf('### orders'));
    expect(orders).toMatch(/^### orders\n\n\| code \| status \| meaning \|/);
    expect(orders.slice(0, orders.indexOf('\n### ', 1))).toContain('| `UNKNOWN_CARRIER` | 422 |');
  });

  it('makes errors with the code, status, message and details of their entry', () => {
    const err = busErrors.providerAmbiguous('payment.createLink', 'payment', ['razorpay', 'stripe']);
    expect(err).toMatchObject({ code: 'PROVIDER_AMBIGUOUS', status: 422, details: { operation: 'payment.createLink', contract: 'payment', candidates: ['razorpay', 'stripe'] } });
    expect(err.message).toContain('(razorpay, stripe)');
    const entry = errorCatalogs().find((c) => c.area === 'bus')!.entries.find((e) => e.name === 'providerAmbiguous')!;
    expect({ code: entry.code, status: entry.status }).toEqual({ code: err.code, status: err.status });
  });
});
