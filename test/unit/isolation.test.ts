import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The unit tests share their workers' modules and globals from file to file (vitest.config.ts,
 * `isolate: false`: docs/performance.md ("The test suite")). A unit file may therefore change nothing that outlives it: no
 * write to process.env, no stubbed global or mocked module, no fake timers, no handler module (its
 * cold start keeps the first file's settings). A file that needs one of these belongs beside the
 * integration tests, which each run in a fresh module graph.
 */

const ROOT = resolve(import.meta.dirname, '../..');

/** What a file could leave behind for the next one, and how to spot it in its text. */
const LEAKS: readonly { what: string; pattern: RegExp }[] = [
  { what: 'writes process.env', pattern: /process\.env(\.\w+|\[[^\]]+\])\s*(=(?!=)|\?\?=|\|\|=)/ },
  { what: 'writes process.env', pattern: /(Object\.assign\(\s*process\.env|delete\s+process\.env)/ },
  { what: 'stubs a global or an env var', pattern: /vi\.(stubGlobal|stubEnv)\(/ },
  { what: 'mocks a module', pattern: /vi\.(mock|doMock)\(/ },
  { what: 'fakes the timers', pattern: /vi\.useFakeTimers\(/ },
  {
    what: 'loads a handler (its cold start is cached)',
    pattern: /from '[./]*handlers\/|import\('[./]*handlers\//,
  },
];

/** The leaks `text` shows, by name. */
function leaksIn(text: string): string[] {
  return [...new Set(LEAKS.filter(({ pattern }) => pattern.test(text)).map(({ what }) => what))];
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}
const unitTestFiles = () => testFiles(join(ROOT, 'test/unit'));

describe('the unit tests, sharing modules from file to file', () => {
  it('leave nothing behind for the next file', () => {
    const leaking = unitTestFiles()
      .filter((file) => !file.endsWith('isolation.test.ts'))
      .map((file) => ({ file: relative(ROOT, file), leaks: leaksIn(readFileSync(file, 'utf8')) }))
      .filter(({ leaks }) => leaks.length > 0);

    expect(leaking).toEqual([]);
  });

  // The integration files share their worker's process too, each with fresh modules and process.env
  // (test/support/fresh-file.ts), which puts back all but a mocked module.
  it('leave no mocked module behind in the integration files either', () => {
    const mocking = ['test/integration', 'test/resilience', 'test/e2e', 'test/infra']
      .flatMap((dir) => testFiles(join(ROOT, dir)))
      .filter((file) => leaksIn(readFileSync(file, 'utf8')).includes('mocks a module'))
      .map((file) => relative(ROOT, file));

    expect(mocking).toEqual([]);
  });

  it('spot each kind of leak', () => {
    expect(leaksIn("process.env.TABLE_NAME = 'x';")).toEqual(['writes process.env']);
    expect(leaksIn("process.env['A'] ??= 'x';")).toEqual(['writes process.env']);
    expect(leaksIn('Object.assign(process.env, env);')).toEqual(['writes process.env']);
    expect(leaksIn('delete process.env.WATCH_QUEUE_URL;')).toEqual(['writes process.env']);
    expect(leaksIn("vi.stubEnv('A', 'b');")).toEqual(['stubs a global or an env var']);
    expect(leaksIn("vi.mock('../../src/x.ts');")).toEqual(['mocks a module']);
    expect(leaksIn('vi.useFakeTimers();')).toEqual(['fakes the timers']);
    expect(leaksIn("const { handler } = await import('../../handlers/watch.ts');")).toEqual([
      'loads a handler (its cold start is cached)',
    ]);
    expect(leaksIn('expect(process.env.AWS_XRAY_CONTEXT_MISSING).toBeUndefined();')).toEqual([]);
    expect(leaksIn('const env = { ...process.env, SLACK_BOT_TOKEN: "" };')).toEqual([]);
  });
});
