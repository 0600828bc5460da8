import { afterAll, vi } from 'vitest';

/**
 * The integration files share their worker's process (vitest.config.ts), so the libraries they load
 * (Bolt, the AWS SDK, zod) are loaded once per worker, not once per file. What a file may change is
 * put back here: each starts with a fresh graph of the project's own modules (the handlers keep their
 * cold start in module state) and leaves process.env, globals and timers as it found them.
 */
const env = { ...process.env };
vi.resetModules();
afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  Object.assign(process.env, env);
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.useRealTimers();
});
