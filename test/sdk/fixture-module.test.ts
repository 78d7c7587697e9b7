/**
 * sdk/testing's fixture modules in the declared form (defineFixtureModule: src/index.ts built by
 * `mandi module build`) and stand-ins for consumed operations (a real bus registration, core/testing).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createTestHost, defineFixtureModule, type TestHost } from '../../sdk/testing';

const QUOTER = `import { defineModule, operation, Type } from '@mandi/sdk';
export default defineModule({
  name: 'quoter',
  version: '1.0.0',
  compatibility: { platform: '^2.0.0' },
  consumes: ['stock.level'],
  operations: {
    quote: operation({
      description: 'A quote from the stock level',
      graphql_expose: false,
      input: Type.Object({ sku: Type.String() }),
      output: Type.Object({ sku: Type.String(), available: Type.Boolean() }),
      async handler(input, ctx) {
        const level = (await ctx.host.call('stock.level', { sku: input.sku })) as { on_hand: number };
        return { sku: input.sku, available: level.on_hand > 0 };
      },
    }),
  },
});`;

let host: TestHost;
let dir: string;
beforeAll(async () => {
  ({ dir } = await defineFixtureModule(QUOTER));
  host = await createTestHost({ modulePath: dir, build: false });
}, 90_000);
afterAll(() => host?.close());

describe('sdk testing: declared fixtures and stand-ins', () => {
  it('builds module.json from the declarations', async () => {
    const manifest = JSON.parse(await readFile(path.join(dir, 'module.json'), 'utf8'));
    expect(manifest.name).toBe('quoter');
    expect(manifest.api.consumes).toEqual(['stock.level']);
    expect(manifest.api.provides.map((p: { name: string }) => p.name)).toEqual(['quoter.quote']);
  });

  it('a stand-in answers the consumed operation through the bus, and removing it leaves the operation unknown', async () => {
    const seen: unknown[] = [];
    const remove = host.standIn('stock.level', (input) => {
      seen.push(input);
      return { on_hand: 3 };
    });
    try {
      await expect(host.call('quoter.quote', { sku: 'A1' })).resolves.toEqual({ sku: 'A1', available: true });
      expect(seen).toEqual([{ sku: 'A1' }]);
    } finally {
      remove();
    }
    await expect(host.call('quoter.quote', { sku: 'A1' })).rejects.toThrow();
  });

  it('a module that does not consume the stood-in operation is refused it', async () => {
    const remove = host.standIn('stock.level', () => ({ on_hand: 1 }));
    try {
      await expect(host.call('stock.level', { sku: 'A1' }, { asModule: 'stranger' })).rejects.toMatchObject({ code: expect.any(String) });
    } finally {
      remove();
    }
  });
});
