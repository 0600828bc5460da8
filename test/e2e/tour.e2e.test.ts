import { mkdirSync, readFileSync } from 'node:fs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import type { DevStack } from '../../local/dev-stack.ts';
import { KNOWN_COMPANY_NAME } from '../../simulator/server.ts';
import { REGIONS } from '../../src/domain/regions.ts';
import { CONFIRMATION_WORDS } from '../../src/slack/kit/confirmation-card.ts';
import { keys } from '../../src/store/keys.ts';
import { createDocumentClient } from '../../src/store/table.ts';
import {
  balance,
  balanceShows,
  blockKitWarnings,
  browserSessionForFile,
  canvas,
  composerHelp,
  confirmSpend,
  dividers,
  goToChannel,
  idsShown,
  jobResult,
  messagesWith,
  messageWithImage,
  newestWith,
  newExhibitorAppears,
  openAppMessages,
  openHome,
  openPage,
  quotedPrice,
  runNow,
  sectionsWith,
  send,
  switchUser,
  threadReply,
} from './support/browser.ts';

// The tour of docs/using.md ("Tour"), step by step, on the local Slack page in headless chromium:
// one dev stack and one page for the whole walk, each step a test that starts where the last one
// left the page.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * The calendar quarter after next from `today` (the simulator's, YYYY-MM-DD: its shows are dated from
 * the day it started, which near a quarter's end need not be this process's), as `when:` takes it, its
 * first day and its months in a row's dates.
 */
function quarterAfterNext(today: string) {
  const index = Number(today.slice(0, 4)) * 4 + Math.floor((Number(today.slice(5, 7)) - 1) / 3) + 2;
  const [year, quarter] = [Math.floor(index / 4), index % 4];
  return {
    when: `Q${quarter + 1}-${year}`,
    firstDay: `${year}-${String(quarter * 3 + 1).padStart(2, '0')}-01`,
    months: new RegExp(`\\b(${MONTHS.slice(quarter * 3, quarter * 3 + 3).join('|')}) ${year}\\b`),
  };
}

/**
 * What the Tour (docs/using.md) names, so the walk and the doc stay in step: the show step 4 plans,
 * and the quarter its example names for the month it gives ("in December 2026 that is `Q2-2027`").
 */
const TOUR = (() => {
  const doc = readFileSync(new URL('../../docs/using.md', import.meta.url), 'utf8');
  const tour = doc.slice(doc.indexOf('## Tour'), doc.indexOf('## What is where'));
  const planned = /`\/events plan add (\d+)`/.exec(tour)?.[1];
  const example = /in (\w+) (\d{4}) that is `(Q[1-4]-\d{4})`/.exec(tour);
  if (!planned || !example) throw new Error('the Tour names no show to plan, or no example quarter');
  const [, month = '', year = '', quarter = ''] = example;
  const monthIndex = MONTHS.findIndex((name) => month.startsWith(name));
  return {
    tour,
    planned,
    exampleQuarter: quarter,
    exampleToday: `${year}-${String(monthIndex + 1).padStart(2, '0')}-15`,
  };
})();

/** The seeded event every step may name (simulator/seed-data.ts). */
const BIG_EVENT = '26855';
const COMPARED = ['26855', '26888', '27317'];
const FIT = /Fit \d+\.\d \/ 10/;
/** A row's place ends with its country, one of Europe's as the region table has them. */
const EUROPE = new RegExp(`, (${REGIONS.Europe.join('|')})\\b`);
/** An alert of the channel's watch: each of its rows says who will exhibit where. */
const ALERT = '(target) will exhibit at';
/** A quarter as a card writes it ("Q1 2027"), and as a command takes it ("Q1-2027"). */
const QUARTER = /\b(Q[1-4]) (\d{4})\b/;

