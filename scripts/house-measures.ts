/**
 * The layout's measures, so a change to where code lives can say what it moved (docs/architecture):
 * core's share of the source, its rooms (top folders) and floors, the import arrows between rooms that
 * run back up (inside a circle of rooms), files that cross from the kernel's rooms into the services'
 * rooms, core operations whose input is a hand-written JSON schema, inline error codes, README size.
 *
 *   ./run npx tsx scripts/house-measures.ts [--json]
 *
 * Source lines count non-test .ts/.tsx files tracked by git (tests, fixtures and .d.ts left out).
 * Rooms are ordered top-down so that as few import arrows as possible point up (topDownOrder); those
 * that still do run back up, and a room's floor is its height over the arrows that point down.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

const isSource = (f: string) => /\.(ts|tsx)$/.test(f) && !/\.d\.ts$/.test(f) && !/\.test\.tsx?$/.test(f) && !/(^|\/)(test|fixtures|__fixtures__)\//.test(f);

function trackedSources(): string[] {
  return execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(isSource);
}

const lines = (f: string) => fs.readFileSync(path.join(ROOT, f), 'utf8').split('\n').length;

/**
 * core/kernel/<room>/..., core/services/<room>/... and core/<room>/... (console, testing) → room; a
 * loose file of the kernel is a room of its own name; the files directly under core/ (platform,
 * config, main) are the composition root, one room.
 */
function roomOf(file: string): string | undefined {
  const parts = file.split('/');
  if (parts[0] !== 'core') return undefined;
  if (parts.length === 2) return 'root';
  const rest = parts[1] === 'kernel' || parts[1] === 'services' ? parts.slice(2) : parts.slice(1);
  return rest.length > 1 ? rest[0] : rest[0].replace(/\.(ts|tsx)$/, '');
}

/** kernel, services, or another folder directly under core/. */
const levelOf = (file: string) => file.split('/')[1];

const IMPORT = /(?:import|export)\s[^'"`]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;

function resolveImport(from: string, spec: string, files: Set<string>): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) if (files.has(candidate)) return candidate;
  return undefined;
}

/**
 * An order of the rooms with few arrows pointing back (the greedy heuristic of Eades, Lin and Smyth
 * for a small feedback arc set): rooms that import nothing go last, rooms nothing imports go first,
 * otherwise the room importing most more than it is imported. Arrows from a room to one earlier in the
 * order run back up.
 */
function topDownOrder(nodes: string[], edges: Map<string, Set<string>>): string[] {
  const left = new Set(nodes);
  const out = (v: string) => [...(edges.get(v) ?? [])].filter((w) => left.has(w) && w !== v).length;
  const into = (v: string) => [...left].filter((u) => u !== v && edges.get(u)?.has(v)).length;
  const head: string[] = [];
  const tail: string[] = [];
  while (left.size) {
    let changed = true;
    while (changed) {
      changed = false;
      for (const v of [...left].sort()) {
        if (out(v) && into(v)) continue;
        if (!out(v)) tail.unshift(v);
        else head.push(v);
        left.delete(v);
        changed = true;
      }
    }
    if (!left.size) break;
    const pick = [...left].sort().reduce((a, b) => (out(b) - into(b) > out(a) - into(a) ? b : a));
    head.push(pick);
    left.delete(pick);
  }
  return [...head, ...tail];
}

