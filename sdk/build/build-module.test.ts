import { mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { ManifestError } from '../manifest/issues';
import { BuildError, buildModule } from './build-module';
import { declaredManifest } from './declared-manifest';

const SDK = path.resolve(__dirname, '..');

const manifest = (extra: Record<string, unknown> = {}) => ({
  name: 'points',
  version: '1.0.0',
  compatibility: { platform: '^2.0.0' },
  api: { provides: [{ name: 'points.balance', description: 'Balance of a customer', permission: 'points.view' }] },
  permissions: [{ name: 'points.view', description: 'See balances' }],
  ...extra,
});

async function moduleDir(source: string, extra?: Record<string, unknown>, files: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mandi-build-'));
  await mkdir(path.join(dir, 'src'));
  await writeFile(path.join(dir, 'module.json'), JSON.stringify(manifest(extra)));
  await writeFile(path.join(dir, 'src/index.ts'), source.replace('@mandi/sdk', path.relative(path.join(dir, 'src'), SDK)));
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  return dir;
}

const GOOD = `import { defineModule } from '@mandi/sdk';
import { double } from './math';
export default defineModule({
  operations: { balance: async (input: { n: number }) => ({ points: double(input.n) }) },
  events: { 'orders.paid': async () => {} },
});`;

describe('issue 3 item 7: mandi module build bundles one script for the isolate', () => {
  it('writes an es2022 iife defining __mandi_module at the manifest main, with relative imports inlined', async () => {
    const dir = await moduleDir(GOOD, { main: 'out/points.js', events: { subscribes: ['orders.paid'] } }, {
      'src/math.ts': 'export const double = (n: number): number => n * 2;',
    });
    const result = await buildModule(dir);
    expect(result.outfile).toBe(path.join(dir, 'out/points.js'));
    expect(result.warnings).toEqual([]);
    const code = await readFile(result.outfile, 'utf8');
    expect(code.startsWith('var __mandi_module = (() => {')).toBe(true);
    expect(code).not.toMatch(/\brequire\(|\bimport\b/);

    // Run it as the sandbox does: a plain script with no Node globals.
    const context = vm.createContext({});
    vm.runInContext(code, context);
    const mod = (context as { __mandi_module: { default: { operations: Record<string, (i: unknown) => Promise<unknown>> } } })
      .__mandi_module.default;
    await expect(mod.operations.balance({ n: 21 })).resolves.toEqual({ points: 42 });
  });

  it('refuses an invalid hand-written manifest, listing every error', async () => {
    const dir = await moduleDir(GOOD, { version: 'x', api: { provides: [{ name: 'other.balance', description: 'd', graphql_expose: false }] } }, {
      'src/math.ts': 'export const double = (n: number): number => n * 2;',
    });
    const err = (await buildModule(dir).catch((e: unknown) => e)) as ManifestError;
    expect(err).toBeInstanceOf(ManifestError);
    expect(err.errors.map((e) => e.pointer)).toEqual(['/api/provides/0/name', '/version']);
  });

  it('fails when a provided operation or subscribed event has no handler, and notes stray handlers', async () => {
    const dir = await moduleDir(
      `export default { operations: { other: () => 1 }, events: { 'orders.created': () => {} } };`,
      { events: { subscribes: ['orders.paid'] } },
    );
    const err = (await buildModule(dir).catch((e: unknown) => e)) as BuildError;
    expect(err).toBeInstanceOf(BuildError);
    expect(err.problems).toEqual([
      'api.provides declares points.balance but the module exports no operations.balance handler',
      'events.subscribes lists orders.paid but the module exports no events["orders.paid"] handler',
    ]);
  });

  it('notes handlers that nothing can reach', async () => {
    const dir = await moduleDir(`export default { operations: { balance: () => 1, extra: () => 2 } };`);
    expect((await buildModule(dir)).warnings).toEqual(['operations.extra is not in api.provides, so nothing can call it']);
  });

  it('fails when the bundle cannot load without Node globals', async () => {
    const dir = await moduleDir(`const home = process.env.HOME;\nexport default { operations: { balance: () => home } };`);
    const err = (await buildModule(dir).catch((e: unknown) => e)) as BuildError;
    expect(err.problems).toEqual([expect.stringMatching(/^the bundle does not load: process is not defined/)]);
  });

  it('fails clearly when src/index.ts is missing or does not compile', async () => {
    const dir = await moduleDir(GOOD);
    await expect(buildModule(dir, { entry: 'src/main.ts' })).rejects.toThrow(/src\/main\.ts not found/);
    await writeFile(path.join(dir, 'src/index.ts'), 'export default {');
    const err = (await buildModule(dir).catch((e: unknown) => e)) as BuildError;
    expect(err.problems[0]).toMatch(/^src\/index\.ts:1:\d+: /);
  });
});

describe('DESIGN Sandbox: nothing of Node reaches module code', () => {
  it.each([
    ['fs', `import { readFileSync } from 'fs'; const use = readFileSync;`],
    ['node:crypto', `import { randomUUID } from 'node:crypto'; const use = randomUUID;`],
    ['child_process', `const use = require('child_process');`],
    ['fs/promises', `import * as fsp from 'fs/promises'; const use = fsp;`],
  ])('refuses an import of the Node builtin %p, naming the file and line', async (builtin, line) => {
    const dir = await moduleDir(`${line}\nexport default { operations: { balance: () => use } };`);
    const err = (await buildModule(dir).catch((e: unknown) => e)) as BuildError;
    expect(err).toBeInstanceOf(BuildError);
    expect(err.problems).toEqual([
      expect.stringMatching(
        new RegExp(`^src/index\\.ts:1:\\d+: imports the Node\\.js builtin "${builtin}", which does not exist in the module sandbox; use ctx\\.host`),
      ),
    ]);
  });

  it('refuses a builtin imported by a dependency too', async () => {
    const dir = await moduleDir(`import { hash } from 'hasher';\nexport default { operations: { balance: () => hash('x') } };`, {}, {
      'node_modules/hasher/package.json': JSON.stringify({ name: 'hasher', main: 'index.js' }),
      'node_modules/hasher/index.js': `const crypto = require('crypto'); exports.hash = (s) => crypto.createHash('sha1').update(s).digest('hex');`,
    });
    const err = (await buildModule(dir).catch((e: unknown) => e)) as BuildError;
    expect(err.problems).toEqual([expect.stringMatching(/^node_modules\/hasher\/index\.js:1:\d+: imports the Node\.js builtin "crypto"/)]);
  });

  it('bundles an installed package that shares a builtin name (a polyfill)', async () => {
    const dir = await moduleDir(`import { tag } from 'events';\nexport default { operations: { balance: () => tag } };`, {}, {
      'node_modules/events/package.json': JSON.stringify({ name: 'events', main: 'events.js' }),
      'node_modules/events/events.js': `exports.tag = 'polyfill';`,
    });
    const result = await buildModule(dir);
    expect(await readFile(result.outfile, 'utf8')).toContain('polyfill');
  });
});

const DECLARED = `import { defineModule, operation, Type } from '@mandi/sdk';
export default defineModule({
  name: 'points',
  version: '1.2.0',
  description: 'Points',
  compatibility: { platform: '^2.0.0' },
  permissions: [{ name: 'points.view', description: 'See balances' }],
  consumes: ['orders.get'],
  operations: {
    balance: operation({
      description: 'Balance of a customer',
      permission: 'points.view',
      input: Type.Object({ n: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
      output: Type.Object({ points: Type.Integer(), note: Type.Nullable(Type.String()) }),
      http: { method: 'GET', path: '/points/:n', permission: 'points.view' },
      related: true,
      handler: async (input) => ({ points: input.n * 2, note: null }),
    }),
  },
  events: { publishes: ['points.changed'], subscribes: { 'orders.paid': async () => {} } },
  limits: { memory_mb: 32, timeout_ms: 1000 },
});`;

/** A module folder holding only src/index.ts: module.json is the build's to write. */
async function declaredDir(source = DECLARED): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mandi-declared-'));
  await mkdir(path.join(dir, 'src'));
  await writeFile(path.join(dir, 'src/index.ts'), source.replace('@mandi/sdk', path.relative(path.join(dir, 'src'), SDK)));
  return dir;
}

describe('DESIGN Contracts in code: mandi module build writes module.json from the declarations', () => {
  it('writes the manifest the declarations give, schemas as plain JSON Schema, and a bundle serving them', async () => {
    const dir = await declaredDir();
    const result = await buildModule(dir);
    expect(result).toMatchObject({ declared: true, manifestWritten: true, warnings: [] });
    expect(JSON.parse(await readFile(path.join(dir, 'module.json'), 'utf8'))).toEqual({
      name: 'points',
      version: '1.2.0',
      description: 'Points',
      compatibility: { platform: '^2.0.0' },
      api: {
        provides: [
          {
            name: 'points.balance',
            description: 'Balance of a customer',
            permission: 'points.view',
            input: { type: 'object', properties: { n: { type: 'integer', minimum: 0 } }, required: ['n'], additionalProperties: false },
            output: {
              type: 'object',
              properties: { points: { type: 'integer' }, note: { type: ['string', 'null'] } },
              required: ['points', 'note'],
            },
          },
        ],
        consumes: ['orders.get'],
        related: ['points.balance'],
      },
      events: { publishes: ['points.changed'], subscribes: ['orders.paid'] },
      http: { routes: [{ method: 'GET', path: '/points/:n', permission: 'points.view', operation: 'points.balance' }] },
      permissions: [{ name: 'points.view', description: 'See balances' }],
      limits: { memory_mb: 32, timeout_ms: 1000 },
    });

    const context = vm.createContext({});
    vm.runInContext(await readFile(result.outfile, 'utf8'), context);
    const mod = (context as { __mandi_module: { default: { operations: Record<string, (i: unknown) => Promise<unknown>> } } })
      .__mandi_module.default;
    await expect(mod.operations.balance({ n: 21 })).resolves.toEqual({ points: 42, note: null });

    expect((await buildModule(dir)).manifestWritten).toBe(false);
  });

  it('refuses declarations that give an invalid manifest, writing nothing', async () => {
    const dir = await declaredDir(DECLARED.replace("permission: 'points.view',\n      input", "permission: 'points.edit',\n      input"));
    const err = (await buildModule(dir).catch((e: unknown) => e)) as ManifestError;
    expect(err).toBeInstanceOf(ManifestError);
    expect(err.errors).toEqual([
      { pointer: '/api/provides/0/permission', message: '"points.edit" is not declared in permissions[]; declare it with a description' },
    ]);
    await expect(readFile(path.join(dir, 'module.json'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('with check, fails on a module.json that drifted from the declarations and writes nothing', async () => {
    const dir = await declaredDir();
    await buildModule(dir);
    await expect(buildModule(dir, { check: true })).resolves.toMatchObject({ declared: true, manifestWritten: false });

    const file = path.join(dir, 'module.json');
    const drifted = (await readFile(file, 'utf8')).replace('"version": "1.2.0"', '"version": "1.1.0"');
    await writeFile(file, drifted);
    const err = (await buildModule(dir, { check: true }).catch((e: unknown) => e)) as BuildError;
    expect(err).toBeInstanceOf(BuildError);
    expect(err.problems).toEqual(['module.json differs from the declarations in src/index.ts: run `mandi module build` and commit the module.json it writes']);
    expect(await readFile(file, 'utf8')).toBe(drifted);
  });
});

describe('a declared route checks its operation\'s permission unless it names its own', () => {
  it('writes the operation\'s permission into each authenticated route that leaves it out, after path; keeps a route\'s own; gives a public route none', () => {
    const doc = declaredManifest({
      name: 'points',
      operations: {
        balance: { permission: 'points.view', http: [{ method: 'GET', path: '/points/:n', success_status: 200 }, { method: 'GET', path: '/points/:n/audit', permission: 'points.audit' }] },
        hook: { open_to_members: 'a test', http: { method: 'POST', path: '/points/hook', public: true } },
        signed: { permission: 'points.view', http: { method: 'POST', path: '/points/signed', public: true } },
      },
    }) as { http: { routes: Array<Record<string, unknown>> } };
    expect(doc.http.routes.map((r) => Object.entries(r))).toEqual([
      Object.entries({ method: 'GET', path: '/points/:n', permission: 'points.view', success_status: 200, operation: 'points.balance' }),
      Object.entries({ method: 'GET', path: '/points/:n/audit', permission: 'points.audit', operation: 'points.balance' }),
      Object.entries({ method: 'POST', path: '/points/hook', public: true, operation: 'points.hook' }),
      Object.entries({ method: 'POST', path: '/points/signed', public: true, operation: 'points.signed' }),
    ]);
  });
});

describe('docs/decisions/console-pages.md: the browser pass bundles each console page', () => {
  const pages = { console: { pages: [{ path: 'board', label: 'Board', permission: 'points.view', entry: 'console/board.tsx' }] } };
  const SOURCE = `import { defineModule } from '@mandi/sdk';\nexport default defineModule({ operations: { balance: async () => ({ points: 1 }) } });`;

  it('writes dist/console/<name>.js: one browser script with its imports and Preact JSX inlined', async () => {
    const dir = await moduleDir(SOURCE, pages, {
      'console/board.tsx': `import { render } from 'preact';\nimport { title } from './title';\nrender(<h1>{title}</h1>, document.body);`,
      'console/title.ts': `export const title = 'The board';`,
    });
    // A module's own dependencies (here Preact) come from its node_modules, as a third party's would.
    await symlink(path.resolve(SDK, '..', 'node_modules'), path.join(dir, 'node_modules'));
    const result = await buildModule(dir);
    expect(result.consolePages).toEqual([path.join(dir, 'dist/console/board.js')]);
    const code = await readFile(path.join(dir, 'dist/console/board.js'), 'utf8');
    expect(code).toContain('The board');
    expect(code).not.toMatch(/\bimport\s|\brequire\(/);
  });

  it('refuses a page importing a Node built-in, or whose entry is missing, naming the page', async () => {
    const node = await moduleDir(SOURCE, pages, { 'console/board.tsx': `import { readFileSync } from 'node:fs';\ndocument.title = String(readFileSync);` });
    await expect(buildModule(node)).rejects.toThrow(/console page "board": .*node:fs.*a browser does not have/);
    const missing = await moduleDir(SOURCE, pages);
    await expect(buildModule(missing)).rejects.toThrow(/console page "board": console\/board.tsx not found/);
  });
});

describe('spec 2 Node registry: a workflow node declared on its operation', () => {
  it('becomes a workflow.nodes entry after the declared ones, its config schema the operation\'s input less the keys taken from the node\'s input', () => {
    const input = { type: 'object', additionalProperties: false, required: ['id', 'points'], properties: { id: { type: 'string' }, points: { type: 'integer', minimum: 1 } } };
    const trigger = { type: 'points:awarded', name: 'Points awarded', category: 'trigger', description: 'Starts on an award.', event: 'points.awarded' };
    const doc = declaredManifest({
      name: 'points',
      workflow: { nodes: [trigger] },
      operations: {
        award: { permission: 'points.manage', input, output: { type: 'object' }, node: { slug: 'award', name: 'Award points', category: 'action', description: 'Awards points.', icon: 'star', from_input: ['id'] } },
        balance: { permission: 'points.view', input: { type: 'object', properties: {} }, output: { type: 'object' } },
      },
    }) as { workflow: { nodes: Array<Record<string, unknown>> }; api: { provides: Array<Record<string, unknown>> } };
    expect(doc.workflow.nodes).toEqual([
      trigger,
      {
        type: 'points:award', name: 'Award points', category: 'action', description: 'Awards points.', operation: 'points.award', icon: 'star',
        configSchema: { type: 'object', properties: input.properties, required: ['points'] },
      },
    ]);
    // `node` is the build's, not the operation's: api.provides carries no trace of it.
    expect(doc.api.provides[0]).not.toHaveProperty('node');
  });
});
