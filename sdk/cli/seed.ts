/**
 * First run in one step (`mandi platform seed`, and the console's offer on an empty registry in
 * development): every first-party module folder (modules/<name>) built and packed as `mandi module
 * build` and `pack` do (the package goes to a temporary folder), published to the registry and promoted into every ring, dependencies first. Idempotent: a
 * version already published (409 VERSION_EXISTS) is not published again, and a ring already
 * releasing it is left alone, so running it twice changes nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildModule } from '../build/build-module';
import { packModule } from '../package';
import { CliError, type ApiClient } from './api-client';

export const FIRST_PARTY_MODULES = path.resolve(__dirname, '..', '..', 'modules');

export interface SeededModule {
  alias: string;
  version: string;
  published: boolean;
  promoted: string[];
}

interface Manifest { name: string; version: string; dependencies?: Record<string, string> }

/** Module folders (each with a module.json) under dir, dependencies before their dependants. */
export function moduleFolders(dir = FIRST_PARTY_MODULES): Array<{ dir: string; manifest: Manifest }> {
  const found = fs.readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(dir, e.name, 'module.json')))
    .map((e) => ({ dir: path.join(dir, e.name), manifest: JSON.parse(fs.readFileSync(path.join(dir, e.name, 'module.json'), 'utf8')) as Manifest }))
    .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
  const byName = new Map(found.map((m) => [m.manifest.name, m]));
  const ordered: typeof found = [];
  const visit = (m: (typeof found)[number], seen: Set<string>) => {
    if (ordered.includes(m) || seen.has(m.manifest.name)) return;
    seen.add(m.manifest.name);
    for (const dep of Object.keys(m.manifest.dependencies ?? {})) {
      const d = byName.get(dep);
      if (d) visit(d, seen);
    }
    ordered.push(m);
  };
  for (const m of found) visit(m, new Set());
  return ordered;
}

export async function seedModules(client: ApiClient, folders = moduleFolders(), log: (line: string) => void = () => {}): Promise<SeededModule[]> {
  const out: SeededModule[] = [];
  const { rings } = await client.request<{ rings: Array<{ name: string; position: number; release: { modules: Record<string, string> } | null }> }>('GET', '/rings');
  rings.sort((a, b) => a.position - b.position);
  for (const { dir, manifest } of folders) {
    const { alias, version } = { alias: manifest.name, version: manifest.version };
    let published = true;
    try {
      await buildModule(dir);
      const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mandi-seed-'));
      const pkg = await packModule(dir, { outDir }).finally(() => fs.rmSync(outDir, { recursive: true, force: true }));
      await client.request('POST', '/registry/packages', { body: pkg.buffer });
      log(`published ${alias}@${version}`);
    } catch (err) {
      if (!(err instanceof CliError && err.message.includes('VERSION_EXISTS'))) throw err;
      published = false;
    }
    const promoted: string[] = [];
    for (const ring of rings) {
      if (ring.release?.modules[alias] === version) continue;
      await client.request('POST', `/rings/${encodeURIComponent(ring.name)}/promote?wait=true`, { json: { module: alias, version } });
      promoted.push(ring.name);
      log(`promoted ${alias}@${version} into ${ring.name}`);
    }
    out.push({ alias, version, published, promoted });
  }
  return out;
}
