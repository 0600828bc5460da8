import { existsSync } from 'node:fs';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { type DevStack, startDevStack } from '../../../local/dev-stack.ts';

// Debian's chromium, driven by playwright-core: no browser download. `.ci/run` installs it;
// CHROMIUM_PATH points elsewhere (e.g. a Chrome on macOS).
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The dev stack (`npm run dev`) and one browser page to drive its local Slack page. */
export interface BrowserSession {
  stack: DevStack;
  browser: Browser;
  page: Page;
}

/** Starts the dev stack and chromium side by side, and opens one page. */
export async function openBrowserSession(): Promise<BrowserSession> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`,
    );
  }
  const [stack, browser] = await Promise.all([
    startDevStack({ dynamoEndpoint: inject('dynamoEndpoint') }),
    chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }),
  ]);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(15_000);
  return { stack, browser, page };
}

/** Closes what `openBrowserSession` started; safe when it failed part-way. */
export async function closeBrowserSession(session: BrowserSession | undefined): Promise<void> {
  await session?.browser.close();
  await session?.stack.stop();
}

/**
 * One dev stack and browser page for all the tests of the calling file (its `beforeAll` / `afterAll`
 * hooks are registered here); read `stack` and `page` inside a test.
 */
export function browserSessionForFile(): Pick<BrowserSession, 'stack' | 'page'> {
  let session: BrowserSession | undefined;
  beforeAll(async () => {
    session = await openBrowserSession();
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

/** The message whose ts is `ts`, as the page shows it. */
export const messageAt = (page: Page, ts: string) => page.locator(`.message[data-ts="${ts}"]`);

/** Types `text` in the message box and sends it. */
export async function send(page: Page, text: string) {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
}

/** The newest top-level message that contains `text`, and its ts. */
export async function newestWith(
  page: Page,
  text: string | RegExp,
): Promise<{ message: Locator; ts: string }> {
  const message = page.locator('#timeline > .message').filter({ hasText: text }).last();
  await message.waitFor();
  const ts = await message.getAttribute('data-ts');
  if (!ts) throw new Error('message without data-ts');
  return { message: messageAt(page, ts), ts };
}
