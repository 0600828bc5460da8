import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No import circle in what ships (`src/`, `handlers/`), nor in the local stack, the simulator and the
 * tests' support (the local Slack page's ES modules included), type-only imports included: a circle is
 * two files that cannot be read, changed or loaded one without the other.
 */

const ROOT = resolve(import.meta.dirname, '../..');

/** The folders outside what ships that keep the same rule. */
const TOOLING = ['local', 'simulator', 'bench', 'test/support'];

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|js)$/.test(file))
    .map((file) => join(folder, file));
}

/** The project's own files a file imports (relative specifiers only; packages are not rooms). */
function importsOf(file: string, known: Set<string>): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => relative(ROOT, resolve(ROOT, dirname(file), name)))
    .filter((target) => known.has(target));
}

/** Every circle, each as the files of one strongly connected component (Tarjan). */
function circlesOf(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

function graphOf(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(files.map((file) => [file, importsOf(file, known)]));
}

describe('imports', () => {
  it('form no circle in src/ and handlers/', () => {
    const files = [...sourceFiles('src'), ...sourceFiles('handlers')];
    expect(files.length).toBeGreaterThan(100);
    expect(circlesOf(graphOf(files))).toEqual([]);
  });

  it(`form no circle in ${TOOLING.join('/, ')}/, nor through what ships`, () => {
    const tooling = TOOLING.flatMap(sourceFiles);
    expect(tooling.length).toBeGreaterThan(50);
    const files = [...tooling, ...sourceFiles('src'), ...sourceFiles('handlers')];
    expect(circlesOf(graphOf(files))).toEqual([]);
  });

  it('finds a circle when there is one (the check itself)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(circlesOf(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});
