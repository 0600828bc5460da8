import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEV_CHANNELS } from '../../local/dev-stack.ts';
import { browserSessionForFile, newestWith, openPage, send, webApi } from './support/browser.ts';

// What Slack shows besides messages, on the local page: the files the app shares (name, size, a
// download) in the conversation they were shared in, and canvases drawn as documents in a channel tab.
// Same runner as tour.e2e.test.ts: Debian's chromium through playwright-core.

describe('the local Slack page shows files and canvases as Slack does', () => {
  const browser = browserSessionForFile();

  it('shows the plan’s CSV in the DM with the app (name, size, download) and its canvas as a document in a tab', async () => {
    const { page, stack } = browser;
    // Prepare
    await openPage(page, stack);

    // Act: a show planned (the app writes the channel's canvas), then the plan exported
    await send(page, '/events plan add 26855');
    await newestWith(page, /Added .+ to this channel’s plan/);
    await send(page, '/events plan export');
    await newestWith(page, 'The file is in your direct messages with the app');

    // Assess: the file is in the DM, as the answer says, with its name, size and a download
    await page.locator('#home-entry').click();
    await page.getByRole('tab', { name: 'Messages' }).click();
    const file = page.locator('#timeline .file').first();
    await file.waitFor();
    // Named for the channel as people know it (#general), not its id
    await expect(file.locator('.file-name').textContent()).resolves.toBe('plan-general.csv');
    await expect(file.locator('.file-title').textContent()).resolves.toBe('Plan of #general');
    await expect(file.locator('.file-size').textContent()).resolves.toMatch(/^\d+(\.\d)? (B|KB)$/);
    const download = page.waitForEvent('download');
    await file.getByRole('link', { name: /^Download/ }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('plan-general.csv');
    const href = await file.locator('.file-title').getAttribute('href');
    const csv = await (await fetch(`${stack.slackUrl}${href ?? ''}`)).text();
    expect(csv.split('\n')[0]).toContain('event');
    expect(csv).toContain('26855');

    // The channel's canvas: a tab beside Messages, drawn as a document (no raw markdown)
    await page.getByRole('button', { name: '# general' }).click();
    const tab = page.locator('#channel-tabs [data-tab="canvas"]');
    await tab.click();
    const canvas = page.locator('#canvas .canvas-doc');
    await expect(canvas.locator('h1').first().textContent()).resolves.toBe('Event plan');
    await expect(canvas.locator('h2').count()).resolves.toBeGreaterThan(0);
    await expect(canvas.locator('ul > li').count()).resolves.toBeGreaterThan(0);
    await expect(canvas.textContent()).resolves.not.toMatch(/(^|\n)#+ /);
    await expect(page.locator('#timeline').isHidden()).resolves.toBe(true);
    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/documents-e2e-canvas.png' });

    // Run now says what the job did in words (the command to try drawn as code)
    await page.getByRole('button', { name: 'Run now: send-digests' }).click();
    const said = page.locator('#job-result', {
      hasText:
        'send-digests: No digest due: no channel has a digest. /events digest on 08:00 in a channel starts one.',
    });
    await said.waitFor();
    await expect(said.locator('code').textContent()).resolves.toBe('/events digest on 08:00');

    // A command typed on the canvas tab opens Messages to show its answer
    await send(page, '/events credits');
    await newestWith(page, /credits/);
    await expect(page.locator('#canvas').isHidden()).resolves.toBe(true);
  }, 60_000);

  it('draws a canvas’s tables, nested and numbered lists, and inline marks; its markup stays text', async () => {
    const { page, stack } = browser;
    // Prepare: a canvas tab in #events as the app would write one
    const created = await webApi(stack, 'canvases.create', {
      channel_id: DEV_CHANNELS.events,
      title: 'Shows by quarter',
      document_content: {
        type: 'markdown',
        markdown: [
          '# Q2 2027',
          '| Show | City | Credits |',
          '|---|---|---:|',
          '| **Money20/20** | Amsterdam | 1,200 |',
          '| Sibos \\| Europe | Frankfurt | 800 |',
          '',
          '1. Book the booth',
          '2. Invite `top accounts`',
          '   - with a [link](https://example.com/x)',
          '- [x] budget set',
          '<img src=x onerror="window.hacked=1">',
        ].join('\n'),
      },
    });
    expect(created.ok).toBe(true);

    // Act
    await openPage(page, stack);
    await page.getByRole('button', { name: '# events' }).click();
    await page.getByRole('tab', { name: /Shows by quarter/ }).click();

    // Assess
    const canvas = page.locator('#canvas .canvas-doc');
    await expect(canvas.locator('h1').nth(1).textContent()).resolves.toBe('Q2 2027');
    await expect(canvas.locator('th').allTextContents()).resolves.toEqual(['Show', 'City', 'Credits']);
    await expect(canvas.locator('tbody tr').nth(1).locator('td').first().textContent()).resolves.toBe(
      'Sibos | Europe',
    );
    await expect(canvas.locator('tbody strong').textContent()).resolves.toBe('Money20/20');
    await expect(canvas.locator('ol > li').count()).resolves.toBe(2);
    await expect(canvas.locator('ol > li code').textContent()).resolves.toBe('top accounts');
    await expect(canvas.locator('ol > li > ul > li a').getAttribute('href')).resolves.toBe(
      'https://example.com/x',
    );
    await expect(canvas.locator('li.canvas-check input[type="checkbox"]').isChecked()).resolves.toBe(true);
    await expect(canvas.locator('img').count()).resolves.toBe(0);
    await expect(canvas.textContent()).resolves.toContain('<img src=x');
  }, 60_000);

  it('scrolls the answer to a command into view when the user was reading far up a long channel', async () => {
    const { page, stack } = browser;
    // Prepare: a long #events, read from its top
    for (let n = 1; n <= 40; n++)
      await webApi(stack, 'chat.postMessage', { channel: DEV_CHANNELS.events, text: `Older message ${n}` });
    await openPage(page, stack);
    await page.getByRole('button', { name: '# events' }).click();
    await page.locator('#timeline .message', { hasText: 'Older message 40' }).waitFor();
    await page.locator('#timeline .message').first().scrollIntoViewIfNeeded();
    await expect(inView(page, page.locator('#timeline .message').last())).resolves.toBe(false);

    // Act
    await send(page, '/events credits');

    // Assess: the answer is in the timeline's view, marked as the answer
    const answer = page.locator('#timeline > .message').filter({ hasText: /credits available/ });
    await answer.waitFor();
    // Shown as it arrives: the page scrolls it in at the render that finds it new.
    await expect.poll(() => inView(page, answer)).toBe(true);
    await expect(answer.getAttribute('class')).resolves.toContain('answer');
  }, 60_000);
});

/** Whether `message` is within the timeline's visible area. */
async function inView(page: Page, message: Locator): Promise<boolean> {
  const [timeline, box] = await Promise.all([page.locator('#timeline').boundingBox(), message.boundingBox()]);
  if (!timeline || !box) return false;
  return box.y >= timeline.y - 1 && box.y + box.height <= timeline.y + timeline.height + 1;
}
