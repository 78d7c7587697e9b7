/**
 * A fixture module in the declared form, in one place: the text of its src/index.ts (a
 * defineModule({...}) declaration with its handlers, importing '@mandi/sdk'), built into a folder of
 * its own by the same `mandi module build` a module author runs, so module.json is emitted from the
 * declarations and never written by hand (docs/guides/02-the-manifest.md). A fixture that tests the
 * host's handling of a raw manifest keeps its hand-written module.json instead.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildModule } from '../build/build-module';

const SDK = path.resolve(__dirname, '..');

export interface FixtureModule {
  /** The built folder (module.json, the bundle): what createTestHost's modulePath or MODULE_PATHS take. */
  dir: string;
  alias: string;
  version: string;
}

/**
 * Builds `source` as src/index.ts of a fresh folder (under `parent`, default the OS temp folder);
 * `files` are more files of the module (e.g. `src/math.ts`, `graphql/schema.graphql`).
 */
export async function defineFixtureModule(source: string, opts: { files?: Record<string, string>; parent?: string } = {}): Promise<FixtureModule> {
  const dir = await mkdtemp(path.join(opts.parent ?? os.tmpdir(), 'mandi-fixture-'));
  const write = async (file: string, text: string) => {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  };
  // '@mandi/sdk' is this repository's sdk/: the path a published module resolves through node_modules.
  const sdkFrom = (file: string) => path.relative(path.dirname(path.join(dir, file)), SDK).split(path.sep).join('/');
  await write('src/index.ts', source.replaceAll("'@mandi/sdk'", `'${sdkFrom('src/index.ts')}'`));
  for (const [file, text] of Object.entries(opts.files ?? {})) await write(file, file.endsWith('.ts') ? text.replaceAll("'@mandi/sdk'", `'${sdkFrom(file)}'`) : text);
  const built = await buildModule(dir);
  return { dir, alias: built.manifest.name, version: built.manifest.version };
}
