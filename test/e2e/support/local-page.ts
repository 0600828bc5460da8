import { existsSync } from 'node:fs';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { type DevStack, startDevStack } from '../../../local/dev-stack.ts';

// The local Slack page (`npm run dev`) driven in Debian's chromium through playwright-core, with no
// browser download, and every selector the browser walks use: one place to change when the page
// changes. No vitest here: the screenshot script (test/e2e/docs-screenshot.ts) walks the page too.

// `.ci/run` installs chromium; CHROMIUM_PATH points elsewhere (e.g. a Chrome on macOS).
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

/**
 * Starts the dev stack and chromium side by side, and opens one page. Without `dynamoEndpoint` the
 * stack starts a DynamoDB Local of its own.
 */
export async function openBrowserSession(dynamoEndpoint?: string): Promise<BrowserSession> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`,
    );
  }
  const [stack, browser] = await Promise.all([
    startDevStack(dynamoEndpoint ? { dynamoEndpoint } : {}),
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

// ---------- where the user is ----------

/** Loads the page and waits until it has drawn the workspace. */
export async function openPage(page: Page, stack: DevStack) {
  await page.goto(stack.slackUrl);
  await page.locator('body[data-ready]').waitFor();
}

/** Opens a channel from the sidebar (`events`, `general`). */
/** Calls the local Slack's Web API as the bot does. */
export async function webApi(stack: DevStack, method: string, args: Record<string, unknown>) {
  const response = await fetch(`${stack.slack.apiUrl}${method}`, {
    method: 'POST',
    headers: { authorization: 'Bearer xoxb-local-dev', 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  return (await response.json()) as { ok: boolean; error?: string };
}

export const goToChannel = (page: Page, name: string) =>
  page.getByRole('button', { name: `# ${name}`, exact: true }).click();

/** Switches the current user in the sidebar's "Current user" switch (`Alice`, `Bob`…). */
export const switchUser = (page: Page, name: string | RegExp) =>
  page.getByRole('radiogroup', { name: 'Current user' }).getByRole('radio', { name }).click();

/** Opens the app's Home tab (the page sends `app_home_opened`); the view the app published. */
export async function openHome(page: Page): Promise<Locator> {
  await page.locator('#home-entry').click();
  await page.getByRole('tab', { name: 'Home' }).click();
  const home = page.locator('#home .home-view');
  await home.waitFor();
  return home;
}

/** Opens the app's Messages tab: the direct messages with the app. */
export async function openAppMessages(page: Page) {
  await page.locator('#home-entry').click();
  await page.getByRole('tab', { name: 'Messages' }).click();
}

// ---------- the composer and messages ----------

/** The composer's help, shown as you type a command. */
export const composerHelp = (page: Page) => page.locator('#help');

/** Types `text` in the message box and sends it. */
export async function send(page: Page, text: string) {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
}

/** The message whose ts is `ts`, as the page shows it. */
export const messageAt = (page: Page, ts: string) => page.locator(`.message[data-ts="${ts}"]`);

/** The channel's top-level messages (not thread replies) that contain `text`. */
export const messagesWith = (page: Page, text: string | RegExp) =>
  page.locator('#timeline > .message').filter({ hasText: text });

/**
 * The newest top-level message that contains `text`, and its ts. Found by its ts from then on, so
 * the locator still finds the message after the app rewrites its text.
 */
export async function newestWith(
  page: Page,
  text: string | RegExp,
): Promise<{ message: Locator; ts: string }> {
  const message = messagesWith(page, text).last();
  await message.waitFor();
  const ts = await message.getAttribute('data-ts');
  if (!ts) throw new Error('message without data-ts');
  return { message: messageAt(page, ts), ts };
}

/** The sections of a message (a list's rows) that contain `text`. */
export const sectionsWith = (message: Locator, text: string | RegExp) =>
  message.locator('.block-section').filter({ hasText: text });

/** The ids a message shows as code (`27317`), in order: a list's show ids. */
export const idsShown = async (message: Locator) =>
  (await message.locator('code').allTextContents()).filter((text) => /^\d+$/.test(text));

/** The message that shows the image with `alt` text. */
export const messageWithImage = (page: Page, alt: string) =>
  page.locator('.message', { has: page.getByAltText(alt) });

/** The dividers drawn in a message. */
export const dividers = (message: Locator) => message.locator('.block-divider');

/** The replies in a message's thread that contain `text`. */
export const threadReply = (message: Locator, text: string | RegExp) =>
  message.locator('.thread .message').filter({ hasText: text });

/** The Block Kit warnings the page shows on what it draws (none, when the app keeps Slack's limits). */
export const blockKitWarnings = (page: Page) => page.locator('.warnings');

// ---------- money ----------

/** A number of credits as the page writes it ("20,000"). */
export const credits = (text: string | null) => Number((text ?? '').replace(/[^\d]/g, ''));

/** The service account's balance in the side panel. */
export const balance = async (page: Page) => credits(await page.locator('#balance').textContent());

/** Waits until the side panel shows `expected` credits. */
export const balanceShows = (page: Page, expected: number) =>
  page.locator('#balance', { hasText: new RegExp(`^${expected.toLocaleString('en-US')}$`) }).waitFor();

/** The price a confirmation card quotes ("Price: 2,000 credits", "Price: up to 30 credits"). */
export async function quotedPrice(card: Locator): Promise<number> {
  const text = (await card.textContent()) ?? '';
  return credits(/Price: (?:up to )?([\d,]+) credits/.exec(text)?.[1] ?? null);
}

/** Clicks Confirm on a confirmation card and accepts Slack's "are you sure" dialog. */
export async function confirmSpend(page: Page, card: Locator): Promise<string> {
  await card.getByRole('button', { name: 'Confirm' }).click();
  const dialog = page.getByRole('dialog');
  const asked = (await dialog.textContent()) ?? '';
  await dialog.getByRole('button', { name: /^Spend/ }).click();
  return asked;
}

// ---------- the canvas and the side panel ----------

/** The channel's canvases as the page shows them above its messages. */
export const canvas = (page: Page) => page.locator('#canvas .canvas-doc');

/**
 * Clicks the side panel's "A new exhibitor appears" and returns what the page says it did (after
 * `previous`, what it said the last time, is gone).
 */
export async function newExhibitorAppears(page: Page, previous?: string): Promise<string> {
  await page.getByRole('button', { name: 'A new exhibitor appears' }).click();
  let result = page.getByRole('status').filter({ hasText: 'now exhibits at' });
  if (previous) result = result.filter({ hasNotText: previous });
  await result.waitFor();
  return (await result.textContent()) ?? '';
}

/** Clicks "Run now" for a scheduled job (`check-watches`, `send-digests`…). */
export const runNow = (page: Page, job: string) =>
  page.getByRole('button', { name: `Run now: ${job}` }).click();

/** What the side panel says the last "Run now" did. */
export const jobResult = (page: Page) => page.locator('#job-result');
