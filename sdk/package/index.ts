/** Module packages (.tgz): written by `mandi module pack`, read by the registry and the rings. */
export { packModule, type PackOptions, type PackResult } from './pack';
export { readPackage, type ModulePackage } from './read';
export { DEFAULT_PACKAGE_LIMITS, PACKAGE_FOLDERS, PackageError, packageFileName, type PackageLimits } from './layout';
