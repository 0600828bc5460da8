import { describe, expect, it } from 'vitest';
import { slowestFilesLines } from '../support/slowest-files.ts';

describe('the slowest test files, printed after a run', () => {
  it('lists the ten slowest, slowest first, in seconds', () => {
    const files = Array.from({ length: 12 }, (_, i) => ({ file: `test/f${i}.test.ts`, ms: (i + 1) * 1000 }));

    const lines = slowestFilesLines(files);

    expect(lines[0]).toBe('The 10 slowest test files:');
    expect(lines).toHaveLength(11);
    expect(lines[1]).toBe('    12.0 s  test/f11.test.ts');
    expect(lines[10]).toBe('     3.0 s  test/f2.test.ts');
  });

  it('prints nothing for a run without files', () => {
    expect(slowestFilesLines([])).toEqual([]);
  });
});
