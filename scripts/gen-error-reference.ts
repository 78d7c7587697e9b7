/**
 * Writes docs/reference/error-codes.md from the error catalogs (`defineErrors`, core/kernel/errors.ts): every
 * code a catalog can raise, its HTTP status, the areas that raise it and what it means.
 *
 *   ./run npx tsx scripts/gen-error-reference.ts          write the page
 *   ./run npx tsx scripts/gen-error-reference.ts --check  exit 1 when the page is not current
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { errorCatalogs } from '../core/kernel/errors';

const ROOT = path.resolve(__dirname, '..');
export const ERROR_REFERENCE = path.join(ROOT, 'docs/reference/error-codes.md');

/** Imports every source file that declares a catalog, so errorCatalogs() holds them all. */
export function loadCatalogs(): void {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'core', 'rings', 'registry'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.ts$/.test(f) && !/\.test\.ts$/.test(f) && fs.readFileSync(path.join(ROOT, f), 'utf8').includes("defineErrors('"));
  // Which files hold catalogs is known only here, at run time (jest has no dynamic import).
  for (const f of files) require(path.join(ROOT, f)); // eslint-disable-line @typescript-eslint/no-require-imports -- the list is read from git
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

export function renderErrorReference(): string {
  const byCode = new Map<string, { statuses: Set<number>; areas: Set<string>; docs: Set<string> }>();
  for (const catalog of errorCatalogs()) {
    for (const e of catalog.entries) {
      const row = byCode.get(e.code) ?? byCode.set(e.code, { statuses: new Set(), areas: new Set(), docs: new Set() }).get(e.code)!;
      row.statuses.add(e.status);
      row.areas.add(catalog.area);
      if (e.doc) row.docs.add(e.doc);
    }
  }
  const rows = [...byCode.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, r]) => `| \`${code}\` | ${[...r.statuses].join(', ')} | ${[...r.areas].sort().join(', ')} | ${cell([...r.docs].join(' '))} |`);
  return [
    '# Error codes',
    '',
    'Generated from the error catalogs (`defineErrors` in core/kernel/errors.ts) by `./run npx tsx scripts/gen-error-reference.ts`; do not edit by hand.',
    'Every error answer carries its code (`code`, or `error` in the areas whose shape names it so) and its HTTP status;',
    'how each spec area shapes the body is in [errors.md](errors.md). Codes raised outside a catalog are not listed yet.',
    '',
    '| code | status | raised by | meaning |',
    '|---|---|---|---|',
    ...rows,
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
