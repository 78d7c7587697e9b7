// @ts-check
/**
 * Lint: a small recommended set that the codebase passes, and the boundaries of DESIGN.md (Layout;
 * Contracts in code), run by `npm run lint` inside `npm test`, so `.ci/run` fails on a violation.
 *
 * Boundaries use ESLint's no-restricted-imports rather than dependency-cruiser: one tool and one pass
 * with the code rules, every restriction carries its own message (which boundary, and why), and an
 * editor shows it as the import is typed. The rule reads the import's text, not the resolved file, so
 * every pattern is anchored at the repository root from the importing file's depth: in
 * core/kernel/bus/bus.ts `../modules/x` is core/kernel/modules, while `../../../modules/x` is the modules folder.
 * That is exact here because imports are relative (tsconfig has no path aliases) and require() is
 * refused by @typescript-eslint/no-require-imports.
 */
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const SOURCES = '*.{ts,js,mjs,cjs}';
/** Deeper than any folder of the repository; a file below it would escape the boundary blocks. */
const MAX_DEPTH = 10;

/** `n` steps up, as an import spells them (`./` for none). */
const up = (n) => (n === 0 ? '\\./' : `(?:\\.\\./){${n}}`);
/** Any of `names` as a path from the repository root, for a file `depth` folders below it. */
const fromRoot = (names) => (depth) => `^${up(depth)}(?:${names.join('|')})(?:/|$)`;

const why = {
  isolatedVm:
    "Boundary 'only sandbox/ imports isolated-vm' (DESIGN.md, Layout): the sandbox alone owns isolates, their limits and what crosses into them; use the sandbox runtime's API.",
  coreImportsModule:
    "Boundary 'core never imports a module' (DESIGN.md, Layout): core and modules meet at the manifest and the bus, so core runs with any set of modules.",
  kernelImportsService:
    "Boundary 'the kernel never imports a service' (DESIGN.md, Layout; core/README.md): core/kernel is what every service stands on (HTTP, parts, data, drivers, tenancy, auth, the bus, modules); a service adds itself through the kernel's contribution points (routes, core operations, file transfers) instead of the kernel reaching up to it.",
  moduleImportsHost:
    "Boundary 'modules import only the SDK' (DESIGN.md, Layout): module code meets the platform at the manifest and the bus and builds as a third party's would; import from sdk/, never core/, sandbox/, rings/, registry/ or the project's test/.",
  moduleImportsSdkTools:
    "Boundary 'module code imports only the SDK's runtime part' (DESIGN.md, Sandbox): it is bundled into the isolate, where the SDK's host-side tools (cli, build, package, scaffold, testing, manifest validation) cannot run; import from sdk/ (its index) or sdk/runtime.",
  moduleImportsNode:
    "Boundary 'module code runs in the sandbox' (DESIGN.md, Sandbox): an isolate has no Node.js built-ins; files, network, time and data come through the host object.",
  moduleImportsModule:
    "Boundary 'a module never imports another module's code' (DESIGN.md, Layout): modules meet at the bus; call the other module's operation (api.consumes) instead.",
  moduleTestImportsHost:
    "Boundary 'tests of a module import only the SDK' (DESIGN.md, Layout): a module's tests run as a third party's would, through the SDK's test host (sdk/testing, @mandi/sdk/testing); never core/, sandbox/, rings/, registry/ or the project's test/.",
  moduleTestImportsSdkInternals:
    "Boundary 'tests of a module import only the SDK's public entries' (DESIGN.md, Layout): the SDK as a third party installs it is @mandi/sdk (sdk/, its index) and @mandi/sdk/testing (sdk/testing); sdk/build, sdk/cli, sdk/manifest and the rest are its internals. If a test needs one of them, export it from sdk/testing on purpose.",
  sandboxImportsHost:
    "Boundary 'the sandbox imports nothing of core' (DESIGN.md, Sandbox): sandbox/ is the isolate runtime behind one narrow interface (HostBridge in sandbox/types.ts); the host's side of it lives in core/kernel/host-api, which imports the sandbox, never the other way.",
  guestImportsHost:
    "Boundary 'the guest prelude imports only the protocol' (DESIGN.md, Sandbox): sandbox/guest/ is bundled into every isolate context ahead of module code, with ES2022 and nothing else; import from its own folder and ../protocol only, never Node.js built-ins, packages or host code.",
  sdkRuntimeImportsHost:
    "Boundary 'the SDK's runtime part imports nothing of core' (DESIGN.md, Layout): sdk/index, sdk/define-module, sdk/runtime and the manifest types are bundled into module code and run in the isolate, so they import no core/ or other host code, no host-side SDK tools and no Node.js built-ins.",
};

const HOST_FOLDERS = ['core', 'sandbox', 'rings', 'registry', 'test', 'bench', 'scripts'];
const SDK_TOOLS = ['cli', 'build', 'package', 'scaffold', 'testing', 'manifest/(?!manifest\\.types$)'];
const NODE_BUILTINS = `^(?:node:|(?:${builtinModules.filter((m) => !m.startsWith('_')).map((m) => m.replace(/[/]/g, '\\/')).join('|')})(?:/|$))`;

