/**
 * DESIGN "Contracts in code": a consumer's types of another module come from that module's manifest
 * (`mandi module types`), never from a hand copy. loyalty's committed types of orders are what the
 * command writes from modules/orders, typing only what loyalty's api.consumes names, and the command
 * reads a published manifest from a real platform's registry. The CLI runs in a child process: json-schema-to-typescript formats with
 * prettier, which cannot load inside jest's module system.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OrdersOperations } from '../../modules/loyalty/src/generated/orders';
import { typedCall } from '../../sdk';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

const ROOT = path.resolve(__dirname, '../..');
const LOYALTY_TYPES = 'modules/loyalty/src/generated/orders.ts';
const REFRESH = `mandi module types orders@^1.0.0 --from modules/orders --for modules/loyalty --out ${LOYALTY_TYPES}`;

/** Runs the CLI as typed in `cwd` (async: this process may serve the platform meanwhile). */
const mandi = (args: string[], cwd: string, env: Record<string, string> = {}) =>
  new Promise<{ code: number; out: string; err: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'sdk/cli/main.ts'), ...args],
      { cwd: ROOT, env: { ...process.env, INIT_CWD: cwd, ...env }, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr }),
    );
  });

/** A consuming module's module.json in `dir`, consuming `consumes`. */
const writeConsumer = (dir: string, consumes: string[]) => {
  writeFileSync(path.join(dir, 'index.js'), '');
  writeFileSync(path.join(dir, 'module.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', compatibility: { platform: '^2.0.0' }, main: 'index.js', api: { consumes } }));
};

/** The generated text below the header (which names the command that made it). */
const body = (text: string) => text.slice(text.indexOf('refresh with:')).split('\n').slice(2).join('\n');

describe('DESIGN Contracts in code: consumer types generated from a manifest', () => {
  it(`${LOYALTY_TYPES} is what \`mandi module types\` writes from modules/orders`, async () => {
    expect(readFileSync(path.join(ROOT, LOYALTY_TYPES), 'utf8')).toContain(`refresh with:\n *   ${REFRESH}\n`);
    const check = await mandi([...REFRESH.split(' ').slice(1), '--check'], ROOT);
    expect(check.err).toBe('');
    expect(check.code).toBe(0);
  });

  it('--check fails on a stale file and names the command that refreshes it; a version outside the range is refused', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mandi-types-'));
    const orders = path.relative(dir, path.join(ROOT, 'modules/orders'));
    const stale = readFileSync(path.join(ROOT, LOYALTY_TYPES), 'utf8').replace('customer_id: string | null;', 'customer_id: string;');
    writeFileSync(path.join(dir, 'orders.ts'), stale);
    writeConsumer(dir, ['orders.get']);
    const check = await mandi(['module', 'types', 'orders@^1.0.0', '--from', orders, '--out', 'orders.ts', '--check'], dir);
    expect(check.code).toBe(1);
    expect(check.err).toMatch(/✖ orders\.ts is out of date with orders@1\.\d+\.\d+: run mandi module types orders@\^1\.0\.0 --from \S+ --out orders\.ts/);
    expect(readFileSync(path.join(dir, 'orders.ts'), 'utf8')).toBe(stale);

    const outside = await mandi(['module', 'types', 'orders@^9.0.0', '--from', orders, '--all'], dir);
    expect(outside.code).toBe(1);
    expect(outside.err).toMatch(/✖ orders@1\.\d+\.\d+ in \S+ is not in \^9\.0\.0/);
  });

  it("types only the consumer's api.consumes: a consumer is required (or --all), and a consumed operation the provider lacks is refused", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mandi-types-'));
    const orders = path.relative(dir, path.join(ROOT, 'modules/orders'));
    const none = await mandi(['module', 'types', 'orders', '--from', orders], dir);
    expect(none.code).toBe(2);
    expect(none.err).toContain('no module.json in');
    expect(none.err).toContain('--all');

    const consumer = (consumes: string[]) => writeConsumer(dir, consumes);
    consumer(['orders.get', 'orders.list']);
    const two = await mandi(['module', 'types', 'orders', '--from', orders], dir);
    expect(two.err).toBe('');
    expect(two.out).toMatch(/✔ wrote src\/generated\/orders\.ts: 2 operation\(s\) of orders@/);
    const text = readFileSync(path.join(dir, 'src/generated/orders.ts'), 'utf8');
    expect(text.match(/^ {2}'orders\.[A-Za-z0-9_]+': \{$/gm)!.sort()).toEqual(["  'orders.get': {", "  'orders.list': {"]);

    consumer(['orders.get', 'orders.nope']);
    const missing = await mandi(['module', 'types', 'orders', '--from', orders], dir);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/✖ orders@1\.\d+\.\d+ provides no orders\.nope/);

    consumer(['orders.*']);
    const all = await mandi(['module', 'types', 'orders', '--from', orders, '--out', 'all.ts'], dir);
    const every = await mandi(['module', 'types', 'orders', '--from', orders, '--all', '--out', 'every.ts'], dir);
    expect(all.code).toBe(0);
    expect(every.code).toBe(0);
    const ops = (file: string) => readFileSync(path.join(dir, file), 'utf8').match(/^ {2}'orders\.[A-Za-z0-9_]+': \{$/gm)!.length;
    expect(ops('all.ts')).toBe(JSON.parse(readFileSync(path.join(ROOT, 'modules/orders/module.json'), 'utf8')).api.provides.length);
    expect(ops('every.ts')).toBe(ops('all.ts'));
  });
});

