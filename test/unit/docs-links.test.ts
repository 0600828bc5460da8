import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every relative link in the README and docs/ leads somewhere: the file exists and, for `#anchor`,
// a heading there has that GitHub slug. External links are not followed. Every TypeScript file a doc
// names in inline code (`src/slack/app.ts`, or `app.ts` alone) is a file of the repository.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The markdown outside fenced code blocks, where headings are headings. */
const outsideFences = (markdown: string) => markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
/** ...and outside inline code, where links are links. */
const prose = (markdown: string) => outsideFences(markdown).replace(/`[^`\n]*`/g, '');

/**
 * GitHub's heading anchors (as github-slugger makes them): lower case, punctuation dropped, spaces to
 * hyphens, a repeated heading numbered.
 */
function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading = ''] of outsideFences(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  }
  return slugs;
}

/** The targets of `[text](target)` and `![alt](target)` links, titles left off. */
function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    ([, target = '']) => target,
  );
}

/** What is wrong with `target` as a link from `file` (a path from the repository root), if anything. */
function brokenLink(file: string, target: string): string | undefined {
  if (/^[a-z][a-z+.-]*:/i.test(target)) return undefined; // http:, https:, mailto:
  const [path = '', anchor] = target.split('#');
  const resolved = path === '' ? join(ROOT, file) : resolve(ROOT, dirname(file), decodeURIComponent(path));
  if (!existsSync(resolved)) return `${target}: no file ${relative(ROOT, resolved)}`;
  if (anchor === undefined) return undefined;
  if (statSync(resolved).isDirectory() || !resolved.endsWith('.md'))
    return `${target}: an anchor into a file that is not markdown`;
  const slugs = headingSlugs(readFileSync(resolved, 'utf8'));
  return slugs.has(decodeURIComponent(anchor))
    ? undefined
    : `${target}: no heading #${anchor} in ${relative(ROOT, resolved)}`;
}

describe('links in the README and docs/', () => {
  it('slugs headings as GitHub does', () => {
    const markdown = [
      '# Using eventbot',
      '## Workflow step "Event fit score"',
      "## A charge's path",
      '### Follow-up: `npm run dev`',
      "## A charge's path",
      '```sh',
      '# not a heading',
      '```',
    ].join('\n');
    const slugs = headingSlugs(markdown);
    expect([...slugs]).toEqual([
      'using-eventbot',
      'workflow-step-event-fit-score',
      'a-charges-path',
      'follow-up-npm-run-dev',
      'a-charges-path-1',
    ]);
  });

  it('finds links outside code only', () => {
    expect(
      linkTargets(
        '[a](docs/a.md#x) ![b](b.png) `[c](c.md)` [d](https://e.example "t")\n```\n[f](f.md)\n```\n',
      ),
    ).toEqual(['docs/a.md#x', 'b.png', 'https://e.example']);
  });

  it('reads the README and every file in docs/', () => {
    expect(DOCS).toContain('README.md');
    expect(DOCS.length).toBeGreaterThanOrEqual(6);
  });

  it.for(DOCS)('%s: every relative link resolves to a file and heading', (file, { expect }) => {
    const targets = linkTargets(readFileSync(join(ROOT, file), 'utf8'));
    const broken = targets
      .map((target) => brokenLink(file, target))
      .filter((problem) => problem !== undefined);
    expect(broken).toEqual([]);
  });

  it('finds the TypeScript files named in inline code', () => {
    expect(namedFiles('`src/a.ts` and `b.ts`, `src/<room>/c.ts`, `d.tsx`\n```\ne.ts\n```')).toEqual([
      'src/a.ts',
      'b.ts',
    ]);
  });

  it.for(DOCS)('%s: every TypeScript file it names exists', (file, { expect }) => {
    const missing = namedFiles(readFileSync(join(ROOT, file), 'utf8')).filter(
      (name) => !TRACKED.some((tracked) => tracked === name || tracked.endsWith(`/${name}`)),
    );
    expect(missing).toEqual([]);
  });
});

/** The tracked files of the repository, as `git ls-files` names them (a doc names no generated file). */
const TRACKED = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: ROOT,
  encoding: 'utf8',
}).split('\n');

/** `src/slack/app.ts` or `app.ts` in inline code outside fences: a name of a file, not a pattern. */
function namedFiles(markdown: string): string[] {
  return [...outsideFences(markdown).matchAll(/`([\w./-]+\.ts)`/g)].map(([, name = '']) => name);
}
