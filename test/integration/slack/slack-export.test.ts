import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { appDmOf } from '../../../local/fake-slack/fake-slack.ts';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import { ALICE, askFor, type Bot, CHANNEL, startBot, visibleText } from '../../support/bot.ts';

const BIG_EVENT = '26855'; // 340 exhibitors in the simulator's seed, 50 of them in the free preview

/** The CSV's lines, header first (each line ends with CRLF, RFC 4180). */
const linesOf = (content: string) => content.replace(/\r\n$/, '').split('\r\n');

describe('Export CSV, end to end', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot({ balance: 20_000 });
  });
  afterAll(() => bot.close());

  /** `/events <text>`, shared in the channel: the public card everyone sees. */
  async function sharedList(text: string): Promise<SlackMessage> {
    await bot.command(text);
    await bot.idle();
    const privateCard = structuredClone(bot.last());
    expect(privateCard.visibleTo).toBe(ALICE.userId);
    await bot.click(privateCard, 'share.channel');
    await bot.idle();
    const shared = bot.messages().findLast((message) => !message.visibleTo && !message.threadTs);
    if (!shared) throw new Error(`no shared card for ${text}`);
    return structuredClone(shared);
  }

  /** Clicks Export CSV on `card` and returns the file message that landed in its thread. */
  async function exportFrom(card: SlackMessage, channel = CHANNEL) {
    await bot.click(card, 'list.export');
    await bot.idle();
    const upload = bot.slack.messages(channel).findLast((message) => (message.files ?? []).length > 0);
    const file = upload?.files?.[0];
    if (!upload || !file) throw new Error('no file was uploaded');
    return { upload, file, lines: linesOf(file.content) };
  }

  it('exports only the free preview of a locked event, and says the locked rows are left out', async () => {
    const card = await sharedList(`exhibitors ${BIG_EVENT}`);
    expect(buttonsOf(card).map(({ button }) => button.text.text)).toContain('Export CSV');

    const { upload, lines } = await exportFrom(card);

    expect(upload.threadTs).toBe(card.ts);
    expect(lines).toHaveLength(51);
    expect(upload.text).toContain('CSV of 50 exhibitors');
    expect(upload.text).toContain('290 locked exhibitors beyond the free preview are not included');
  });

  it('uploads one CSV of all 340 exhibitors into the card’s thread after the unlock, spending nothing', async () => {
    const confirmation = await askFor(bot, `unlock ${BIG_EVENT}`);
    await bot.click(confirmation, 'confirm.yes');
    await bot.idle();
    const balance = bot.sim.balance(bot.apiKey);
    const charges = bot.sim.ledger(bot.apiKey).length;
    expect(charges).toBe(1);
    const card = await sharedList(`exhibitors ${BIG_EVENT}`);
    const updatesBefore = bot.slack.calls.filter((call) => call.method === 'chat.update').length;

    const { upload, file, lines } = await exportFrom(card);

    expect(upload.threadTs).toBe(card.ts);
    expect(file.name).toBe(`exhibitors-${BIG_EVENT}.csv`);
    expect(lines).toHaveLength(341);
    expect(lines[0]).toBe('exhibitor_id,company,industry,country,employees,website,recommended');
    const names = lines.slice(1).map((line) => line.split(',')[0]);
    expect(new Set(names).size).toBe(340);
    expect(upload.text).toContain('CSV of 340 exhibitors');
    expect(upload.text).toContain('at most 5,000 rows per export');
    // No credits spent: the balance and the service's ledger are as they were after the unlock.
    expect(bot.sim.balance(bot.apiKey)).toBe(balance);
    expect(bot.sim.ledger(bot.apiKey)).toHaveLength(charges);
    // The card showed its progress while pages were read, then came back as it was.
    const progress = bot.slack.calls
      .filter((call) => call.method === 'chat.update')
      .slice(updatesBefore)
      .map((call) => JSON.stringify(call.args.blocks));
    expect(progress.some((blocks) => blocks.includes('Exporting… page 1 of 4'))).toBe(true);
    const now = bot.find((message) => message.ts === card.ts);
    expect(now.blocks).toEqual(card.blocks);
    expect(now.warnings).toEqual([]);
  });

  it('sends the export of a private card to the clicker’s direct messages, not the channel', async () => {
    await bot.command(`people ${BIG_EVENT} marketing`);
    await bot.idle();
    const privateCard = structuredClone(bot.last());
    expect(privateCard.visibleTo).toBe(ALICE.userId);
    const channelFiles = bot.messages().filter((message) => message.files).length;

    const { upload, lines } = await exportFrom(privateCard, appDmOf(ALICE.userId));

    expect(lines[0]).toBe('personnel_id,name,title,company,source,email,email_status,phone,phone_status');
    expect(lines.length).toBeGreaterThan(1);
    expect(upload.text).toContain('No credits spent');
    expect(bot.messages().filter((message) => message.files)).toHaveLength(channelFiles);
    expect(visibleText(bot.last())).toContain('direct messages with the app');
  });

  it('puts no Export button on a search that charges per request', async () => {
    // (only this search's messages: an earlier exhibitors list may name the company too)
    const before = bot.messages().length;
    await bot.command('company Acme Analytics');
    await bot.idle();
    const confirmation = structuredClone(bot.last());
    await bot.click(confirmation, 'confirm.yes');
    await bot.idle();

    const results = bot
      .messages()
      .slice(before)
      .filter((message) => visibleText(message).includes('Acme Analytics'));
    expect(results.length).toBeGreaterThan(0);
    for (const message of results) expect(visibleText(message)).not.toContain('list.export');
  });
});

