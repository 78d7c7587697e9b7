/**
 * The kernel's module source: development modules registered in process (`add()`: MODULE_PATHS
 * folders, tests) in front of the registry (issue 4). A local module answers first, so an author can
 * run a build of a version before publishing it; everything else comes from the registry, where
 * packages are checked against their sha256 before they are used.
 */
import { assertMemoryWithin, type LoadedModule } from './loaded-module';
import { InProcessModuleSource, type ModuleSource } from './module-host';

export class ModuleSources implements ModuleSource {
  readonly local = new InProcessModuleSource();
  /** `remote` (the registry) answers for every alias no development module has. */
  constructor(
    private readonly maxMemoryMb: number,
    private readonly remote?: ModuleSource,
  ) {}

  /** Registers a development module (a built folder loaded with loadModuleFromDir). */
  add(mod: LoadedModule): void {
    assertMemoryWithin(mod.manifest, this.maxMemoryMb);
    this.local.add(mod);
  }

  /** The development modules and their versions, newest first. */
  catalog(): Array<{ alias: string; versions: string[] }> {
    return this.local.catalog();
  }

  /** Whether the alias is a development module (outside ring control). */
  isLocal(alias: string): boolean {
    return this.local.catalog().some((m) => m.alias === alias);
  }

  async get(alias: string, version: string): Promise<LoadedModule | undefined> {
    return (await this.local.get(alias, version)) ?? (await this.remote?.get(alias, version));
  }

  async latest(alias: string): Promise<LoadedModule | undefined> {
    return (await this.local.latest(alias)) ?? (await this.remote?.latest(alias));
  }
}
