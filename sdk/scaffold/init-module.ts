/** `mandi module init <name>`: a new module folder from the templates, refusing to overwrite anything. */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { GITIGNORE, indexTs, testTs, tsconfigJson, type TemplateInput } from './templates';

const ALIAS = /^[a-z][a-z0-9_]{1,49}$/;
const SDK_DIR = path.resolve(__dirname, '..');
const REPO_ROOT = path.resolve(SDK_DIR, '..');

export class InitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InitError';
  }
}

export interface InitResult {
  /** Absolute path of the new module folder. */
  dir: string;
  /** Files written, relative to `dir`. */
  files: string[];
}

/**
 * Creates `<parentDir>/<name>/` with src/index.ts (the declarations), test/<name>.test.ts,
 * tsconfig.json and .gitignore; `mandi module build` then writes module.json.
 */
export async function initModule(name: string, parentDir: string): Promise<InitResult> {
  if (!ALIAS.test(name)) {
    throw new InitError(
      `"${name}" is not a valid module alias: use a lowercase letter, then 1 to 49 lowercase letters, digits or underscores (e.g. "loyalty")`,
    );
  }
  const dir = path.resolve(parentDir, name);
  const existing = await readdir(dir).catch(() => undefined);
  if (existing && existing.length > 0) throw new InitError(`${dir} already exists and is not empty; choose another name or folder`);

  const t: TemplateInput = {
    name,
    sdkImport: importPath(path.join(dir, 'src'), SDK_DIR),
    testHostImport: importPath(path.join(dir, 'test'), path.join(SDK_DIR, 'testing')),
    baseTsconfig: importPath(dir, path.join(REPO_ROOT, 'tsconfig.json')),
    rootDir: importPath(dir, commonAncestor(dir, REPO_ROOT)),
    typeRoots: importPath(dir, path.join(REPO_ROOT, 'node_modules', '@types')),
  };
  const files: [string, string][] = [
    ['src/index.ts', indexTs(t)],
    [`test/${name}.test.ts`, testTs(t)],
    ['tsconfig.json', tsconfigJson(t)],
    ['.gitignore', GITIGNORE],
  ];
  for (const [file, content] of files) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content, { flag: 'wx' });
  }
  return { dir, files: files.map(([file]) => file) };
}

/** The deepest folder holding both `a` and `b`. */
function commonAncestor(a: string, b: string): string {
  let dir = a;
  while (path.relative(dir, b).startsWith('..')) dir = path.dirname(dir);
  return dir;
}

/** A "./" or "../" specifier from `fromDir` to `target`, with forward slashes. */
function importPath(fromDir: string, target: string): string {
  const rel = path.relative(fromDir, target).split(path.sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}
