import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No source file in what ships (`src/`, `handlers/`), nor in the bench, over 400 lines: a longer file
 * holds more than one thing and is split by what it does. Data tables are the exception, each named
 * with its reason.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const MAX_LINES = 400;

/** Data tables that may be longer, by path, with the reason. */
const DATA_TABLES: Readonly<Record<string, string>> = {
  'src/eis/schemas.ts': "the service's response schemas, one per endpoint, as the spec gives them",
};

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(folder, file));
}

/** Lines as an editor numbers them: a final newline ends the last line, it does not start another. */
function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** `path (N lines)` for each file over the limit that is not a data table. */
function tooLong(
  lengths: ReadonlyMap<string, number>,
  exceptions: Readonly<Record<string, string>>,
): string[] {
  return [...lengths]
    .filter(([file, lines]) => lines > MAX_LINES && !(file in exceptions))
    .map(([file, lines]) => `${file} (${lines} lines)`)
    .sort();
}

const lengthsOf = (files: string[]) =>
  new Map(files.map((file) => [file, lineCount(readFileSync(join(ROOT, file), 'utf8'))]));

describe('source files', () => {
  const lengths = lengthsOf([...sourceFiles('src'), ...sourceFiles('handlers')]);

  it(`are at most ${MAX_LINES} lines in src/ and handlers/, data tables aside`, () => {
    expect(lengths.size).toBeGreaterThan(100);
    expect(tooLong(lengths, DATA_TABLES)).toEqual([]);
  });

  it(`are at most ${MAX_LINES} lines in bench/`, () => {
    const bench = lengthsOf(sourceFiles('bench'));
    expect(bench.size).toBeGreaterThan(10);
    expect(tooLong(bench, {})).toEqual([]);
  });

  it('list as data tables only files that exist and are over the limit', () => {
    const stale = Object.keys(DATA_TABLES).filter((file) => (lengths.get(file) ?? 0) <= MAX_LINES);
    expect(stale).toEqual([]);
  });

  it('names each file over the limit with its length (the check itself)', () => {
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
    const lengths = new Map([
      ['src/short.ts', MAX_LINES],
      ['src/long.ts', MAX_LINES + 1],
      ['src/table.ts', MAX_LINES + 200],
    ]);
    expect(tooLong(lengths, { 'src/table.ts': 'a data table' })).toEqual([
      `src/long.ts (${MAX_LINES + 1} lines)`,
    ]);
  });
});
