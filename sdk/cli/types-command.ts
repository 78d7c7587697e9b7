/**
 * `mandi module types <alias>[@range]`: writes the TypeScript types of another module's operations
 * (sdk/build/consumer-types.ts) from its published manifest, the newest version in the range the
 * platform's registry holds (GET /registry/modules/{alias}, then /{alias}/{version}); or, with
 * --from, from a built module folder or module.json (first-party development). --check writes
 * nothing and fails when the file is stale, for CI.
 */
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import semver from 'semver';
import { consumerTypes } from '../build/consumer-types';
import { loadManifest } from '../manifest/validate';
import type { Manifest } from '../manifest/manifest.types';
import { CliError, EXIT } from './api-client';
import { invokedFrom } from './invoked-from';
import { step } from './output';
import { clientFor, parseModuleRef, platformAction, withConnection, type ConnectionFlags } from './platform-command';

interface TypesFlags extends ConnectionFlags {
  from?: string;
  out?: string;
  check?: boolean;
}

async function publishedManifest(alias: string, range: string, flags: ConnectionFlags): Promise<Manifest> {
  const client = clientFor(flags);
  const { versions } = await client.request<{ versions: Array<{ version: string }> }>('GET', `/registry/modules/${alias}`);
  const all = versions.map((v) => v.version);
  const version = semver.maxSatisfying(all, range);
  if (!version) throw new CliError(`no published version of ${alias} is in ${range}`, EXIT.refused, [`published: ${all.join(', ')}`]);
  return (await client.request<{ manifest: Manifest }>('GET', `/registry/modules/${alias}/${version}`)).manifest;
}

async function localManifest(alias: string, range: string, from: string): Promise<Manifest> {
  const manifest = await loadManifest(from);
  if (manifest.name !== alias) throw new CliError(`${from} holds module ${manifest.name}, not ${alias}`, EXIT.usage);
  if (!semver.satisfies(manifest.version, range)) throw new CliError(`${alias}@${manifest.version} in ${from} is not in ${range}`, EXIT.refused);
  return manifest;
}

/** Writes (or, with check, compares) the types file; paths are resolved from `cwd`. */
async function writeConsumerTypes(ref: string, flags: TypesFlags, cwd: string): Promise<{ file: string; manifest: Manifest; changed: boolean }> {
  const { alias, version: asked } = parseModuleRef(ref);
  const range = asked ?? '*';
  if (!semver.validRange(range)) throw new CliError(`"${range}" is not a version range, e.g. ^1.2.0`, EXIT.usage);
  const file = path.resolve(cwd, flags.out ?? path.join('src', 'generated', `${alias}.ts`));
  const from = flags.from && path.resolve(cwd, flags.from);
  const manifest = from ? await localManifest(alias, range, from) : await publishedManifest(alias, range, flags);

  // The refresh command as typed from `cwd`, so the header is the same wherever the file is made.
  const rel = (p: string) => path.relative(cwd, p).split(path.sep).join('/');
  const command = `mandi module types ${ref}${from ? ` --from ${rel(from)}` : ''} --out ${rel(file)}`;
  const text = await consumerTypes(manifest, { range, command });
  const committed = await readFile(file, 'utf8').catch(() => undefined);
  const changed = committed !== text;
  if (flags.check) {
    if (changed) throw new CliError(`${rel(file)} is out of date with ${alias}@${manifest.version}: run ${command}`, EXIT.refused);
  } else if (changed) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  return { file, manifest, changed };
}

export function registerTypesCommand(module: Command): void {
  withConnection(
    module
      .command('types <module>')
      .description("write the TypeScript types of another module's operations (module or module@range) from its published manifest")
      .option('--from <path>', 'read a built module folder or module.json instead of the registry')
      .option('-o, --out <file>', 'file to write (default: src/generated/<module>.ts)')
      .option('--check', 'write nothing; fail if the file differs from what would be written (for CI)'),
  ).action(
    platformAction(async (ref: string, flags: TypesFlags) => {
      const { file, manifest, changed } = await writeConsumerTypes(ref, flags, invokedFrom());
      const where = path.relative(invokedFrom(), file);
      const ops = manifest.api?.provides?.length ?? 0;
      if (flags.check) step(`${where} matches ${manifest.name}@${manifest.version}`);
      else step(`${changed ? 'wrote' : 'unchanged:'} ${where}: ${ops} operation(s) of ${manifest.name}@${manifest.version}`);
    }),
  );
}
