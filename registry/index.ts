/**
 * The module registry assembled (DESIGN.md, Rings and the registry; issue 4 item 1): package rows in
 * the central database, blobs on the filesystem under DATA_DIR/registry, publishers, and the
 * ModuleSource the kernel loads registry versions through.
 */
import path from 'node:path';
import type { RequestHandler, Router } from 'express';
import type { Sequelize } from 'sequelize';
import type { Logger } from '../core/kernel/logger';
import { FileBlobStore, type BlobStore } from './blob-store';
import { Publishers } from './publishers';
import { defineRegistryModels, type RegistryModels } from './registry-models';
import { RegistryModuleSource } from './registry-module-source';
import { registerRegistryRoutes } from './registry-routes';
import { RegistryService } from './registry-service';

export { type AdminPrincipal } from './admin-auth';
export type { BlobStore } from './blob-store';
export type { PackageView } from './registry-service';
export { RegistryService, Publishers, RegistryModuleSource, FileBlobStore };

export interface Registry {
  models: RegistryModels;
  blobs: BlobStore;
  service: RegistryService;
  publishers: Publishers;
  source: RegistryModuleSource;
  registerRoutes(api: Router, adminAuthenticated: RequestHandler): void;
}

/** maxMemoryMb: SANDBOX_MAX_MEMORY_MB, the most `limits.memory_mb` a published package may ask for. */
export function createRegistry(deps: { sequelize: Sequelize; dataDir: string; logger: Logger; maxMemoryMb: number; blobs?: BlobStore }): Registry {
  const logger = deps.logger.child({ part: 'registry' });
  const models = defineRegistryModels(deps.sequelize);
  const blobs = deps.blobs ?? new FileBlobStore(path.join(deps.dataDir, 'registry'));
  const service = new RegistryService({ models, blobs, logger, maxMemoryMb: deps.maxMemoryMb });
  const publishers = new Publishers(models);
  return {
    models,
    blobs,
    service,
    publishers,
    source: new RegistryModuleSource(service),
    registerRoutes: (api, adminAuthenticated) => registerRegistryRoutes(api, { registry: service, publishers, adminAuthenticated }),
  };
}
