/**
 * Writes docs/reference/error-codes.md from the error catalogs: core's (`defineErrors`, core/kernel/errors.ts)
 * and the modules' (`defineErrors` of the SDK, modules/<m>/src/errors.ts): every code a catalog can raise,
 * its HTTP status, the areas that raise it and what it means.
 *
 *   ./run npx tsx scripts/gen-error-reference.ts          write the page
 *   ./run npx tsx scripts/gen-error-reference.ts --check  exit 1 when the page is not current
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { errorCatalogs } from '../core/kernel/errors';
import { moduleErrorCatalogs, type ErrorCatalog } from '../sdk/runtime/errors';

const ROOT = path.resolve(__dirname, '..');
export const ERROR_REFERENCE = path.join(ROOT, 'docs/reference/error-codes.md');

/** Imports every source file that declares a catalog, so errorCatalogs() holds them all. */
export function loadCatalogs(): void {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'core', 'rings', 'registry', 'modules'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.ts$/.test(f) && !/\.test\.ts$/.test(f) && (!f.startsWith('modules/') || /^modules\/[^/]+\/src\//.test(f)) && fs.readFileSync(path.join(ROOT, f), 'utf8').includes("defineErrors('"));
  // Which files hold catalogs is known only here, at run time (jest has no dynamic import).
  for (const f of files) require(path.join(ROOT, f)); // eslint-disable-line @typescript-eslint/no-require-imports -- the list is read from git
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

type Row = { statuses: Set<number>; areas: Set<string>; docs: Set<string> };

/** The catalogs' entries by code: every status, area and meaning each code has. */
function byCode(catalogs: readonly ErrorCatalog[]): Map<string, Row> {
  const rows = new Map<string, Row>();
  for (const catalog of catalogs) {
    for (const e of catalog.entries) {
      const row = rows.get(e.code) ?? rows.set(e.code, { statuses: new Set(), areas: new Set(), docs: new Set() }).get(e.code)!;
      row.statuses.add(e.status);
      row.areas.add(catalog.area);
      if (e.doc) row.docs.add(e.doc);
    }
  }
  return new Map([...rows].sort(([a], [b]) => a.localeCompare(b)));
}

export function renderErrorReference(): string {
  const platform = byCode(errorCatalogs());
  const rows = [...platform].map(([code, r]) => `| \`${code}\` | ${[...r.statuses].join(', ')} | ${[...r.areas].sort().join(', ')} | ${cell([...r.docs].join(' '))} |`);
  // A module's entry that reuses a platform code (NOT_FOUND, FORBIDDEN, …) means what the platform's does.
  const meaning = (code: string, r: Row) => (r.docs.size ? [...r.docs].join(' ') : `As the platform's \`${code}\`: ${[...(platform.get(code)?.docs ?? [])].join(' ')}`);
  const modules = [...moduleErrorCatalogs()].sort((a, b) => a.area.localeCompare(b.area)).flatMap((catalog) => [
    '',
    `### ${catalog.area}`,
    '',
    '| code | status | meaning |',
    '|---|---|---|',
    ...[...byCode([catalog])].map(([code, r]) => `| \`${code}\` | ${[...r.statuses].join(', ')} | ${cell(meaning(code, r))} |`),
  ]);
  return [
    '# Error codes',
    '',
    'Generated from the error catalogs (`defineErrors` in core/kernel/errors.ts, and the SDK\'s in each module\'s src/errors.ts) by `./run npx tsx scripts/gen-error-reference.ts`; do not edit by hand.',
    'Every error answer carries its code (`code`, or `error` in the areas whose shape names it so) and its HTTP status;',
    'how each spec area shapes the body is in [errors.md](errors.md).',
    '',
    '## Platform',
    '',
    '| code | status | raised by | meaning |',
    '|---|---|---|---|',
    ...rows,
    '',
    '## Modules',
    '',
    'Each module of this repository declares its errors in one catalog (docs/guides/03-the-code.md, Errors); a code means what its module says, within that module.',
    ...modules,
    '',
  ].join('\n');
}

function main(): void {
  loadCatalogs();
  const page = renderErrorReference();
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(ERROR_REFERENCE) ? fs.readFileSync(ERROR_REFERENCE, 'utf8') : '';
    if (current !== page) {
      console.error(`${path.relative(ROOT, ERROR_REFERENCE)} is not current: run ./run npx tsx scripts/gen-error-reference.ts`);
      process.exit(1);
    }
  } else {
    fs.mkdirSync(path.dirname(ERROR_REFERENCE), { recursive: true });
    fs.writeFileSync(ERROR_REFERENCE, page);
  }
}

if (require.main === module) main();