/** Closes a confirmation card's deadline now, as 15 minutes passing would; the sweep then expires it. */
async function expireConfirmation(stack: DevStack, ts: string) {
  const stored = stack.slack.messages().find((message) => message.ts === ts);
  const id = /confirmationId\\":\\"([^\\"]+)/.exec(JSON.stringify(stored?.blocks ?? []))?.[1];
  if (!id) throw new Error('no confirmation id on the card');
  await createDocumentClient({ endpoint: stack.dynamoEndpoint }).send(
    new UpdateCommand({
      TableName: stack.tableName,
      Key: keys.confirmation(id),
      UpdateExpression: 'SET deadline = :past, dueAt = :past',
      ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
    }),
  );
  await stack.runPoll();
}

describe('the tour of docs/using.md, on the local Slack page', () => {
  const browser = browserSessionForFile();
  /** What a step leaves for the next ones. */
  const walk = { balanceAtStart: 0, spent: 0, appeared: '' };
  // A broken step leaves a picture of the page as it was: test-results/tour-<step>.png.
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    mkdirSync('test-results', { recursive: true });
    await browser.page.screenshot({ path: `test-results/tour-${task.name.split('.')[0]}.png` });
  });

  it('1. fit: help as you type, a private fit card, shared, its buttons answering in its thread', async () => {
    const { page, stack } = browser;
    await openPage(page, stack);
    walk.balanceAtStart = await balance(page);
    expect(walk.balanceAtStart).toBe(20_000);
    await goToChannel(page, 'events');

    // The help shows as you type.
    await page.getByRole('textbox', { name: 'Message' }).fill('/events fi');
    await expect(composerHelp(page).textContent()).resolves.toContain('/events fit <event_id>');

    await send(page, `/events fit ${BIG_EVENT}`);
    const fit = await newestWith(page, FIT);
    const text = (await fit.message.textContent()) ?? '';
    expect(Number(/Fit (\d+\.\d) \/ 10/.exec(text)?.[1])).toBeGreaterThan(0);
    expect(text).toMatch(/Recommended|Consider|Not recommended/);
    expect(text).toContain('Only visible to you');

    // Shared, the card is everyone's, and its buttons answer in its thread.
    await fit.message.getByRole('button', { name: 'Share in channel' }).click();
    const shared = await newestWith(page, 'Shared by');
    await expect(shared.message.textContent()).resolves.toMatch(FIT);
    await expect(shared.message.textContent()).resolves.not.toContain('Only visible to you');
    await shared.message.getByRole('button', { name: 'Exhibitors' }).first().click();
    await threadReply(shared.message, /Exhibitors/)
      .first()
      .waitFor();
    await expect(blockKitWarnings(page).count()).resolves.toBe(0);
  }, 30_000);

  it('2. search by region: shows in Europe matching the words, private until shared', async () => {
    const { page } = browser;
    await send(page, '/events search fintech payments region:Europe');
    const found = await newestWith(page, /Events: fintech payments.*Page 1 of/);
    const text = (await found.message.textContent()) ?? '';
    expect(text).toContain('Only visible to you');
    expect(text).toMatch(/Matches: (fintech|payments)/);
    expect(text).toMatch(EUROPE);
    // Each row names its show's id (`27317`), a show still ahead as one that has ended (marked Past,
    // it cannot be planned).
    const ahead = sectionsWith(found.message, 'Matches:').filter({ hasNotText: 'Past' }).first();
    expect((await idsShown(ahead))[0]).toMatch(/^\d+$/);

    await found.message.getByRole('button', { name: 'Share in channel' }).click();
    const shared = await newestWith(page, /Events: fintech payments.*Shared by/);
    await expect(shared.message.textContent()).resolves.toMatch(/Matches: (fintech|payments)/);
    await expect(shared.message.textContent()).resolves.not.toContain('Only visible to you');
  }, 30_000);

  it('2. search by region and quarter: `when:` the quarter after next finds European fintech shows', async () => {
    const { page, stack } = browser;
    // The Tour's example quarter is the quarter after next of the month it gives, and its commands
    // name that quarter.
    expect(quarterAfterNext(TOUR.exampleToday).when).toBe(TOUR.exampleQuarter);
    expect(TOUR.tour).toContain(`when:${TOUR.exampleQuarter}\``);
    expect(TOUR.tour).toContain(`plan budget 20000 ${TOUR.exampleQuarter}\``);

    const { when, firstDay, months } = quarterAfterNext(stack.sim.today);
    await send(page, `/events search fintech payments region:Europe when:${when}`);
    const found = await newestWith(page, `from:${firstDay}`);
    const text = (await found.message.textContent()) ?? '';
    expect(text).not.toContain('No matches');
    expect(text).toMatch(/Matches: (fintech|payments)/);
    // Every row starts in the quarter's three months, in a European country; the show the Tour plans
    // is among them.
    const rows = sectionsWith(found.message, 'Matches:');
    expect(await rows.count()).toBeGreaterThan(0);
    for (const row of await rows.allTextContents()) {
      expect(row).toMatch(months);
      expect(row).toMatch(EUROPE);
    }
    expect(await idsShown(found.message)).toContain(TOUR.planned);
  }, 30_000);

  it('3. compare: three shows side by side, fit, dates, place and the unlock price, free', async () => {
    const { page } = browser;
    await send(page, `/events compare ${COMPARED.join(' ')}`);
    const card = await newestWith(page, 'Compare 3 shows');
    const text = (await card.message.textContent()) ?? '';
    for (const heading of ['Fit for your profile', 'When', 'Where', 'Exhibitors', 'Unlock (event contacts)'])
      expect(text).toContain(heading);
    for (const id of COMPARED) expect(text).toContain(id);
    expect(text.match(/\d+\.\d \/ 10/g)).toHaveLength(3);
    await expect(card.message.getByRole('button', { name: 'Add to plan' }).count()).resolves.toBe(3);
  }, 30_000);

  it('4. plan: a show added, its quarter given a budget: spent and left', async () => {
    const { page, stack } = browser;
    await send(page, `/events plan add ${TOUR.planned}`);
    const added = await newestWith(page, /Added .* to this channel’s plan/);
    // The plan card names the show's quarter: the quarter after next, which step 2 searched.
    const { when } = quarterAfterNext(stack.sim.today);
    const [q, year] = when.split('-');
    expect(QUARTER.exec((await added.message.textContent()) ?? '')?.slice(1)).toEqual([q, year]);

    // Budgets are the spend approvers' and admins': Bob sets it, then Alice goes on.
    await switchUser(page, /Bob/);
    await send(page, `/events plan budget 20000 ${when}`);
    const budgeted = await newestWith(page, `The budget for ${q} ${year} is 20,000 credits`);
    await expect(budgeted.message.textContent()).resolves.toMatch(
      new RegExp(
        `${q} ${year}: 1 show.*budget 20,000 credits, spent on these shows 0 credits, 20,000 credits left`,
      ),
    );
    await switchUser(page, /Alice/);
  }, 30_000);

  // (On main the canvas is a folded block of markdown; surfaces.e2e checks it follows the plan.)
  it('4. the plan’s canvas: a tab of the channel, drawn as a document, holding the show', async () => {
    const { page } = browser;
    await page.getByRole('tab', { name: /Event plan|Canvas/ }).click();
    const doc = canvas(page);
    await doc.getByRole('heading').first().waitFor();
    await expect(doc.getByRole('table').or(doc.getByRole('list')).count()).resolves.toBeGreaterThan(0);
    const text = (await doc.textContent()) ?? '';
    expect(text).toContain(TOUR.planned);
    expect(text).not.toMatch(/^#+ /m);
    await page.getByRole('tab', { name: /Messages/ }).click();
  }, 30_000);

  it('5. watch: an account added; a new exhibitor appears; the check posts the alert', async () => {
    const { page, stack } = browser;
    await send(page, `/events watch add ${KNOWN_COMPANY_NAME}`);
    await newestWith(page, /now watches 1 more account/);

    // The simulator's data change, said in words, and seen by the service's free endpoint.
    const company = stack.sim.seed.exhibitors.find((x) => x.companyName === KNOWN_COMPANY_NAME);
    if (!company) throw new Error('seed has no known company');
    const eventsBefore = [...company.eventIds];
    const said = await newExhibitorAppears(page);
    const eventId = /\(event (\d+)\)/.exec(said)?.[1];
    const show = stack.sim.events.find((e) => e.eventId === eventId);
    if (!show) throw new Error(`the page named no known event: ${said}`);
    expect(said).toContain(`${KNOWN_COMPANY_NAME} (${company.domain}) now exhibits at ${show.name}`);
    expect(eventsBefore).not.toContain(show.id);
    expect(show.dateStart > stack.sim.today).toBe(true);
    const listed = await fetch(
      `${stack.simulatorUrl}/external/exhibitors/events?exhibitor_id=${company.id}&attendance_scope=exhibitor`,
      { headers: { authorization: `Bearer ${stack.apiKey}` } },
    );
    const items = ((await listed.json()) as { items: { eventId: string }[] }).items;
    expect(items.map((e) => e.eventId)).toContain(eventId);

    // The check finds it: one alert in the channel, naming the account and the show.
    await send(page, '/events watch check');
    await newestWith(page, /1 new appearance/);
    const alert = await newestWith(page, ALERT);
    const text = (await alert.message.textContent()) ?? '';
    expect(text).toContain('A watched account will exhibit');
    expect(text).toContain(`${KNOWN_COMPANY_NAME} (target) will exhibit at ${show.name}`);
    expect(text).toMatch(FIT);
    await alert.message.getByRole('button', { name: /Unlock \d+ emails/ }).waitFor();

    // Another click, another show.
    walk.appeared = await newExhibitorAppears(page, said);
    expect(walk.appeared).not.toContain(`(event ${eventId})`);
    expect(company.eventIds).toHaveLength(eventsBefore.length + 2);
  }, 30_000);

  it('5. Run now: check-watches after another new exhibitor says what it did and posts the alert', async () => {
    const { page } = browser;
    const alerts = messagesWith(page, ALERT);
    const alertsBefore = await alerts.count();
    const said = await newExhibitorAppears(page, walk.appeared);
    const showName = /now exhibits at (.+?), /.exec(said)?.[1] ?? '';
    await runNow(page, 'check-watches');
    await jobResult(page)
      .filter({ hasText: /1 alert posted in #events/ })
      .waitFor();
    await expect(jobResult(page).textContent()).resolves.not.toContain('{');
    // One alert for the check, with this show and the one that appeared at the end of step 5.
    const alert = await newestWith(page, `will exhibit at ${showName}`);
    await expect(alert.message.textContent()).resolves.toMatch(/2 new appearances/);
    await expect(alerts.count()).resolves.toBe(alertsBefore + 1);
  }, 30_000);

  it('6. unlock: a confirmation card, Confirm charges exactly its price once, the results in its thread', async () => {
    const { page, stack } = browser;
    const alert = await newestWith(page, ALERT);
    await alert.message
      .getByRole('button', { name: /Unlock \d+ emails/ })
      .first()
      .click();
    const card = await newestWith(page, CONFIRMATION_WORDS.heading);
    const price = await quotedPrice(card.message);
    expect(price).toBeGreaterThan(0);
    await expect(card.message.textContent()).resolves.toContain(CONFIRMATION_WORDS.canConfirm);
    // Nothing is charged before the confirmation.
    expect(await balance(page)).toBe(walk.balanceAtStart);

    await expect(confirmSpend(page, card.message)).resolves.toContain('This spends');

    // The card is updated in place; the balance drops by exactly the price; the emails come in its thread.
    await card.message.filter({ hasText: 'Done' }).filter({ hasText: '(edited)' }).waitFor();
    await balanceShows(page, walk.balanceAtStart - price);
    walk.spent = price;
    await threadReply(card.message, /unlocked of \d+/)
      .filter({ hasText: /[\w.+-]+@[\w-]+\.\w+/ })
      .waitFor({ timeout: 45_000 });
    await card.message.filter({ hasNotText: 'will arrive' }).waitFor();

    // A card nobody confirms expires: its buttons go, Start again comes, nothing is charged.
    await send(page, '/events unlock 8453');
    const idle = await newestWith(page, CONFIRMATION_WORDS.heading);
    await idle.message.getByRole('button', { name: 'Confirm' }).waitFor();
    await expireConfirmation(stack, idle.ts);
    await idle.message.filter({ hasText: 'Expired' }).waitFor();
    await expect(idle.message.getByRole('button', { name: 'Confirm' }).count()).resolves.toBe(0);
    await expect(idle.message.getByRole('button', { name: 'Start again' }).count()).resolves.toBe(1);
    expect(await balance(page)).toBe(walk.balanceAtStart - price);
    await expect(blockKitWarnings(page).count()).resolves.toBe(0);
  }, 60_000);

  it('7. spend: today’s credits by who asked, and its CSV sent to the direct messages', async () => {
    const { page } = browser;
    await send(page, '/events spend');
    const spend = await newestWith(page, /Credits spent on/);
    const text = (await spend.message.textContent()) ?? '';
    expect(text).toContain(`Total: ${walk.spent.toLocaleString('en-US')} credits in 1 charge`);
    expect(text).toMatch(/By who asked.*@Alice/s);

    await spend.message.getByRole('button', { name: 'Export CSV' }).click();
    await newestWith(page, /The file is in your direct messages with the app/);
    await openAppMessages(page);
    await newestWith(page, /CSV of 1 ledger entry\b/);
  }, 30_000);

  it('7. the spend CSV in the direct messages: its name, size and a link that downloads it', async () => {
    const { page } = browser;
    await openAppMessages(page);
    const file = await newestWith(page, /CSV of 1 ledger entry\b/);
    const link = file.message.getByRole('link', { name: /\.csv|download/i }).first();
    await expect(file.message.textContent()).resolves.toMatch(/\.csv/);
    await expect(file.message.textContent()).resolves.toMatch(/\d+(\.\d+)? ?(B|KB)/);
    const href = await link.getAttribute('href');
    if (!href) throw new Error('the file has no download link');
    const csv = await (await fetch(new URL(href, page.url()))).text();
    const [header, ...rows] = csv.trim().split(/\r?\n/);
    expect(header).toContain('asked_by');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(String(walk.spent));
  }, 30_000);

  it('8. Home: the balance and today’s spend, the channel’s plan and watched accounts', async () => {
    const { page } = browser;
    const home = await openHome(page);
    await home.filter({ hasText: `${walk.spent} credits` }).waitFor();
    const text = (await home.textContent()) ?? '';
    expect(text).toContain((walk.balanceAtStart - walk.spent).toLocaleString('en-US'));
    expect(text).toContain(KNOWN_COMPANY_NAME);
    expect(text).toMatch(/#events: 1 show/);
    await home
      .getByRole('button', { name: /Search events/ })
      .first()
      .waitFor();
  }, 30_000);

  it('9. the admin’s settings: refused to Alice naming the admin; shown to the admin, what the environment fixes read-only', async () => {
    const { page } = browser;
    // As Alice, the settings are refused, and the refusal names who can change them.
    const settings = page.getByRole('dialog', { name: 'Workspace settings' });
    await (await openHome(page)).getByRole('button', { name: /Workspace settings/ }).click();
    await settings.filter({ hasText: /Ask @Dana/ }).waitFor();
    await page.keyboard.press('Escape');
    await settings.waitFor({ state: 'detached' });

    await switchUser(page, /Dana/);
    await (await openHome(page)).getByRole('button', { name: /Workspace settings/ }).click();
    const save = settings.getByRole('button', { name: 'Save' });
    await save.waitFor();
    // The approvers come from the environment here: shown, not editable, saying where they are set.
    const text = (await settings.textContent()) ?? '';
    expect(text).toMatch(/Approvers:.*@Bob, set by SPEND_APPROVERS in the environment/);
    await save.click();
    await settings.waitFor({ state: 'detached' });
    await switchUser(page, 'Alice');
  }, 30_000);

  it('10. a typo: "did you mean", and nothing run', async () => {
    const { page } = browser;
    await goToChannel(page, 'events');
    await send(page, `/events fti ${BIG_EVENT}`);
    const answer = await newestWith(page, /is not an \/events command/);
    const text = (await answer.message.textContent()) ?? '';
    expect(text).toContain(`Did you mean /events fit ${BIG_EVENT}?`);
    expect(text).toContain('/events help');
    expect(await balance(page)).toBe(walk.balanceAtStart - walk.spent);

    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/tour-e2e.png' });
  }, 30_000);

  it('the page shows a visible warning on a message that breaks Block Kit limits, and draws images and dividers', async () => {
    const { page, stack } = browser;
    // A message as a careless bot might send it, straight to the local Slack's Web API
    const blocks = [
      { type: 'header', text: { type: 'plain_text', text: 'x'.repeat(151) } },
      { type: 'divider' },
      { type: 'image', image_url: `${stack.slackUrl}/none.png`, alt_text: 'a chart' },
      { type: 'context', elements: [] },
    ];
    const response = await fetch(`${stack.slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: 'Bearer xoxb-local-dev', 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'C0GENERAL', text: 'careless', blocks }),
    });

    expect(await response.json()).toMatchObject({ ok: true });
    await goToChannel(page, 'general');
    const warning = messageWithImage(page, 'a chart').getByRole('alert');
    await expect(warning.textContent()).resolves.toMatch(/header text over 150.*context needs 1-10 elements/);
    const careless = messageWithImage(page, 'a chart');
    await expect(dividers(careless).count()).resolves.toBe(1);
    await expect(page.getByAltText('a chart').count()).resolves.toBe(1);
  }, 30_000);
});
