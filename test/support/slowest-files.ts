import type { Reporter, TestModule } from 'vitest/node';

/** A test file's time: importing it, collecting its tests and running them, as vitest measured it. */
export interface FileTime {
  file: string;
  ms: number;
}

/** The `count` slowest files, slowest first, as lines to print at the end of a run. */
export function slowestFilesLines(files: readonly FileTime[], count = 10): string[] {
  const slowest = [...files].sort((a, b) => b.ms - a.ms).slice(0, count);
  if (slowest.length === 0) return [];
  return [
    `The ${slowest.length} slowest test files:`,
    ...slowest.map(({ file, ms }) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`),
  ];
}

/** Prints the 10 slowest test files after the run (beside the default reporter): where the time goes. */
export default class SlowestFiles implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const files = modules.map((module) => {
      const { collectDuration, duration } = module.diagnostic();
      return { file: module.relativeModuleId, ms: collectDuration + duration };
    });
    const lines = slowestFilesLines(files);
    if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}
