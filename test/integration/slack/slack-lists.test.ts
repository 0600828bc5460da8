import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { ALICE, type Bot, startBot, visibleText } from '../../support/bot.ts';

const BIG_EVENT = '26855';
const PREVIEW_SUMMARY =
  /Page (\d+) of (\d+) · rows ([\d,]+)–([\d,]+) of ([\d,]+) \(50 free, ([\d,]+) locked\)/;

describe('lists, end to end', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  /** Runs a command and returns the list message it produced. */
  async function run(text: string): Promise<SlackMessage> {
    await bot.command(text);
    await bot.idle();
    const message = bot.messages().at(-1);
    if (!message) throw new Error(`no answer to ${text}`);
    expect(message.warnings).toEqual([]);
    return structuredClone(message);
  }

  /** Clicks a paging button and returns the message as it now stands. */
  async function page(message: SlackMessage, actionId: string, label?: string): Promise<SlackMessage> {
    await bot.click(message, actionId, ALICE, label);
    await bot.idle();
    const updated = structuredClone(bot.find((candidate) => candidate.ts === message.ts));
    expect(updated.warnings).toEqual([]);
    return updated;
  }

  const pagingLabels = (message: SlackMessage) =>
    buttonsOf(message)
      .filter(({ button }) => button.action_id.startsWith('list.page'))
      .map(({ button }) => button.text.text);
  const pagingRows = (message: SlackMessage) =>
    message.blocks.filter(
      (block) =>
        typeof block === 'object' &&
        block !== null &&
        'elements' in block &&
        JSON.stringify(block).includes('"list.page'),
    );
  const eventName = (eventId: string) => bot.sim.events.find((event) => event.eventId === eventId)?.name;

  it('says which rows of the free preview are shown, and pages with one row of Previous / Next', async () => {
    const first = await run(`exhibitors ${BIG_EVENT}`);

    const text = visibleText(first);
    expect(text).not.toContain('preview records');
    const [, pageNumber, pages, from, to, total, locked] = text.match(PREVIEW_SUMMARY) ?? [];
    expect([pageNumber, pages, from, to]).toEqual(['1', '5', '1', '10']);
    expect(Number(total?.replace(/,/g, '')) - Number(locked?.replace(/,/g, ''))).toBe(50);
    expect(pagingLabels(first)).toEqual(['Next →']);

    const second = await page(first, 'list.page.next');
    expect(visibleText(second)).toContain(`Page 2 of 5 · rows 11–20 of ${total} (50 free, ${locked} locked)`);
    expect(pagingLabels(second)).toEqual(['← Previous', 'Next →']);
    expect(pagingRows(second)).toHaveLength(1);

    const back = await page(second, 'list.page.previous');
    expect(visibleText(back)).toContain('Page 1 of 5 · rows 1–10');
  });

  it('stops Next at the last free page', async () => {
    let message = await run(`people ${BIG_EVENT}`);
    for (let n = 2; n <= 5; n += 1) message = await page(message, 'list.page.next');

    expect(visibleText(message)).toMatch(/Page 5 of 5 · rows 41–50 of [\d,]+ \(50 free, [\d,]+ locked\)/);
    expect(pagingLabels(message)).toEqual(['← Previous']);
  });

  it('names the event in the list title, and falls back to its id when the name cannot be read', async () => {
    const name = eventName(BIG_EVENT);
    expect(name).toBeTruthy();

    const named = await run(`people ${BIG_EVENT}`);
    bot.sim.injectFault({ kind: 'status', status: 404, route: 'GET /external/events/{id}' });
    const unnamed = await run(`people ${BIG_EVENT}`);

    expect(named.blocks[0]).toMatchObject({ type: 'header', text: { text: `People: ${name}` } });
    expect(visibleText(named)).not.toContain(`event ${BIG_EVENT}`);
    expect(unnamed.blocks[0]).toMatchObject({ type: 'header', text: { text: `People: event ${BIG_EVENT}` } });
  });

  it('has no paging row when the list fits on one page, and says so plainly', async () => {
    const first = await run(`exhibitors ${BIG_EVENT}`);
    const firstRow = JSON.stringify(first.blocks).match(/\*([^*]+)\*/)?.[1] ?? '';
    expect(firstRow).not.toBe('');

    const narrowed = await run(`exhibitors ${BIG_EVENT} ${firstRow}`);

    expect(visibleText(narrowed)).toMatch(/Page 1 of 1 · (row 1 of 1|rows 1–(\d) of \2)[^(]/);
    expect(pagingRows(narrowed)).toEqual([]);
  });

  it('pages through every person a card names, by name, from its Show all button, leaving the card', async () => {
    const people = bot.sim.seed.personnel.slice(0, 85);
    await bot.command(`emails ${people.map((person) => person.id).join(' ')}`);
    await bot.idle();
    const card = structuredClone(bot.find((message) => visibleText(message).includes('confirm.yes')));
    expect(visibleText(card)).toContain('and 75 more');
    expect(card.text).not.toMatch(/\b1000[2-8]\d\b/);

    await bot.click(card, 'people.all', ALICE);
    await bot.idle();

    const all = bot.last();
    expect(all.visibleTo).toBe(ALICE.userId);
    const text = visibleText(all);
    expect(text).toContain('Page 1 of 9 · rows 1–10 of 85');
    for (const person of people.slice(0, 10)) expect(text).toContain(person.fullName);
    expect(visibleText(bot.find((message) => message.ts === card.ts))).toContain('confirm.yes');

    const next = await page(all, 'list.page.next');
    expect(visibleText(next)).toContain('Page 2 of 9 · rows 11–20 of 85');
    for (const person of people.slice(10, 20)) expect(visibleText(next)).toContain(person.fullName);
    await bot.click(card, 'confirm.no', ALICE);
    await bot.idle();
  });

  it('says plainly which rows are shown once the event is unlocked', async () => {
    await bot.command(`unlock ${BIG_EVENT}`);
    await bot.idle();
    const card = bot.find((message) => visibleText(message).includes('confirm.yes'));
    await bot.click(structuredClone(card), 'confirm.yes');
    await bot.idle();

    const unlocked = await run(`exhibitors ${BIG_EVENT}`);

    const text = visibleText(unlocked);
    expect(text).toMatch(/Page 1 of \d+ · rows 1–10 of [\d,]+[^(\d,]/);
    expect(text).not.toMatch(/free|locked/);
    expect(text).not.toContain('list.unlock');
    expect(pagingLabels(unlocked)).toEqual(['Next →']);
  });
});
