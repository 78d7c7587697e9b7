/**
 * The files `mandi module init` writes: a module that builds, packs and passes its own test as is,
 * showing the pieces every module has (an operation with schemas, a permission, a route, a handler
 * using ctx.host, a test on the real sandbox), declared in TypeScript: module.json is not written
 * here but by `mandi module build`, from the declarations.
 */
import semver from 'semver';
import { PLATFORM_VERSION } from '../manifest/compatibility';

export interface TemplateInput {
  name: string;
  /** Import specifier of the sdk from src/ (relative until the sdk is published as @mandi/sdk). */
  sdkImport: string;
  /** Import specifier of sdk/testing (@mandi/sdk/testing) from test/. */
  testHostImport: string;
  /** Path of the repository's tsconfig.json from the module folder. */
  baseTsconfig: string;
  /** Folder holding both the module and the sdk, from the module folder (tsc's rootDir). */
  rootDir: string;
  /** The repository's node_modules/@types from the module folder (jest and node globals). */
  typeRoots: string;
}

/** src/index.ts: the module declared in TypeScript; `mandi module build` writes module.json from it. */
export function indexTs(t: TemplateInput): string {
  return `import { defineModule, operation, Type } from '${t.sdkImport}';

export default defineModule({
  name: '${t.name}',
  version: '0.1.0',
  description: 'The ${t.name} module.',
  compatibility: { platform: '^${semver.major(PLATFORM_VERSION)}.0.0' },
  main: 'dist/index.js',
  permissions: [{ name: '${t.name}.view', description: 'Use the ${t.name} module.' }],
  operations: {
    hello: operation({
      description: 'Greets someone by name.',
      permission: '${t.name}.view',
      input: Type.Object({ who: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
      output: Type.Object({ message: Type.String(), at: Type.String({ format: 'date-time' }) }),
      // The route checks the operation's permission; give it a \`permission\` only to ask for another.
      http: { method: 'GET', path: '/${t.name}/hello' },
      // input is typed from \`input\` (the bus has already checked it); the return value must match \`output\`.
      async handler(input, ctx) {
        ctx.host.log.info('greeting', { who: input.who, tenant: ctx.tenantId });
        return { message: \`Hello, \${input.who}!\`, at: new Date(ctx.host.now()).toISOString() };
      },
    }),
  },
  limits: { memory_mb: 64, timeout_ms: 2000 },
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
