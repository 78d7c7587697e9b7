/** Loads modules (built when their sources changed) into a test platform for the contract tests. */
import path from 'node:path';
import { buildModule } from '../../sdk/build/build-module';
import { needsBuild } from '../../sdk/build/needs-build';
import { loadModuleFromDir } from '../../core/kernel/modules/loaded-module';
import type { TestPlatform } from '../support/test-platform';

const ROOT = path.resolve(__dirname, '../..');
export const dirs = {
  orders: path.join(ROOT, 'modules/orders'),
  razorpay: path.join(ROOT, 'modules/payment-razorpay'),
  fakepay: path.join(__dirname, 'fixtures/fakepay'),
  checkout: path.join(__dirname, 'fixtures/checkout'),
};

/** Builds (contract fixtures always: they read sdk/contracts, which needsBuild does not watch) and registers each folder. */
export async function addModules(tp: TestPlatform, folders: string[]): Promise<void> {
  for (const dir of folders) {
    if (!dir.startsWith(ROOT + '/modules/') || (await needsBuild(dir, 'dist/index.js'))) await buildModule(dir);
    tp.platform.kernel.source.add(await loadModuleFromDir(dir));
  }
}
