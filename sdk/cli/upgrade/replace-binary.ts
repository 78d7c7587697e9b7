/**
 * Replaces the running executable (Client releases rule 2). The new file is first written next to the
 * old one (same directory, so the same file system), then renamed over it: rename is atomic, so at any
 * moment the path holds either the whole old or the whole new program, and the running process keeps
 * its already-open old file. Windows cannot rename over a running executable, so there the old one is
 * first moved aside to `<bin>.old` (removed on a later run).
 */
import { chmod, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fromFsError } from './errors';

/** Where the new executable is written before it takes the old one's place. */
export function stagingPath(binary: string): string {
  return path.join(path.dirname(binary), `.${path.basename(binary)}.upgrade-${process.pid}`);
}

export async function replaceBinary(binary: string, staged: string, platform: string = process.platform): Promise<void> {
  try {
    const mode = (await stat(binary)).mode & 0o777;
    await chmod(staged, mode | 0o111);
    // The bytes must be on disk before the name points at them, or a crash could leave an empty program.
    const handle = await open(staged, 'r');
    await handle.sync().finally(() => handle.close());
  } catch (err) {
    throw fromFsError(err, `preparing ${staged}`);
  }
  if (platform !== 'win32') {
    try {
      await rename(staged, binary);
    } catch (err) {
      throw fromFsError(err, `replacing ${binary}`);
    }
    return;
  }
  const aside = `${binary}.old`;
  try {
    await rm(aside, { force: true });
    await rename(binary, aside);
  } catch (err) {
    throw fromFsError(err, `moving ${binary} aside to ${aside}`);
  }
  try {
    await rename(staged, binary);
  } catch (err) {
    // Put the old program back so the command still exists.
    await rename(aside, binary).catch(() => undefined);
    throw fromFsError(err, `replacing ${binary}`);
  }
}

/** Removes a `<bin>.old` a previous Windows upgrade left (it could not delete the running file). */
export async function removeLeftover(binary: string): Promise<void> {
  await rm(`${binary}.old`, { force: true }).catch(() => undefined);
}
