/**
 * A module version the host can run: its validated manifest, its bundled code and access to the
 * other files of its package (migrations, graphql, screens). Made from a folder (first-party and
 * development modules) or, through the registry, from a package.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { checkPlatform, loadManifest, PLATFORM_VERSION, type Manifest, type Operation } from '../../../sdk/manifest';
import { moduleErrors } from './errors';

export interface ModuleFiles {
  /** A file of the package by its relative path, as UTF-8. */
  read(relPath: string): Promise<string>;
}

export class LoadedModule {
  readonly key: string;
  /** Full operation name → its declaration. */
  readonly operations: ReadonlyMap<string, Operation>;
  /** The operations its schedules run that name no permission: the bus lets only the scheduler start them. */
  readonly scheduleOnly: ReadonlySet<string>;

  constructor(readonly manifest: Manifest, readonly code: string, readonly files: ModuleFiles) {
    this.key = `${manifest.name}@${manifest.version}`;
    this.operations = new Map((manifest.api?.provides ?? []).map((op) => [op.name, op]));
    this.scheduleOnly = new Set((manifest.schedules ?? []).map((s) => s.operation).filter((op) => !this.operations.get(op)?.permission));
  }

  get alias(): string {
    return this.manifest.name;
  }

  /** The handler key in the module's code: "orders.get" → "get". */
  static method(op: string): string {
    return op.slice(op.indexOf('.') + 1);
  }
}

/** Refuses a module whose platform range excludes this core (spec 1, Versioning 2). */
export function assertCompatible(manifest: Manifest): void {
  const problem = checkPlatform(manifest, PLATFORM_VERSION);
  if (problem) throw moduleErrors.incompatible(problem.message, manifest.name, manifest.version);
}

/** Refuses a module that asks for more isolate memory than the platform grants (SANDBOX_MAX_MEMORY_MB). */
export function assertMemoryWithin(manifest: Manifest, maxMemoryMb: number): void {
  const asked = manifest.limits?.memory_mb;
  if (asked === undefined || asked <= maxMemoryMb) return;
  throw moduleErrors.memoryOverCap(manifest.name, manifest.version, asked, maxMemoryMb);
}

export function filesInDir(dir: string): ModuleFiles {
  const root = path.resolve(dir);
  return {
    read: async (rel) => {
      const full = path.resolve(root, rel);
      if (!full.startsWith(root + path.sep)) throw moduleErrors.fileOutside(rel);
      return fs.readFile(full, 'utf8');
    },
  };
}

/** Loads a built module folder (module.json + the bundle `main` names). */
export async function loadModuleFromDir(dir: string): Promise<LoadedModule> {
  const manifest = await loadManifest(path.join(dir, 'module.json'));
  assertCompatible(manifest);
  const main = manifest.main ?? 'dist/index.js';
  const files = filesInDir(dir);
  let code: string;
  try {
    code = await files.read(main);
  } catch {
    throw moduleErrors.notBuilt(manifest.name, manifest.version, main, dir);
  }
  return new LoadedModule(manifest, code, files);
}
