/**
 * Failures of `mandi upgrade` and their exit codes (spec 1, Client releases rule 5): 5 network,
 * 6 server error, checksum mismatch or asset not found, 1 file-system errors (and refusals).
 */
export const EXIT = { ok: 0, fileSystem: 1, network: 5, server: 6 } as const;

export class UpgradeError extends Error {
  constructor(message: string, readonly exitCode: number) {
    super(message);
    this.name = 'UpgradeError';
  }
}

export const networkError = (message: string) => new UpgradeError(message, EXIT.network);
export const serverError = (message: string) => new UpgradeError(message, EXIT.server);
export const fileSystemError = (message: string) => new UpgradeError(message, EXIT.fileSystem);
/** The command will not do this (package-manager install, development build): nothing was touched. */
export const refusal = (message: string) => new UpgradeError(message, EXIT.fileSystem);

/** A file-system failure as an UpgradeError with the path and the reason in plain words. */
export function fromFsError(err: unknown, what: string): UpgradeError {
  const e = err as NodeJS.ErrnoException;
  if (e instanceof UpgradeError) return e;
  const why = e.code === 'EACCES' || e.code === 'EPERM' ? 'permission denied (run it as the user that owns the file, or with sudo)' : e.code === 'ENOSPC' ? 'no space left on the device' : e.message;
  return fileSystemError(`${what}: ${why}`);
}
