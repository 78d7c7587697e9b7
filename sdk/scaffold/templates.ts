/**
 * The files `mandi module init` writes: a module that builds, packs and passes its own test as is,
 * showing the pieces every module has (an operation with schemas, a permission, a route, a handler
 * using ctx.host, a test on the real sandbox).
 */
import semver from 'semver';
import { PLATFORM_VERSION } from '../manifest/compatibility';

export interface TemplateInput {
  name: string;
  /** Import specifier of the sdk from src/ (relative until the sdk is published as @mandi/sdk). */
  sdkImport: string;
  /** Import specifier of sdk/test-host from test/. */
  testHostImport: string;
  /** Path of manifest.schema.json from the module folder, for editor completion. */
  schemaPath: string;
  /** Path of the repository's tsconfig.json from the module folder. */
  baseTsconfig: string;
  /** Folder holding both the module and the sdk, from the module folder (tsc's rootDir). */
  rootDir: string;
  /** The repository's node_modules/@types from the module folder (jest and node globals). */
  typeRoots: string;
}

export function moduleJson(t: TemplateInput): string {
  const manifest = {
    $schema: t.schemaPath,
    name: t.name,
    version: '0.1.0',
    description: `The ${t.name} module.`,
    compatibility: { platform: `^${semver.major(PLATFORM_VERSION)}.0.0` },
    main: 'dist/index.js',
    api: {
      provides: [
        {
          name: `${t.name}.hello`,
          description: 'Greets someone by name.',
          permission: `${t.name}.view`,
          input: {
            type: 'object',
            properties: { who: { type: 'string', minLength: 1, maxLength: 100 } },
            required: ['who'],
            additionalProperties: false,
          },
          output: {
            type: 'object',
            properties: { message: { type: 'string' }, at: { type: 'string', format: 'date-time' } },
            required: ['message', 'at'],
          },
        },
      ],
      consumes: [],
    },
    permissions: [{ name: `${t.name}.view`, description: `Use the ${t.name} module.` }],
    http: {
      routes: [{ method: 'GET', path: `/${t.name}/hello`, operation: `${t.name}.hello`, permission: `${t.name}.view` }],
    },
    limits: { memory_mb: 64, timeout_ms: 2000 },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

export function indexTs(t: TemplateInput): string {
  return `import { defineModule } from '${t.sdkImport}';

interface HelloInput {
  who: string;
}

export default defineModule({
  operations: {
    // ${t.name}.hello: the bus has already checked the input against module.json.
    async hello(input: HelloInput, ctx) {
      ctx.host.log.info('greeting', { who: input.who, tenant: ctx.tenantId });
      return { message: \`Hello, \${input.who}!\`, at: new Date(ctx.host.now()).toISOString() };
    },
  },
});
`;
}

export function testTs(t: TemplateInput): string {
  return `import path from 'node:path';
import { createTestHost } from '${t.testHostImport}';

// Runs the built module in the real sandbox against a real database, as the platform will.
describe('${t.name} module', () => {
  it('answers ${t.name}.hello', async () => {
    const host = await createTestHost({ modulePath: path.resolve(__dirname, '..') });
    try {
      const out = await host.call('${t.name}.hello', { who: 'Ada' });
      expect(out).toMatchObject({ message: 'Hello, Ada!' });
    } finally {
      await host.close();
    }
  });
});
`;
}

/** `tsc -p <module>` type-checks the module with the repository's settings, wherever it lives. */
export function tsconfigJson(t: TemplateInput): string {
  const config = {
    extends: t.baseTsconfig,
    compilerOptions: { noEmit: true, rootDir: t.rootDir, typeRoots: [t.typeRoots] },
    include: ['src', 'test'],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

export const GITIGNORE = 'dist/\n*.tgz\n';
