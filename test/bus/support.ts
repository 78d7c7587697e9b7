/** Builds the bus fixture modules once per test file and installs them into a test platform. */
import path from 'node:path';
import { buildModule } from '../../sdk/build/build-module';
import { loadModuleFromDir } from '../../core/kernel/modules/loaded-module';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

export const fixture = (name: string) => path.join(__dirname, 'fixtures', name);

/** Builds and adds fixture modules (by default this folder's; `dirOf` names another suite's). */
export async function addFixtureModules(tp: TestPlatform, names: string[], dirOf: (name: string) => string = fixture): Promise<void> {
  for (const name of names) {
    await buildModule(dirOf(name));
    tp.platform.kernel.source.add(await loadModuleFromDir(dirOf(name)));
  }
}

export async function installVia(tp: TestPlatform, token: string, tenant: string, alias: string): Promise<void> {
  const res = await tp.api(`/modules/${alias}/install`, { token, tenant, body: {} });
  if (res.status !== 201) throw new Error(`install ${alias} failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** A platform whose tenant `acme` has the catalog fixture module installed. */
export async function platformWithCatalog(env: Record<string, string> = {}) {
  const tp = await startTestPlatform(env);
  const owner = await tp.install('acme');
  await addFixtureModules(tp, ['catalog']);
  await installVia(tp, owner.token, 'acme', 'catalog');
  return { tp, owner };
}
