/**
 * DESIGN.md Conventions: "Configuration is environment variables, each listed in the README." The
 * variables core/config.ts reads are observed by loading the config from an environment that records
 * every name asked for; the ones other source files read are found in the source. Each must appear
 * as `NAME` in the README's environment reference, docs/reference/environment.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../core/config';

const root = path.join(__dirname, '../..');
const readme = fs.readFileSync(path.join(root, 'docs/reference/environment.md'), 'utf8');
const documented = (name: string) => readme.includes(`\`${name}\``);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : sourceFiles(p);
    return /\.(ts|mjs)$/.test(e.name) ? [p] : [];
  });
}

describe('DESIGN Conventions: every environment variable is listed in the README', () => {
  test('each variable core/config.ts reads (with nothing set, so every default is taken)', () => {
    const asked = new Set<string>();
    const env = new Proxy({} as Record<string, string | undefined>, {
      get: (_t, key) => {
        if (typeof key === 'string') asked.add(key);
        return undefined;
      },
    });
    loadConfig(env);
    expect(asked.size).toBeGreaterThan(30);
    expect([...asked].filter((name) => !documented(name))).toEqual([]);
  });

  test('each process.env variable read anywhere else in the project', () => {
    const names = new Set<string>();
    for (const dir of ['core', 'sandbox', 'sdk', 'registry', 'rings', 'modules', 'bench', 'scripts', 'test']) {
      for (const file of sourceFiles(path.join(root, dir))) {
        for (const m of fs.readFileSync(file, 'utf8').matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)) names.add(m[1]);
      }
    }
    // The operating system's own, not the project's configuration.
    for (const os of ['PATH', 'HOME']) names.delete(os);
    expect(names.size).toBeGreaterThan(5);
    expect([...names].filter((name) => !documented(name)).sort()).toEqual([]);
  });
});
