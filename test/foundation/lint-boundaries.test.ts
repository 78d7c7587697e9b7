import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * DESIGN.md, Layout and Contracts in code: the boundaries are enforced by the lint that `npm test`
 * (and so .ci/run) runs. Each case lints one made-up file at a real place in the tree with the
 * project's own eslint.config.mjs, in a plain Node process (ESLint loads its config as an ES module).
 */
const root = path.resolve(__dirname, '../..');

interface Case {
  file: string;
  code: string;
}

async function lint(cases: Case[]): Promise<string[][]> {
  const script = `
    import { ESLint } from 'eslint';
    const eslint = new ESLint({ cwd: process.cwd() });
    const out = [];
    for (const c of JSON.parse(process.env.LINT_CASES)) {
      const [result] = await eslint.lintText(c.code, { filePath: c.file });
      out.push(result.messages.map((m) => (m.ruleId ?? 'directive') + ': ' + m.message));
    }
    process.stdout.write(JSON.stringify(out));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    env: { ...process.env, LINT_CASES: JSON.stringify(cases) },
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout) as string[][];
}

const importing = (file: string, specifier: string): Case => ({ file, code: `import * as x from '${specifier}';\nexport const y = x;\n` });

describe('DESIGN.md Layout: boundaries enforced by the lint', () => {
  test('each boundary refuses its import with a message naming the boundary; the allowed neighbours pass', async () => {
    const cases: Array<[Case, string | null]> = [
      [importing('modules/orders/src/scratch.ts', '../../../core/config'), "Boundary 'modules import only the SDK'"],
      [importing('modules/orders/src/deep/scratch.ts', '../../../../rings/ring-service'), "Boundary 'modules import only the SDK'"],
      [importing('modules/orders/src/scratch.ts', '../../../sdk/testing'), "Boundary 'module code imports only the SDK's runtime part'"],
      [importing('modules/orders/src/scratch.ts', 'node:fs'), "Boundary 'module code runs in the sandbox'"],
      [importing('modules/orders/src/scratch.ts', '../../loyalty/src/index'), "Boundary 'a module never imports another module's code'"],
      [importing('modules/orders/src/scratch.ts', '../../../sdk'), null],
      [importing('modules/orders/src/scratch.ts', 'decimal.js'), null],
      [importing('modules/loyalty/test/scratch.test.ts', '../../../test/support/test-platform'), "Boundary 'tests of a module import only the SDK'"],
      [importing('modules/loyalty/test/scratch.test.ts', '../../../core/kernel/bus/events'), "Boundary 'tests of a module import only the SDK'"],
      [importing('modules/loyalty/test/scratch.test.ts', '../../../sdk/testing'), null],
      [importing('modules/loyalty/test/scratch.test.ts', '../../../sdk'), null],
      [importing('modules/loyalty/test/deep/scratch.test.ts', '../../../../sdk/testing'), null],
      [importing('modules/loyalty/test/scratch.test.ts', '../../../sdk/build/build-module'), "Boundary 'tests of a module import only the SDK's public entries'"],
      [importing('modules/loyalty/test/scratch.test.ts', '../../../sdk/manifest/validate'), "Boundary 'tests of a module import only the SDK's public entries'"],
      [importing('modules/loyalty/test/scratch.test.ts', '../../../sdk/testing/test-host'), "Boundary 'tests of a module import only the SDK's public entries'"],
      [importing('modules/loyalty/test/deep/scratch.test.ts', '../../../../sdk/cli/main'), "Boundary 'tests of a module import only the SDK's public entries'"],
      [importing('modules/loyalty/test/scratch.test.ts', '../../../orders/test/support'), null],
      [importing('core/kernel/bus/scratch.ts', '../../../modules/orders/src/index'), "Boundary 'core never imports a module'"],
      [importing('core/services/workflows/scratch.ts', '../../../modules/orders/src/index'), "Boundary 'core never imports a module'"],
      [importing('core/kernel/bus/scratch.ts', '../../services/workflows/engine'), "Boundary 'the kernel never imports a service'"],
      [importing('core/kernel/scratch.ts', '../services/accounts'), "Boundary 'the kernel never imports a service'"],
      [importing('core/kernel/modules/deep/scratch.ts', '../../../../core/services/bulk'), "Boundary 'the kernel never imports a service'"],
      [importing('core/services/workflows/scratch.ts', '../../kernel/bus/bus'), null],
      [importing('core/kernel/bus/scratch.ts', '../data/parts'), null],
      [importing('core/kernel/bus/scratch.ts', '../modules/loaded-module'), null],
      [importing('core/kernel/bus/scratch.ts', 'isolated-vm'), "Boundary 'only sandbox/ imports isolated-vm'"],
      [importing('test/hostile/scratch.test.ts', 'isolated-vm'), "Boundary 'only sandbox/ imports isolated-vm'"],
      [importing('sandbox/scratch.ts', 'isolated-vm'), null],
      [importing('sandbox/scratch.ts', '../core/kernel/net/outbound-policy'), "Boundary 'the sandbox imports nothing of core'"],
      [importing('core/kernel/host-api/scratch.ts', '../../../sandbox'), null],
      [importing('sandbox/guest/scratch.ts', 'isolated-vm'), "Boundary 'the guest prelude imports only the protocol'"],
      [importing('sandbox/guest/scratch.ts', 'node:fs'), "Boundary 'the guest prelude imports only the protocol'"],
      [importing('sandbox/guest/scratch.ts', '../errors'), "Boundary 'the guest prelude imports only the protocol'"],
      [importing('sandbox/guest/scratch.ts', '../protocol'), null],
      [importing('sandbox/guest/scratch.ts', './intrinsics'), null],
      [importing('sdk/runtime/scratch.ts', '../../core/config'), "Boundary 'the SDK's runtime part imports nothing of core'"],
      [importing('sdk/index.ts', './cli/main'), "Boundary 'the SDK's runtime part imports nothing of core'"],
      [importing('sdk/cli/scratch.ts', '../../core/config'), null],
      // No module test is let off: the ones that once reached into core use the test host now.
      [importing('modules/orders/test/round-trips.test.ts', '../../../core/kernel/data/tenant-databases'), "Boundary 'tests of a module import only the SDK'"],
      [importing('modules/orders/test/notification-rules.test.ts', '../../../core/kernel/bus/events'), "Boundary 'tests of a module import only the SDK'"],
    ];
    const results = await lint(cases.map(([c]) => c));
    const label = (c: Case) => `${c.file} importing ${/'([^']+)'/.exec(c.code)![1]}`;
    const refusedBy = (boundary: string) => expect.stringMatching(new RegExp(`^no-restricted-imports: .*${boundary.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
    expect(results.map((messages, i) => ({ case: label(cases[i][0]), messages }))).toEqual(
      cases.map(([c, boundary]) => ({ case: label(c), messages: boundary === null ? [] : [refusedBy(boundary)] })),
    );
  }, 120_000);

  test('an eslint-disable comment that names a rule which does not fire there is itself an error', async () => {
    const [messages] = await lint([{ file: 'core/scratch.ts', code: 'export const a = 1; // eslint-disable-line no-console\n' }]);
    expect(messages).toEqual([expect.stringMatching(/Unused eslint-disable directive \(no problems were reported from 'no-console'\)/)]);
  }, 60_000);
});