export function measure() {
  const files = trackedSources();
  const fileSet = new Set(files);
  const total = files.reduce((n, f) => n + lines(f), 0);
  const coreFiles = files.filter((f) => f.startsWith('core/'));
  const core = coreFiles.reduce((n, f) => n + lines(f), 0);
  const modules = files.filter((f) => f.startsWith('modules/')).reduce((n, f) => n + lines(f), 0);

  const edges = new Map<string, Set<string>>();
  const rooms = new Set<string>();
  const crossing: string[] = [];
  for (const f of coreFiles) {
    const room = roomOf(f)!;
    rooms.add(room);
    const text = fs.readFileSync(path.join(ROOT, f), 'utf8');
    let crosses = false;
    for (const m of text.matchAll(IMPORT)) {
      const target = resolveImport(f, m[1] ?? m[2] ?? m[3], fileSet);
      const to = target && roomOf(target);
      if (!to || to === room) continue;
      (edges.get(room) ?? edges.set(room, new Set()).get(room)!).add(to);
      if (levelOf(f) === 'kernel' && levelOf(target) === 'services') crosses = true;
    }
    if (crosses) crossing.push(f);
  }
  const roomList = [...rooms].sort();
  const order = topDownOrder(roomList, edges);
  const at = new Map(order.map((r, i) => [r, i]));
  const arrows = [...edges.values()].reduce((n, s) => n + s.size, 0);
  let backUp = 0;
  for (const [from, tos] of edges) for (const to of tos) if (at.get(to)! < at.get(from)!) backUp++;
  // Floors: the longest path down the arrows that point down (floor 0 imports no other room).
  const floorOf = new Map<string, number>();
  for (const room of [...order].reverse()) {
    const below = [...(edges.get(room) ?? [])].filter((to) => at.get(to)! > at.get(room)!);
    floorOf.set(room, below.length ? Math.max(...below.map((to) => floorOf.get(to)! + 1)) : 0);
  }
  const floors = new Set(floorOf.values()).size;

  // A core operation registered with an object literal (not a contract) carries a hand schema.
  let handSchemas = 0;
  let inlineCodes = 0;
  for (const f of files.filter((x) => /^(core|rings|registry)\//.test(x))) {
    const text = fs.readFileSync(path.join(ROOT, f), 'utf8');
    handSchemas += (text.match(/registerCore\(\{/g) ?? []).length;
    // A code outside a catalog: a literal or an upper-case constant as MandiError's code, or a code parameter's default.
    if (f !== 'core/kernel/errors.ts') inlineCodes += (text.match(/new MandiError\(\s*(?:'[A-Z][A-Z0-9_]*'|`[A-Z]|[A-Z][A-Z0-9_]*\s*,)|\bcode\??(?::\s*string)?\s*=\s*'[A-Z][A-Z0-9_]*'/g) ?? []).length;
  }
  // A module's code outside its catalog (modules/<m>/src/errors.ts): a literal or constant as an error's code, or in a {code: …} it raises or records.
  for (const f of files.filter((x) => /^modules\/[^/]+\/src\//.test(x) && !/\/src\/errors\.ts$/.test(x))) {
    const text = fs.readFileSync(path.join(ROOT, f), 'utf8');
    inlineCodes += (text.match(/new [A-Za-z]*Error\(\s*(?:'[A-Z][A-Z0-9_]*'|`[A-Z]|[A-Z][A-Z0-9_]*\s*,)|\bcode\s*:\s*'[A-Z][A-Z0-9_]*'|\bcode\??(?::\s*string)?\s*=\s*'[A-Z][A-Z0-9_]*'/g) ?? []).length;
  }
  return {
    sourceLines: total,
    coreLines: core,
    coreShare: Math.round((core / total) * 1000) / 10,
    moduleLines: modules,
    coreRooms: roomList.length,
    floors,
    arrows,
    arrowsBackUp: backUp,
    kernelFilesImportingServices: crossing.length,
    kernelFilesImportingServicesList: crossing,
    coreOperationsWithHandSchemas: handSchemas,
    inlineErrorCodes: inlineCodes,
    readmeBytes: fs.statSync(path.join(ROOT, 'README.md')).size,
  };
}

if (require.main === module) {
  const m = measure();
  if (process.argv.includes('--json')) console.log(JSON.stringify(m, null, 2));
  else {
    console.log(`core: ${m.coreLines} of ${m.sourceLines} source lines (${m.coreShare}%); modules: ${m.moduleLines}`);
    console.log(`core rooms: ${m.coreRooms} on ${m.floors} floors; ${m.arrowsBackUp} of ${m.arrows} import arrows between rooms run back up`);
    console.log(`kernel files importing a service: ${m.kernelFilesImportingServices}`);
    console.log(`core operations with hand JSON schemas: ${m.coreOperationsWithHandSchemas}`);
    console.log(`inline error codes outside catalogs: ${m.inlineErrorCodes}`);
    console.log(`README.md: ${(m.readmeBytes / 1024).toFixed(1)} KB`);
  }
}