describe('DESIGN Contracts in code: typedCall types host.call by a generated operation map', () => {
  it('passes the call through; the operation name picks the input and output types (checked by npm run typecheck)', async () => {
    const calls: unknown[][] = [];
    const host = { call: async (operation: string, input?: unknown) => (calls.push([operation, input]), { id: 'o1', customer_id: null }) as never };
    const orders = typedCall<OrdersOperations>(host);
    const order = await orders('orders.get', { id: 'o1' });
    const customer: string | null = order.customer_id;
    expect(customer).toBeNull();
    expect(calls).toEqual([['orders.get', { id: 'o1' }]]);
    // @ts-expect-error -- orders.get takes {id}
    await orders('orders.get', { order_id: 'o1' });
    // @ts-expect-error -- orders has no operation orders.nope
    await orders('orders.nope', {});
    // @ts-expect-error -- orders has orders.list, but loyalty does not consume it, so it is not typed
    await orders('orders.list', {});
    // @ts-expect-error -- orders.get's output has no field nope
    void order.nope;
  });
});

describe('DESIGN Contracts in code: mandi module types reads the published manifest from the registry', () => {
  let tp: TestPlatform;
  let env: Record<string, string>;
  let work: string;

  beforeAll(async () => {
    tp = await startTestPlatform({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'mandi-data-')) });
    env = { MANDI_URL: tp.url, MANDI_TOKEN: (await tp.install('acme')).token };
    work = mkdtempSync(path.join(os.tmpdir(), 'mandi-consumer-'));
    mkdirSync(path.join(work, 'src'));
  }, 120_000);
  afterAll(() => tp?.close());

  it('writes src/generated/orders.ts from the newest published version in the range', async () => {
    const published = await mandi(['module', 'publish', path.join(ROOT, 'modules/orders')], work, env);
    expect(published.err).toBe('');
    expect(published.code).toBe(0);

    const written = await mandi(['module', 'types', 'orders@^1.0.0', '--for', path.join(ROOT, 'modules/loyalty')], work, env);
    expect(written.err).toBe('');
    expect(written.code).toBe(0);
    expect(written.out).toMatch(/✔ wrote src\/generated\/orders\.ts: \d+ operation\(s\) of orders@1\.\d+\.\d+/);
    const text = readFileSync(path.join(work, 'src/generated/orders.ts'), 'utf8');
    expect(text).toContain(`refresh with:\n *   mandi module types orders@^1.0.0 --for ${path.relative(work, path.join(ROOT, 'modules/loyalty'))} --out src/generated/orders.ts\n`);
    // The published manifest gives the same types as the module folder loyalty's were made from.
    expect(body(text)).toBe(body(readFileSync(path.join(ROOT, LOYALTY_TYPES), 'utf8')));
    expect((await mandi(['module', 'types', 'orders@^1.0.0', '--for', path.join(ROOT, 'modules/loyalty'), '--check'], work, env)).code).toBe(0);

    const none = await mandi(['module', 'types', 'orders@^2.0.0', '--all'], work, env);
    expect(none.code).toBe(1);
    expect(none.err).toContain('✖ no published version of orders is in ^2.0.0');
    const unknown = await mandi(['module', 'types', 'nosuch', '--all'], work, env);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('NOT_FOUND');
  }, 180_000);
});
