import { existsSync, mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../src/store/keys.ts';
import { createDocumentClient } from '../../src/store/table.ts';
import { browserSessionForFile, newestWith, send } from './support/browser.ts';
import { CONFIRMATION_WORDS } from '../../src/slack/kit/confirmation-card.ts';

// Driven in Debian's chromium through playwright-core (test/e2e/support/browser.ts).
const BIG_EVENT = '26855';
const DOCS_SCREENSHOT = 'docs/dev-page.png';

const credits = (text: string | null) => Number((text ?? '').replace(/[^\d]/g, ''));

/** Clicks Confirm on a confirmation card and accepts Slack's confirm dialog. */
async function confirmSpend(page: Page, card: Locator) {
  await card.getByRole('button', { name: 'Confirm' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.textContent()).resolves.toContain('This spends');
  await dialog.getByRole('button', { name: /^Spend/ }).click();
}

describe('npm run dev in a browser', () => {
  const browser = browserSessionForFile();

  it('shows the fit card, charges the exact price on a confirmed unlock, and posts email results in the thread', async () => {
    const { page, stack } = browser;
    // Prepare
    await page.goto(stack.slackUrl);
    await page.locator('body[data-ready]').waitFor();
    const balanceBefore = credits(await page.locator('#balance').textContent());
    expect(balanceBefore).toBe(20_000);

    // The help shows as you type.
    await page.getByRole('textbox', { name: 'Message' }).fill('/events fi');
    await expect(page.locator('#help').textContent()).resolves.toContain('/events fit <event_id>');

    // Act: the fit card
    await send(page, `/events fit ${BIG_EVENT}`);
    const fit = await newestWith(page, /Fit \d+\.\d \/ 10/);
    const score = (await fit.message.textContent())?.match(/Fit (\d+\.\d) \/ 10/)?.[1];
    expect(Number(score)).toBeGreaterThan(0);
    await expect(page.getByText('Only visible to you').first().isVisible()).resolves.toBe(true);

    // Unlock: a confirmation card with the price, nothing charged yet
    await fit.message.getByRole('button', { name: 'Unlock event' }).click();
    const confirmation = await newestWith(page, CONFIRMATION_WORDS.heading);
    const price = credits(
      (await confirmation.message.textContent())?.match(/Price: ([\d,]+) credits/)?.[1] ?? null,
    );
    expect(price).toBeGreaterThan(0);
    expect(credits(await page.locator('#balance').textContent())).toBe(balanceBefore);

    await confirmSpend(page, confirmation.message);

    // Assess: the card is updated in place, and the balance drops by exactly the price
    await confirmation.message.filter({ hasText: 'Done' }).filter({ hasText: '(edited)' }).waitFor();
    const expected = (balanceBefore - price).toLocaleString('en-US');
    await page.locator('#balance', { hasText: new RegExp(`^${expected}$`) }).waitFor();

    // Act: email unlocks, whose results arrive later in the card's thread (the poll timer)
    await send(page, '/events emails 100001 100002');
    const emails = await newestWith(page, CONFIRMATION_WORDS.heading);
    expect(emails.ts).not.toBe(confirmation.ts);
    await confirmSpend(page, emails.message);

    // Assess
    const reply = emails.message
      .locator('.thread .message')
      .filter({ hasText: /unlocked of 2/ })
      .filter({ hasText: /[\w.+-]+@[\w-]+\.\w+/ });
    await reply.waitFor({ timeout: 45_000 });
    // The poller then rewrites the card's status line in place.
    await emails.message.filter({ hasNotText: 'will arrive' }).waitFor();
    await expect(page.locator('.warnings').count()).resolves.toBe(0);

    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/dev-e2e.png' });
    // The README's picture is a tracked file: written when missing or asked for, not on every run.
    if (!existsSync(DOCS_SCREENSHOT) || process.env.UPDATE_SCREENSHOTS === '1') {
      mkdirSync('docs', { recursive: true });
      await page.screenshot({ path: DOCS_SCREENSHOT });
    }
  }, 110_000);

  it('keeps look-ups private until shared, answers a shared card in its thread, and closes an expired card', async () => {
    const { page, stack } = browser;
    // Prepare
    await page.goto(stack.slackUrl);
    await page.locator('body[data-ready]').waitFor();

    // Act: a search only the user sees, then shared with the channel
    await send(page, '/events search country:Germany');
    const found = await newestWith(page, /Page 1 of/);
    await expect(found.message.textContent()).resolves.toContain('Only visible to you');
    await found.message.getByRole('button', { name: 'Share in channel' }).click();
    const shared = await newestWith(page, /Shared by/);
    await expect(shared.message.textContent()).resolves.not.toContain('Only visible to you');

    // A shared fit card's button answers in the card's thread
    await send(page, `/events fit ${BIG_EVENT}`);
    const fit = await newestWith(page, /Fit \d+\.\d \/ 10/);
    await fit.message.getByRole('button', { name: 'Share in channel' }).click();
    const sharedFit = page
      .locator('#timeline > .message')
      .filter({ hasText: 'Shared by' })
      .filter({ hasText: /Fit \d+\.\d \/ 10/ })
      .last();
    await sharedFit.getByRole('button', { name: 'Exhibitors' }).first().click();
    await sharedFit
      .locator('.thread .message')
      .filter({ hasText: /Exhibitors/ })
      .first()
      .waitFor();

    // A confirmation left to expire is closed by the scheduled sweep: no buttons, "Start again"
    await send(page, '/events unlock 8453');
    const card = await newestWith(page, CONFIRMATION_WORDS.heading);
    await card.message.getByRole('button', { name: 'Confirm' }).waitFor();
    const client = createDocumentClient({ endpoint: stack.dynamoEndpoint });
    const stored = stack.slack.messages().find((message) => message.ts === card.ts);
    const id = /confirmationId\\":\\"([^\\"]+)/.exec(JSON.stringify(stored?.blocks ?? []))?.[1];
    if (!id) throw new Error('no confirmation id on the card');
    await client.send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: keys.confirmation(id),
        UpdateExpression: 'SET deadline = :past, dueAt = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    await stack.runPoll();

    // Assess
    await card.message.filter({ hasText: 'Expired' }).waitFor();
    await expect(card.message.getByRole('button', { name: 'Confirm' }).count()).resolves.toBe(0);
    await expect(card.message.getByRole('button', { name: 'Start again' }).count()).resolves.toBe(1);
  }, 90_000);

  it('shows a visible warning on a message that breaks Block Kit limits, and renders images and dividers', async () => {
    const { page, stack } = browser;
    // Prepare: a message as a careless bot might send it, straight to the local Slack's Web API
    const blocks = [
      { type: 'header', text: { type: 'plain_text', text: 'x'.repeat(151) } },
      { type: 'divider' },
      { type: 'image', image_url: `${stack.slackUrl}/none.png`, alt_text: 'a chart' },
      { type: 'context', elements: [] },
    ];

    // Act
    const response = await fetch(`${stack.slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: 'Bearer xoxb-local-dev', 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'C0EVENTS', text: 'careless', blocks }),
    });

    // Assess
    expect(await response.json()).toMatchObject({ ok: true });
    await page.getByRole('button', { name: '# events' }).click();
    const warning = page.locator('.message', { has: page.getByAltText('a chart') }).getByRole('alert');
    await expect(warning.textContent()).resolves.toMatch(/header text over 150.*context needs 1-10 elements/);
    await expect(page.locator('.block-divider').count()).resolves.toBe(1);
    await expect(page.getByAltText('a chart').count()).resolves.toBe(1);
  });
});