/** Restrictions as functions of the importing file's depth below the repository root. */
const restrict = {
  moduleHost: (depth) => ({ regex: fromRoot(HOST_FOLDERS)(depth), message: why.moduleImportsHost }),
  moduleSdkTools: (depth) => ({ regex: fromRoot(SDK_TOOLS.map((t) => `sdk/${t}`))(depth), message: why.moduleImportsSdkTools }),
  moduleNode: () => ({ regex: NODE_BUILTINS, message: why.moduleImportsNode }),
  // modules/<name>/... is one step below the modules folder: depth - 1 steps up reach it.
  otherModuleCode: (depth) => ({ regex: `^${up(depth - 1)}[^./][^/]*/src(?:/|$)`, message: why.moduleImportsModule }),
  moduleTestHost: (depth) => ({ regex: fromRoot(HOST_FOLDERS)(depth), message: why.moduleTestImportsHost }),
  // sdk/ itself and sdk/testing are the public entries; any other path into sdk/ is an internal.
  moduleTestSdkInternals: (depth) => ({ regex: `^${up(depth)}sdk/(?!testing$)`, message: why.moduleTestImportsSdkInternals }),
  sandboxHost: (depth) => ({ regex: fromRoot(['core', 'modules', 'rings', 'registry', 'sdk'])(depth), message: why.sandboxImportsHost }),
  coreModules: (depth) => ({ regex: fromRoot(['modules'])(depth), message: why.coreImportsModule }),
  // core/kernel/<...> is one step below core/: depth - 1 steps up reach core/services.
  kernelServices: (depth) => ({ regex: `^(?:${up(depth - 1)}|${up(depth)}core/)services(?:/|$)`, message: why.kernelImportsService }),
  sdkRuntimeHost: (depth) => ({ regex: fromRoot([...HOST_FOLDERS, 'modules'])(depth), message: why.sdkRuntimeImportsHost }),
  // sdk/<file> is one step below sdk/: depth - 1 steps up reach it.
  sdkRuntimeTools: (depth) => ({ regex: `^${up(depth - 1)}(?:${SDK_TOOLS.join('|')})(?:/|$)`, message: why.sdkRuntimeImportsHost }),
  sdkRuntimeNode: () => ({ regex: NODE_BUILTINS, message: why.sdkRuntimeImportsHost }),
};

const isolatedVm = { name: 'isolated-vm', message: why.isolatedVm };

/** The no-restricted-imports options for files `depth` folders deep: its options replace, never merge. */
const boundaryRule = (depth, restrictions, { paths = [isolatedVm] } = {}) => ({
  'no-restricted-imports': ['error', { paths, patterns: restrictions.map((r) => ({ ...r(depth), caseSensitive: true })) }],
});

/** One config block per depth below `folder` (a glob whose own depth is `folderDepth`). */
const boundaryBlocks = (folder, folderDepth, restrictions) =>
  Array.from({ length: MAX_DEPTH - folderDepth }, (_, k) => ({
    files: [`${folder}/${'*/'.repeat(k)}${SOURCES}`],
    rules: boundaryRule(folderDepth + k, restrictions),
  }));

export default defineConfig(
  {
    // test/hostile/fixtures: deliberately hostile guest scripts evaluated in an isolate, not project code;
    // modules/*/src/generated: consumer types written by `mandi module types`, judged by their generator's tests.
    ignores: ['test/hostile/fixtures/', 'node_modules/', '.toolchain/', 'dist/', 'data/', 'coverage/', 'modules/*/dist/', '**/fixtures/**/dist/', 'modules/*/src/generated/'],
  },
  {
    linterOptions: {
      // An eslint-disable comment must name a rule that is on and would have fired here.
      reportUnusedDisableDirectives: 'error',
    },
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // A leading underscore marks a parameter or binding kept for its position (express's error
      // handler) or left out of a rest object on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Generated from manifest.schema.json by json-schema-to-typescript (npm run gen:manifest-types).
    files: ['sdk/manifest/manifest.types.ts'],
    rules: { '@typescript-eslint/no-empty-object-type': 'off' },
  },

  // Boundaries. Later blocks replace earlier ones for the files they match.
  { files: ['**/*.{ts,js,mjs,cjs}'], rules: { 'no-restricted-imports': ['error', { paths: [isolatedVm] }] } },
  { files: [`sandbox/${SOURCES}`], rules: boundaryRule(1, [restrict.sandboxHost], { paths: [] }) },
  {
    files: [`sandbox/guest/${SOURCES}`],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!\\./[^/]+$|\\.\\./protocol$)', message: why.guestImportsHost }] }] },
  },
  ...boundaryBlocks('core', 1, [restrict.coreModules]),
  ...boundaryBlocks('core/kernel', 2, [restrict.coreModules, restrict.kernelServices]),
  ...boundaryBlocks('modules/*', 2, [restrict.moduleHost, restrict.moduleSdkTools, restrict.moduleNode, restrict.otherModuleCode]),
  ...boundaryBlocks('modules/*/test', 3, [restrict.moduleTestHost, restrict.moduleTestSdkInternals, restrict.otherModuleCode]),
  { files: ['sdk/index.ts', 'sdk/define-module.ts'], rules: boundaryRule(1, [restrict.sdkRuntimeHost, restrict.sdkRuntimeTools, restrict.sdkRuntimeNode]) },
  { files: ['sdk/runtime/*.ts', 'sdk/contracts/*.ts', 'sdk/manifest/manifest.types.ts'], rules: boundaryRule(2, [restrict.sdkRuntimeHost, restrict.sdkRuntimeTools, restrict.sdkRuntimeNode]) },
);
