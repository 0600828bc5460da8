import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Where the suite's time goes: the 10 slowest files, printed after the default report.
    reporters: ['default', './test/support/slowest-files.ts'],
    // Lambda runs Node 22; the AWS SDK's notice about older Node versions is noise in test output.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    testTimeout: 15_000,
    hookTimeout: 30_000,
  },
});
