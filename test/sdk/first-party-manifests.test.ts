/**
 * Every first-party module declared in TypeScript has its committed module.json exactly as
 * `mandi module build` writes it from the declarations (DESIGN "Contracts in code"): a declaration
 * changed without rebuilding, or module.json edited by hand, fails here.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { buildModule } from '../../sdk/build/build-module';

const MODULES = path.resolve(__dirname, '../../modules');
const declared = readdirSync(MODULES);

describe('DESIGN Contracts in code: first-party module.json files are generated from their declarations', () => {
  it('covers the declared modules', () => {
    expect(declared).toEqual(expect.arrayContaining(['loyalty', 'orders', 'payment-razorpay', 'sms-msg91', 'whatsapp-cloud']));
  });

  it.each(declared)('modules/%s/module.json matches its declarations, and every operation declares its output', async (name) => {
    const result = await buildModule(path.join(MODULES, name), { check: true });
    expect(result.declared).toBe(true);
    expect((result.manifest.api?.provides ?? []).filter((op) => op.output === undefined).map((op) => op.name)).toEqual([]);
  });
});
