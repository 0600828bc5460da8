import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Files are named for what they hold (docs/architecture.md, "Rooms"): a `*-reading.ts` file reads what
// a user typed; a `*-words.ts` file holds what the bot says and reads nothing; the domain holds no words.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const sources = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
const SRC = sources('src');
const WORDS = SRC.filter((file) => file.endsWith('-words.ts'));
const READINGS = SRC.filter((file) => file.endsWith('-reading.ts'));

/** The exported functions that read typed text: `readFilterWords`, `parseCost`, `readListOrRefuse`. */
const exportedReaders = (file: string) =>
  [
    ...readFileSync(join(ROOT, file), 'utf8').matchAll(
      /^export (?:function|const) ((?:read|parse)[A-Z]\w*)/gm,
    ),
  ].map(([, name = '']) => name);

describe('names that say what a file holds', () => {
  it('finds the words files and the reading files', () => {
    expect(WORDS.length).toBeGreaterThan(0);
    expect(READINGS.length).toBeGreaterThan(0);
  });

  it('keeps words out of the domain', () => {
    expect(WORDS.filter((file) => relative('src', file).startsWith('domain'))).toEqual([]);
  });

  it.each(WORDS)('%s reads nothing a user typed', (file) => {
    expect(exportedReaders(file)).toEqual([]);
  });

  it.each(READINGS)('%s reads what a user typed', (file) => {
    expect(exportedReaders(file).length).toBeGreaterThan(0);
  });
});
