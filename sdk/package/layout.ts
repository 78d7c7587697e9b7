/**
 * What a module package may hold and how big it may be. Shared by packModule (which never writes a
 * package readPackage would refuse) and readPackage (which the registry runs on uploads).
 */

/**
 * Folders copied into a package when present, besides module.json and the bundle: dist/console holds
 * the console pages' browser bundles that `mandi module build` writes (docs/decisions/console-pages.md);
 * their sources under console/ stay out, as src/ does.
 */
export const PACKAGE_FOLDERS = ['graphql', 'screens', 'migrations', 'dist/console'] as const;

export interface PackageLimits {
  /** Size of the .tgz itself. */
  maxCompressedBytes: number;
  /** Sum of all file sizes once unpacked (guards against gzip bombs). */
  maxUnpackedBytes: number;
  maxFileBytes: number;
  maxFiles: number;
}

export const DEFAULT_PACKAGE_LIMITS: PackageLimits = {
  maxCompressedBytes: 20 * 1024 * 1024,
  maxUnpackedBytes: 50 * 1024 * 1024,
  maxFileBytes: 20 * 1024 * 1024,
  maxFiles: 1000,
};

/** The archive itself is unacceptable (layout, size, unsafe paths); manifest problems are ManifestError. */
export class PackageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PackageError';
  }
}

/**
 * Why `name` is not a safe package path, or undefined when it is: relative, "/"-separated, no "." or
 * ".." segments, no backslashes, drive letters or control characters. Nothing may land outside the
 * folder a package is unpacked into.
 */
export function unsafePathReason(name: string): string | undefined {
  if (name.length === 0) return 'is empty';
  if (name.length > 255) return 'is longer than 255 characters';
  if (name.startsWith('/')) return 'is absolute';
  if (/^[A-Za-z]:/.test(name)) return 'starts with a drive letter';
  if (name.includes('\\')) return 'contains a backslash';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'contains a control character';
  const segments = name.split('/');
  if (segments.some((s) => s === '..')) return 'escapes the package with ".."';
  if (segments.some((s) => s === '.' || s === '')) return 'has an empty or "." segment';
  return undefined;
}

/** Whether a package may hold `name`, given the manifest's bundle path. */
export function isAllowedEntry(name: string, mainPath: string): boolean {
  return name === 'module.json' || name === mainPath || PACKAGE_FOLDERS.some((folder) => name.startsWith(`${folder}/`));
}

export const packageFileName = (name: string, version: string) => `${name}-${version}.tgz`;
