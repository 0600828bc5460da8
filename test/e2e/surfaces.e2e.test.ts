import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEV_CHANNELS, DEV_USERS } from '../../local/dev-stack.ts';
import { triggerId } from '../../local/fake-slack/payloads.ts';
import { browserSessionForFile, newestWith, openPage, send, webApi } from './support/browser.ts';

// The surfaces beyond the slash command, driven as a person would in the local Slack page: the Home
// tab, the search modal, the shortcuts menu and message actions, and event-link unfurls. Same runner
// as tour.e2e.test.ts: Debian's chromium through playwright-core, no browser download.

/** A seeded event (simulator/seed-data.ts), linked as the service's web app links it. */
const EVENT_LINK = 'https://app.lensmor.com/events/26855';

describe('the local Slack page beyond the slash command', () => {
  const browser = browserSessionForFile();

  it('opens Home, searches from its modal (a bad date range is refused in the modal), and shares the results', async () => {
    const { page, stack } = browser;
    // Prepare
    await openPage(page, stack);

    // Act: the Home tab, published by the app when the user opens it
    await page.locator('#home-entry').click();
    const home = page.locator('#home .home-view');
    await home.waitFor();
    await expect(home.textContent()).resolves.toMatch(/credit/i);
    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/surfaces-e2e-home.png' });

    // The search modal, from the Home's Search button (block_actions from a view, then views.open)
    await home
      .getByRole('button', { name: /Search/ })
      .first()
      .click();
    const modal = page.getByRole('dialog', { name: 'Search events' });
    await modal.waitFor();
    await modal.getByLabel('Country').fill('Germany');
    await modal.getByLabel('Show the results in').selectOption(DEV_CHANNELS.events);
    await modal.getByLabel('Starting on or after').fill('2027-06-01');
    await modal.getByLabel('Starting on or before').fill('2027-01-01');
    await modal.getByRole('button', { name: 'Search', exact: true }).click();

    // Assess: the app's field errors show under the field, and the modal stays open
    await modal.locator('.field-error').first().waitFor();
    await page.screenshot({ path: 'test-results/surfaces-e2e-modal.png' });
    await expect(modal.locator('.field-error').count()).resolves.toBeGreaterThan(0);
    // What the user typed survives the redraw.
    await expect(modal.getByLabel('Country').inputValue()).resolves.toBe('Germany');

    // Act: fix the range and search
    await modal.getByLabel('Starting on or before').fill('');
    await modal.getByLabel('Starting on or after').fill('');
    await modal.getByRole('button', { name: 'Search', exact: true }).click();
    await modal.waitFor({ state: 'detached' });

    // Assess: the results, only to the user in the channel picked, then shared
    await page.getByRole('button', { name: '# events' }).click();
    const found = await newestWith(page, /Page 1 of/);
    await expect(found.message.textContent()).resolves.toContain('Only visible to you');
    await found.message.getByRole('button', { name: 'Share in channel' }).click();
    const shared = await newestWith(page, /Shared by/);
    await expect(shared.message.textContent()).resolves.not.toContain('Only visible to you');
    await expect(page.locator('.warnings').count()).resolves.toBe(0);
  }, 60_000);

  it('unfurls a pasted event link into a fit card whose buttons work like a message’s', async () => {
    const { page, stack } = browser;
    // Prepare
    await openPage(page, stack);
    await page.getByRole('button', { name: '# general' }).click();

    // Act
    await send(page, `see ${EVENT_LINK}`);

    // Assess: the message, with the app's card under it
    const posted = await newestWith(page, 'app.lensmor.com/events/26855');
    const card = posted.message.locator('.unfurl');
    await card.filter({ hasText: /Fit \d+\.\d \/ 10/ }).waitFor();
    await expect(card.getByRole('link').count()).resolves.toBe(0);
    await expect(posted.message.locator('.warnings').count()).resolves.toBe(0);

    // Act: a button on the card (block_actions from the unfurl)
    await card.getByRole('button', { name: 'Fit details' }).click();

    // Assess: as for a button on any message everyone sees, the answer arrives in its thread
    await posted.message
      .locator('.thread .message')
      .filter({ hasText: /Fit \d+\.\d \/ 10/ })
      .first()
      .waitFor();

    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/surfaces-e2e-unfurl.png' });
  }, 60_000);

  it('runs a message action from a message’s ⋯ menu and a global shortcut from ⚡', async () => {
    const { page, stack } = browser;
    // Prepare
    await openPage(page, stack);
    await page.getByRole('button', { name: '# general' }).click();
    await send(page, 'Has anyone looked at Acme Analytics?');
    const message = await newestWith(page, 'Acme Analytics?');

    // Act: ⋯ → Research company
    await message.message.hover();
    await message.message.getByRole('button', { name: 'More actions' }).first().click();
    await page.getByRole('menuitem', { name: 'Research company' }).click();

    // Assess: the modal, prefilled from the message
    const research = page.getByRole('dialog', { name: /Research/ });
    await research.waitFor();
    await expect(research.getByLabel(/Company/).inputValue()).resolves.toContain('Acme Analytics');
    await research.getByRole('button', { name: 'Cancel' }).click();
    await research.waitFor({ state: 'detached' });

    // Act: ⚡ → Search events
    await page.getByRole('button', { name: 'Shortcuts' }).click();
    await page.getByRole('menuitem', { name: 'Search events' }).click();

    // Assess: the modal, with the channel being viewed already picked (default_to_current_conversation)
    const search = page.getByRole('dialog', { name: 'Search events' });
    await search.waitFor();
    await expect(search.getByLabel('Show the results in').inputValue()).resolves.toBe(DEV_CHANNELS.general);
    await page.keyboard.press('Escape');
    await search.waitFor({ state: 'detached' });
  }, 60_000);

  it('sets a channel’s digest from its settings modal (time picker, zone select), then shows it on Home', async () => {
    const { page, stack } = browser;
    // Prepare
    await openPage(page, stack);
    await page.getByRole('button', { name: '# events' }).click();

    // Act: `/events digest on` alone opens the settings
    await send(page, '/events digest on');
    const modal = page.getByRole('dialog', { name: 'Daily digest' });
    await modal.waitFor();
    await expect(modal.getByLabel('Time of day').inputValue()).resolves.toBe('09:00');
    await modal.getByLabel('Time of day').fill('08:30');
    await modal.getByLabel('Time zone').selectOption('Europe/Berlin');
    await modal.getByLabel('Keywords').fill('healthcare');
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.waitFor({ state: 'detached' });

    // Assess: the Home lists it
    await page.locator('#home-entry').click();
    await page
      .locator('#home .home-view')
      .filter({ hasText: /08:30/ })
      .filter({ hasText: 'Europe/Berlin' })
      .waitFor();
  }, 60_000);

  it('shows the channel’s plan in its canvas tab, kept current as shows are added and removed', async () => {
    const { page, stack } = browser;
    // Prepare
    await openPage(page, stack);
    await page.getByRole('button', { name: '# events' }).click();
    const canvasTab = page.locator('#channel-tabs [data-tab="canvas"]');
    const canvas = page.locator('#canvas .canvas-doc');

    // The shows' names carry the year they open in, which follows the simulator's today.
    const nameOf = (eventId: string) => stack.sim.events.find((e) => e.eventId === eventId)?.name ?? eventId;
    const [first, second] = [nameOf('26855'), nameOf('26888')];

    // Act: two shows added, then one removed (a command opens Messages; the canvas tab is clicked again)
    await send(page, '/events plan add 26855');
    await canvasTab.click();
    await canvas.filter({ hasText: first }).waitFor();
    await send(page, '/events plan add 26888');
    await canvasTab.click();
    await canvas.filter({ hasText: second }).waitFor();
    await send(page, '/events plan remove 26855');
    await canvasTab.click();

    // Assess: one canvas for the channel, holding only what the plan holds now
    await canvas.filter({ hasNotText: first }).waitFor();
    await expect(canvasTab.count()).resolves.toBe(1);
    await expect(canvas.locator('h2').allTextContents()).resolves.toContain(second);
  }, 60_000);

  it('renders every input kind a modal may hold, refuses empty required fields, and warns of Block Kit limits', async () => {
    const { page, stack } = browser;
    // Prepare: a modal opened straight through the Web API, with two mistakes in it
    await openPage(page, stack);
    const option = (value: string) => ({ text: { type: 'plain_text', text: `Option ${value}` }, value });
    const input = (blockId: string, element: Record<string, unknown>, optional = true) => ({
      type: 'input',
      block_id: blockId,
      optional,
      label: { type: 'plain_text', text: `Field ${blockId}` },
      element: { action_id: 'value', ...element },
    });
    const opened = await webApi(stack, 'views.open', {
      trigger_id: triggerId(DEV_USERS.alice.id),
      view: {
        type: 'modal',
        callback_id: 'local.kitchen-sink',
        title: { type: 'mrkdwn', text: 'Every input' },
        submit: { type: 'plain_text', text: 'Send' },
        blocks: [
          input('text', { type: 'plain_text_input' }, false),
          input('notes', { type: 'plain_text_input', multiline: true, initial_value: 'first line' }),
          input('one', { type: 'static_select', options: [option('a'), option('b')] }),
          input('many', { type: 'multi_static_select', options: [option('a'), option('b')] }),
          input('day', { type: 'datepicker', initial_date: '2027/01/01' }),
          input('time', { type: 'timepicker', initial_time: '09:30' }),
          input('boxes', { type: 'checkboxes', options: [option('a'), option('b')] }),
          input('radio', { type: 'radio_buttons', options: [option('a'), option('b')] }),
          input('where', { type: 'conversations_select' }),
          input('channel', { type: 'channels_select' }),
        ],
      },
    });
    expect(opened).toMatchObject({ ok: true });

    // Assess: each control, and the warnings
    const modal = page.getByRole('dialog', { name: 'Every input' });
    await modal.waitFor();
    await expect(modal.getByRole('alert').first().textContent()).resolves.toMatch(
      /modal title must be plain_text.*initial_date must be YYYY-MM-DD/,
    );
    await expect(modal.getByLabel('Field notes').inputValue()).resolves.toBe('first line');
    await expect(modal.getByLabel('Field time').inputValue()).resolves.toBe('09:30');
    await modal.getByLabel('Field one').selectOption('b');
    await modal.getByLabel('Field many').selectOption(['a', 'b']);
    await modal.getByLabel('Field day').fill('2027-03-04');
    await modal.getByRole('group', { name: 'Field boxes' }).getByLabel('Option b').check();
    await modal.getByRole('radiogroup', { name: 'Field radio' }).getByLabel('Option a').check();
    await modal.getByLabel('Field where').selectOption(DEV_CHANNELS.events);
    await expect(modal.getByLabel('Field channel').locator('option').allTextContents()).resolves.toContain(
      '# general',
    );

    // Act: the required text field is empty
    await modal.getByRole('button', { name: 'Send' }).click();

    // Assess: refused in the modal, as Slack's client does; nothing was sent to the app
    const error = modal.locator('[data-block-id="text"] .field-error');
    await expect(error.textContent()).resolves.toBe('Please complete this required field.');
    await expect(modal.getByLabel('Field one').inputValue()).resolves.toBe('b');

    // Act: Close
    await modal.getByRole('button', { name: 'Cancel' }).click();

    // Assess
    await modal.waitFor({ state: 'detached' });
    expect(stack.slack.modal(DEV_USERS.alice.id)).toBeUndefined();
  }, 60_000);
});
