import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../src/local/slack/fake-slack.ts';
import { appDmOf } from '../../src/local/slack/fake-slack.ts';
import { buttonsOf } from '../../src/local/slack/payloads.ts';
import { ALICE, askFor, type Bot, CHANNEL, startBot, visibleText } from '../support/bot.ts';

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

    expect(lines[0]).toBe('personnel_id,name,title,company,source,email,email_status');
    expect(lines.length).toBeGreaterThan(1);
    expect(upload.text).toContain('No credits spent');
    expect(bot.messages().filter((message) => message.files)).toHaveLength(channelFiles);
    expect(visibleText(bot.last())).toContain('direct messages with the app');
  });

  it('puts no Export button on a search that charges per request', async () => {
    await bot.command('company Acme Analytics');
    await bot.idle();
    const confirmation = structuredClone(bot.last());
    await bot.click(confirmation, 'confirm.yes');
    await bot.idle();

    const results = bot.messages().filter((message) => visibleText(message).includes('Acme Analytics'));
    expect(results.length).toBeGreaterThan(0);
    for (const message of results) expect(visibleText(message)).not.toContain('list.export');
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