describe('Export CSV of a filtered list', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot({ balance: 20_000 });
    // The event unlocked, so the lists and their exports hold every row, not the free preview.
    const confirmation = await askFor(bot, `unlock ${BIG_EVENT}`);
    await bot.click(confirmation, 'confirm.yes');
    await bot.idle();
  });
  afterAll(() => bot.close());

  /** Every row's id the simulator answers for `path` with `params`, read page by page as a client would. */
  async function simulatorIds(path: string, params: Record<string, string | string[]>): Promise<string[]> {
    const ids: string[] = [];
    for (let page = 1; page <= 50; page++) {
      const query = new URLSearchParams({ event_id: BIG_EVENT, page: String(page), pageSize: '50' });
      for (const [name, value] of Object.entries(params))
        for (const one of [value].flat()) query.append(name, one);
      const response = await fetch(`${bot.sim.url}${path}?${query.toString()}`, {
        headers: { authorization: `Bearer ${bot.apiKey}` },
      });
      const body = (await response.json()) as { items: { id: string }[]; hasMore: boolean };
      ids.push(...body.items.map((item) => item.id));
      if (!body.hasMore) break;
    }
    return ids;
  }

  /** `/events <text>` (a private card), exported: the file's header and its rows' first cells. */
  async function exported(text: string) {
    await bot.command(text);
    await bot.idle();
    const card = structuredClone(bot.last());
    expect(card.visibleTo).toBe(ALICE.userId);
    await bot.click(card, 'list.export');
    await bot.idle();
    const upload = bot.slack
      .messages(appDmOf(ALICE.userId))
      .findLast((message) => (message.files ?? []).length > 0);
    const [header = '', ...rows] = linesOf(upload?.files?.[0]?.content ?? '');
    return { header, rows, ids: rows.map((row) => row.split(',')[0]) };
  }

  it('exports exactly the exhibitors a title, level and department filter keeps', async () => {
    const expected = await simulatorIds('/external/exhibitors/list', {
      jobTitle: 'Director',
      managementLevel: 'Director',
      department: 'Operations',
    });
    const all = await simulatorIds('/external/exhibitors/list', {});
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.length);

    const { ids } = await exported(
      `exhibitors ${BIG_EVENT} title:Director level:Director department:Operations`,
    );

    expect(ids).toEqual(expected);
  });

  it('exports exactly the people of one exhibitor, and of one source, each with a phone column', async () => {
    const everyone = await simulatorIds('/external/personnel/list', {});
    const staff = bot.sim.seed.personnel.find((p) => p.exhibitorId && everyone.includes(p.id));
    if (!staff?.exhibitorId) throw new Error('the seed has no exhibitor staff at this event');
    const ofExhibitor = await simulatorIds('/external/personnel/list', { exhibitor_id: staff.exhibitorId });
    const social = await simulatorIds('/external/personnel/list', { sourceType: 'social' });
    for (const subset of [ofExhibitor, social]) {
      expect(subset.length).toBeGreaterThan(0);
      expect(subset.length).toBeLessThan(everyone.length);
    }

    const byExhibitor = await exported(`people ${BIG_EVENT} exhibitor:${staff.exhibitorId}`);
    const bySource = await exported(`people ${BIG_EVENT} source:social`);

    expect(byExhibitor.ids).toEqual(ofExhibitor);
    expect(bySource.ids).toEqual(social);
    // No phone is unlocked for this account: every phone cell is empty and says so.
    expect(bySource.header.split(',').slice(-2)).toEqual(['phone', 'phone_status']);
    for (const row of bySource.rows) expect(row.split(',').slice(-2)).toEqual(['', 'locked']);
  });
});

describe('Export CSV of a thread’s unlocked contacts', () => {
  let bot: Bot;
  beforeAll(async () => {
    // The simulator finishes a task 3 s after it is submitted; the worker's early polls cover it.
    bot = await startBot({ earlyPolls: { count: 4, everyMs: 1_000 } });
  });
  afterAll(() => bot.close());

  it('puts the unlocked emails in one CSV in the same thread, spending nothing more', async () => {
    // Prepare: an email unlock, confirmed, its result in the card's thread.
    const people = bot.sim.seed.personnel.filter((p) => p.linked && p.emailFindable).slice(0, 2);
    const confirmation = await askFor(bot, `emails ${people.map((p) => p.id).join(' ')}`);
    await bot.click(confirmation, 'confirm.yes');
    await bot.idle();
    const result = structuredClone(bot.find((message) => message.threadTs === confirmation.ts));
    const balance = bot.sim.balance(bot.apiKey);

    // Act
    await bot.click(result, 'list.export');
    await bot.idle();

    // Assess
    const upload = bot.messages().find((message) => (message.files ?? []).length > 0);
    const lines = linesOf(upload?.files?.[0]?.content ?? '');
    expect(upload?.threadTs).toBe(confirmation.ts);
    expect(lines).toHaveLength(3);
    for (const person of people) {
      expect(lines.find((line) => line.startsWith(`${person.id},`))).toContain(person.email);
    }
    expect(bot.sim.balance(bot.apiKey)).toBe(balance);
  });
});
