/**
 * `mandi module types <alias>[@range]`: writes the TypeScript types of another module's operations
 * (sdk/build/consumer-types.ts) from its published manifest, the newest version in the range the
 * platform's registry holds (GET /registry/modules/{alias}, then /{alias}/{version}); or, with
 * --from, from a built module folder or module.json (first-party development). Only the operations
 * the consumer's api.consumes names are typed: the consumer is the module folder it runs in, or
 * --for; --all types every operation. --check writes nothing and fails when the file is stale, for CI.
 */
import { existsSync } from 'node:fs';
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import semver from 'semver';
import { consumedOperations, consumerTypes } from '../build/consumer-types';
import { loadManifest } from '../manifest/validate';
import type { Manifest } from '../manifest/manifest.types';
import { CliError, EXIT } from './api-client';
import { invokedFrom } from './invoked-from';
import { step } from './output';
import { clientFor, parseModuleRef, platformAction, withConnection, type ConnectionFlags } from './platform-command';

interface TypesFlags extends ConnectionFlags {
  from?: string;
  for?: string;
  all?: boolean;
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

/**
 * The consumer's api.consumes: from --for, else from the module.json of the folder the command runs
 * in; undefined with --all. A consumer that consumes nothing of `alias` would get an empty file, so
 * that is refused.
 */
async function consumesOf(alias: string, flags: TypesFlags, cwd: string): Promise<string[] | undefined> {
  if (flags.all) {
    if (flags.for) throw new CliError('--all and --for exclude each other', EXIT.usage);
    return undefined;
  }
  const where = path.resolve(cwd, flags.for ?? '.');
  if (!flags.for && !existsSync(path.join(where, 'module.json'))) {
    throw new CliError(`no module.json in ${where} to read api.consumes from: run in the consuming module's folder, name it with --for <path>, or type every operation with --all`, EXIT.usage);
  }
  const consumer = await loadManifest(where);
  const consumes = (consumer.api?.consumes ?? []).filter((name) => name.startsWith(`${alias}.`));
  if (!consumes.length) throw new CliError(`${consumer.name} consumes no operation of ${alias} (api.consumes): add it there first, or use --all`, EXIT.usage);
  return consumes;
}

/** Writes (or, with check, compares) the types file; paths are resolved from `cwd`. */
async function writeConsumerTypes(ref: string, flags: TypesFlags, cwd: string): Promise<{ file: string; manifest: Manifest; changed: boolean; operations: number }> {
  const { alias, version: asked } = parseModuleRef(ref);
  const range = asked ?? '*';
  if (!semver.validRange(range)) throw new CliError(`"${range}" is not a version range, e.g. ^1.2.0`, EXIT.usage);
  const file = path.resolve(cwd, flags.out ?? path.join('src', 'generated', `${alias}.ts`));
  const from = flags.from && path.resolve(cwd, flags.from);
  const consumes = await consumesOf(alias, flags, cwd);
  const manifest = from ? await localManifest(alias, range, from) : await publishedManifest(alias, range, flags);

  // The refresh command as typed from `cwd`, so the header is the same wherever the file is made.
  const rel = (p: string) => path.relative(cwd, p).split(path.sep).join('/') || '.';
  const which = flags.all ? ' --all' : flags.for ? ` --for ${rel(path.resolve(cwd, flags.for))}` : '';
  const command = `mandi module types ${ref}${from ? ` --from ${rel(from)}` : ''}${which} --out ${rel(file)}`;
  let operations: number;
  let text: string;
  try {
    operations = consumedOperations(manifest, consumes).length;
    text = await consumerTypes(manifest, { range, command, consumes });
  } catch (err) {
    throw new CliError((err as Error).message, EXIT.refused);
  }
  const committed = await readFile(file, 'utf8').catch(() => undefined);
  const changed = committed !== text;
  if (flags.check) {
    if (changed) throw new CliError(`${rel(file)} is out of date with ${alias}@${manifest.version}: run ${command}`, EXIT.refused);
  } else if (changed) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  return { file, manifest, changed, operations };
}

export function registerTypesCommand(module: Command): void {
  withConnection(
    module
      .command('types <module>')
      .description("write the TypeScript types of another module's operations (module or module@range) from its published manifest")
      .option('--from <path>', 'read a built module folder or module.json instead of the registry')
      .option('--for <path>', "the consuming module's folder or module.json, whose api.consumes picks the operations (default: the current folder)")
      .option('--all', 'type every operation, not only the consumed ones')
      .option('-o, --out <file>', 'file to write (default: src/generated/<module>.ts)')
      .option('--check', 'write nothing; fail if the file differs from what would be written (for CI)'),
  ).action(
    platformAction(async (ref: string, flags: TypesFlags) => {
      const { file, manifest, changed, operations: ops } = await writeConsumerTypes(ref, flags, invokedFrom());
      const where = path.relative(invokedFrom(), file);
      if (flags.check) step(`${where} matches ${manifest.name}@${manifest.version}`);
      else step(`${changed ? 'wrote' : 'unchanged:'} ${where}: ${ops} operation(s) of ${manifest.name}@${manifest.version}`);
    }),
  );
}
