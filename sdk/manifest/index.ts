/** The manifest toolkit for hosts and tools (core, registry, rings, the CLI); never bundled into module code. */
export * from './manifest.types';
export { validateManifest, loadManifest, type ManifestValidation } from './validate';
export { ManifestError, formatIssues, type ManifestIssue } from './issues';
export { contractIssues } from './contract-rules';
export { runsAgents } from './agent-tools';
export { consolePageBundle } from './console-pages';
export { referencedFiles, type FileReference } from './referenced-files';
export {
  PLATFORM_VERSION,
  checkPlatform,
  checkDependencies,
  matchesConsumes,
  type CompatibilityProblem,
  type CompatibilityProblemKind,
} from './compatibility';
export { channelMatches, isTenantPrivatePattern, tenantOfChannel } from './channel-patterns';
export { PLATFORM_NAMESPACES } from './platform-namespaces';
export { isActiveContentType } from './active-content';
export { default as manifestSchema } from './manifest.schema.json';
