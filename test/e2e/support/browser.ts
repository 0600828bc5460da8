import { afterAll, beforeAll, inject } from 'vitest';
import { type BrowserSession, closeBrowserSession, openBrowserSession } from './local-page.ts';

// The vitest side of the browser tests: one dev stack and chromium page per test file, on the
// suite's shared DynamoDB Local. The page's helpers and selectors are in ./local-page.ts.
export * from './local-page.ts';

/**
 * One dev stack and browser page for all the tests of the calling file (its `beforeAll` / `afterAll`
 * hooks are registered here); read `stack` and `page` inside a test.
 */
export function browserSessionForFile(): Pick<BrowserSession, 'stack' | 'page'> {
  let session: BrowserSession | undefined;
  beforeAll(async () => {
    session = await openBrowserSession(inject('dynamoEndpoint'));
  }, 60_000);
  afterAll(() => closeBrowserSession(session));
  const started = () => {
    if (!session) throw new Error('the dev stack and browser did not start');
    return session;
  };
  return {
    get stack() {
      return started().stack;
    },
    get page() {
      return started().page;
    },
  };
}
