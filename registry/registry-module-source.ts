/**
 * Module versions from the registry, for the module host (the ModuleSource the kernel reads). A
 * version is downloaded, checked against its recorded sha256, unpacked with readPackage's limits
 * and kept as a LoadedModule; published versions never change, so the cache needs no invalidation
 * beyond its size bound.
 */
import { LRUCache } from 'lru-cache';
import { LoadedModule, type ModuleFiles } from '../core/kernel/modules/loaded-module';
import type { ModuleSource } from '../core/kernel/modules/module-host';
import { registryErrors } from './errors';
import type { RegistryService } from './registry-service';

function packageFiles(files: ReadonlyMap<string, Buffer>): ModuleFiles {
  return {
    read: async (rel) => {
      const content = files.get(rel);
      if (!content) throw registryErrors.fileMissing(rel);
      return content.toString('utf8');
    },
  };
}

export class RegistryModuleSource implements ModuleSource {
  private readonly cache = new LRUCache<string, LoadedModule>({ max: 500 });
  /** One download per version even when many tenants ask at once. */
  private readonly loading = new Map<string, Promise<LoadedModule | undefined>>();

  constructor(private readonly registry: RegistryService) {}

  async get(alias: string, version: string): Promise<LoadedModule | undefined> {
    const key = `${alias}@${version}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.load(alias, version).finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  async latest(alias: string): Promise<LoadedModule | undefined> {
    const version = await this.registry.latestVersion(alias);
    return version ? this.get(alias, version) : undefined;
  }

  private async load(alias: string, version: string): Promise<LoadedModule | undefined> {
    if (!(await this.registry.find(alias, version))) return undefined;
    const { pkg } = await this.registry.load(alias, version);
    const main = pkg.manifest.main ?? 'dist/index.js';
    const mod = new LoadedModule(pkg.manifest, pkg.files.get(main)!.toString('utf8'), packageFiles(pkg.files));
    this.cache.set(mod.key, mod);
    return mod;
  }
}
