/**
 * The docs a newcomer looks things up in stay navigable: every relative link in the README, docs/,
 * bench/README.md, sdk/README.md and the module READMEs names a file or folder that exists, and every
 * `#anchor` names a heading of the page it points into (GitHub's slug rule). The README stays a
 * landing page: at most 12 KB, everything else lives under docs/.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const README_MAX_BYTES = 12 * 1024;

function markdownUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return markdownUnder(p);
    return e.name.endsWith('.md') ? [p] : [];
  });
}

function pages(): string[] {
  const modules = fs
    .readdirSync(path.join(ROOT, 'modules'))
    .map((m) => path.join(ROOT, 'modules', m, 'README.md'))
    .filter((p) => fs.existsSync(p));
  return [
    path.join(ROOT, 'README.md'),
    ...markdownUnder(path.join(ROOT, 'docs')),
    path.join(ROOT, 'bench/README.md'),
    path.join(ROOT, 'sdk/README.md'),
    ...modules,
  ];
}

/** The page's lines outside fenced code blocks. */
function outsideFences(text: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      continue;
    }
    if (fence === null) out.push(line);
  }
  return out;
}

/** The page's lines outside fenced code blocks, with inline code spans blanked. */
const proseLines = (text: string) => outsideFences(text).map((line) => line.replace(/(`+)[^`]*?\1/g, ''));

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingSlugs(text: string): Set<string> {
  const seen = new Map<string, number>();
  const slugs = new Set<string>();
  for (const line of outsideFences(text)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link counts by its text
      .replace(/<[^>]+>/g, '')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    slugs.add(n === 0 ? base : `${base}-${n}`);
  }
  return slugs;
}

/** Each link's target as written: `[text](target)` and `![alt](target)`, titles dropped. */
function linkTargets(text: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(text)) {
    for (const m of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1]);
  }
  return targets;
}

function brokenLinks(page: string): string[] {
  const text = fs.readFileSync(page, 'utf8');
  const broken: string[] = [];
  for (const target of linkTargets(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto: — not ours to check
    const [file, anchor] = target.split('#', 2);
    const resolved = file ? path.resolve(path.dirname(page), decodeURI(file)) : page;
    if (!fs.existsSync(resolved)) {
      broken.push(`${target}: no such file`);
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    if (!resolved.endsWith('.md') || fs.statSync(resolved).isDirectory()) continue;
    if (!headingSlugs(fs.readFileSync(resolved, 'utf8')).has(decodeURIComponent(anchor).toLowerCase())) {
      broken.push(`${target}: no heading #${anchor} in ${path.relative(ROOT, resolved)}`);
    }
  }
  return broken;
}

describe('the docs: links resolve, anchors name headings, the README stays a landing page', () => {
  test.each(pages().map((p) => [path.relative(ROOT, p), p]))('%s: every relative link and anchor resolves', (_name, page) => {
    expect(brokenLinks(page)).toEqual([]);
  });

  test(`README.md is at most ${README_MAX_BYTES} bytes`, () => {
    expect(fs.statSync(path.join(ROOT, 'README.md')).size).toBeLessThanOrEqual(README_MAX_BYTES);
  });

  test('the slug rule is GitHub\'s', () => {
    expect([...headingSlugs('# Why `./run` and not plain `npm`\n## 7b. Text, bytes\n## A\n## A\n```\n# not a heading\n```')]).toEqual([
      'why-run-and-not-plain-npm',
      '7b-text-bytes',
      'a',
      'a-1',
    ]);
  });
});
