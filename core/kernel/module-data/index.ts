/** Module data: per-module schemas in tenant databases, migrations, roles and host.db. */
export { ModuleDataService } from './module-data-service';
export type { DataChangeReport, DbBridge, ManifestModels, ModuleDataOptions, ModulePackage, RollbackReport } from './types';
