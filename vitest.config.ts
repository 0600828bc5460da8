import { defineConfig } from 'vitest/config';

/*
 * Where the time goes and what was done about it: docs/performance.md, "The test suite". In short:
 * two workers (vitest's default on 2 cores is one, which left a core idle while tests wait on
 * DynamoDB Local, sockets and timers); the unit files share their workers' modules (they leave no
 * state behind); every other file shares its worker's libraries but gets a fresh graph of the
 * project's modules and its own process.env, as the handlers' cold-start caches need.
 */
export default defineConfig({
  test: {
    // Where the suite's time goes: the 10 slowest files, printed after the default report.
    reporters: ['default', './test/support/slowest-files.ts'],
    maxWorkers: 2,
    // Lambda runs Node 22; the AWS SDK's notice about older Node versions is noise in test output.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    testTimeout: 15_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // One module graph per worker, not per file: a unit file imports the same modules as the
          // last and changes nothing global (test/unit/isolation.test.ts checks it).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: ['test/unit/**'],
          // One DynamoDB Local for the run; each file creates its own table in it.
          globalSetup: ['test/support/global-setup.ts'],
          // A child process per file loaded Bolt and the AWS SDK again each time (a third of the
          // suite's CPU); the setup file gives each file what isolation gave it (fresh-file.ts).
          isolate: false,
          setupFiles: ['test/support/fresh-file.ts'],
        },
      },
    ],
  },
});
