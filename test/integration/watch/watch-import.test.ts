import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { type Actor } from '../../../local/fake-slack/payloads.ts';
import { KNOWN_COMPANY_NAME } from '../../../simulator/server.ts';
import { ALICE, type Bot, CHANNEL, startBot, TEAM, visibleText } from '../../support/bot.ts';

/*
 * `/events watch import` through the real handlers: the command opens the modal, its submission is
 * refused in the modal or stored, and the worker answers the importer in the channel.
 */

const FRESH: Actor = { ...ALICE, channelId: 'C0OTHER' };

/** Lines packed into boxes of at most 3,000 characters (Slack's limit), as a user would paste them. */
function boxesOf(lines: string[]): Record<string, { value: { type: string; value: string } }> {
  const boxes: string[] = [];
  let current = '';
  for (const line of lines) {
    const next = current ? `${current}\n${line}` : line;
    if (next.length > 3000) {
      boxes.push(current);
      current = line;
    } else current = next;
  }
  if (current) boxes.push(current);
  return Object.fromEntries(
    boxes.map((value, index) => [`accounts-${index + 1}`, { value: { type: 'plain_text_input', value } }]),
  );
}

const names = (count: number, from = 0) =>
  Array.from({ length: count }, (_, index) => `Imported Company ${from + index + 1}`);
/** Domains: one free look-up each (a name not found is searched in every upcoming show). */
const domains = (count: number, from = 0) =>
  Array.from({ length: count }, (_, index) => `imported-${from + index + 1}.com`);

describe('/events watch import', () => {
  let bot: Bot;
  const lastAnswer = (channel: string): SlackMessage => {
    const answers = bot.messages(channel).filter((m) => m.visibleTo === ALICE.userId);
    const answer = answers[answers.length - 1];
    if (!answer) throw new Error('no private answer yet');
    return answer;
  };
  const say = async (text: string, actor: Actor) => {
    await bot.command(text, actor);
    await bot.idle();
    return visibleText(lastAnswer(actor.channelId));
  };
  const importLines = async (lines: string[], actor: Actor) => {
    const ack = await bot.command('watch import', actor);
    expect(ack.body).toBe('');
    const answer = await bot.slack.submitView({ user: actor.userId, values: boxesOf(lines) });
    await bot.idle();
    return answer;
  };

  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  it('opens a modal of multiline boxes that fits Slack’s limits', async () => {
    // Act
    const ack = await bot.command('watch import', FRESH);

    // Assess
    expect(ack.body).toBe('');
    const modal = bot.slack.modal(ALICE.userId);
    expect(modal?.view.callback_id).toBe('modal.watch-import');
    expect(modal?.warnings).toEqual([]);
    const boxes = (modal?.view.blocks as { type: string; element?: { multiline?: boolean } }[]).filter(
      (block) => block.type === 'input',
    );
    expect(boxes.length).toBeGreaterThanOrEqual(5);
    expect(boxes.every((block) => block.element?.multiline === true)).toBe(true);
    await bot.slack.closeView({ user: ALICE.userId });
  });

  it('refuses a paste of 1,001 lines in the modal, and stores nothing', async () => {
    // Act
    const answer = await importLines(names(1001), FRESH);

    // Assess
    expect(JSON.parse(answer.body)).toMatchObject({ response_action: 'errors' });
    expect(bot.slack.modal(ALICE.userId)?.errors).toEqual({
      'accounts-1': 'That is 1,001 accounts; a channel watches at most 1,000. Nothing was added.',
    });
    await bot.slack.closeView({ user: ALICE.userId });
    expect(await bot.store.watchLists.allAccounts(TEAM, FRESH.channelId)).toEqual([]);
    expect(await say('watch status', FRESH)).toContain('This channel watches no accounts');
  });

  it('refuses a paste with no name in it', async () => {
    // Act
    const answer = await importLines(['--', ' , ', '&'], FRESH);

    // Assess
    expect(JSON.parse(answer.body)).toMatchObject({ response_action: 'errors' });
    expect(bot.slack.modal(ALICE.userId)?.errors?.['accounts-1']).toMatch(/No company name or domain/);
    await bot.slack.closeView({ user: ALICE.userId });
    expect(await bot.store.watchLists.allAccounts(TEAM, FRESH.channelId)).toEqual([]);
  });

  it('looks an import of 30 up at once, and posts no alert for the shows they are on now', async () => {
    // Prepare: a company with upcoming shows, and 29 names the service does not know
    const company = bot.sim.seed.exhibitors.find((x) => x.companyName === KNOWN_COMPANY_NAME);
    const upcoming = bot.sim.events.filter(
      (e) => company?.eventIds.includes(e.id) && e.dateStart >= bot.sim.today,
    );
    expect(upcoming.length).toBeGreaterThan(0);

    // Act
    await importLines([KNOWN_COMPANY_NAME, ...names(29, 2000)], FRESH);

    // Assess: looked up by the check after the answer, not left for the hourly run
    expect(visibleText(lastAnswer(FRESH.channelId))).toContain('Checking them now');
    const stored = await bot.store.watchLists.allAccounts(TEAM, FRESH.channelId);
    expect(stored).toHaveLength(30);
    expect(stored.filter((account) => account.resolution === 'pending')).toEqual([]);
    const known = stored.find((account) => account.label === KNOWN_COMPANY_NAME);
    expect(known?.resolution).toBe('resolved');
    expect(known?.told?.map((show) => show.eventId).sort()).toEqual(upcoming.map((e) => e.eventId).sort());
    expect(stored.filter((account) => account.resolution === 'not-found')).toHaveLength(29);
    expect(bot.messages(FRESH.channelId).filter((m) => m.visibleTo === undefined)).toEqual([]);
  });

  it('looks up at once the accounts an add has beyond the first 25', async () => {
    // Act: 27 new domains; the answer looks up 25, the check after it the other 2
    const answer = await say(`watch add ${domains(27, 3000).join(', ')}`, FRESH);

    // Assess
    expect(answer).toContain('2 more accounts are being looked up now');
    const stored = await bot.store.watchLists.allAccounts(TEAM, FRESH.channelId);
    expect(stored).toHaveLength(57);
    expect(stored.filter((account) => account.resolution === 'pending')).toEqual([]);
    expect(bot.messages(FRESH.channelId).filter((m) => m.visibleTo === undefined)).toEqual([]);
  });

  it('refuses a watch add past 100 accounts whole, counting them and naming the import form', async () => {
    // Prepare: 10,000 names (about 240,000 characters) and 101 domains
    const before = (await bot.store.watchLists.allAccounts(TEAM, FRESH.channelId)).length;

    // Act
    const many = await bot.command(`watch add ${names(10_000, 5000).join(', ')}`, FRESH);
    const justOver = await bot.command(`watch add ${domains(101, 6000).join('\n')}`, FRESH);
    await bot.idle();

    // Assess: answered at once, nothing added, nothing cut
    expect(visibleText(JSON.parse(many.body) as SlackMessage)).toContain(
      'You listed 10,000 accounts; `watch add` takes up to 100 at once. Nothing was added. For more, paste them into the form of `/events watch import` (up to 1,000 lines).',
    );
    expect(visibleText(JSON.parse(justOver.body) as SlackMessage)).toContain('You listed 101 accounts');
    expect(await bot.store.watchLists.allAccounts(TEAM, FRESH.channelId)).toHaveLength(before);

    // A list pasted one a line is read one account a line, as the import reads it
    expect(await say(`watch add ${domains(3, 7000).join('\n')}`, FRESH)).toContain(
      'This channel now watches 3 more accounts',
    );
    expect(await bot.store.watchLists.allAccounts(TEAM, FRESH.channelId)).toHaveLength(before + 3);
  });

  it(
    'imports 1,000 accounts from several boxes, says what was refused, and status counts 1,000',
    // The check after the import: 25 slices of 40 domains, each reading the list again.
    { timeout: 60_000 },
    async () => {
      // Prepare: 997 lines of one domain, one line of three comma-separated domains, one line that names nothing
      const serviceCalls = bot.sim.requests().length;
      const [first = '', second = '', third = '', ...rest] = domains(1000);
      const lines = [`${first}, competitor:${second}, ${third}`, '--', ...rest];

      // Act
      const answer = await importLines(lines, ALICE);

      // Assess
      expect(answer.body).toBe('');
      expect(bot.slack.modal(ALICE.userId)).toBeUndefined();
      const told = visibleText(lastAnswer(CHANNEL));
      expect(told).toContain('this channel now watches 1,000 more accounts');
      expect(told).toContain('Not added, not a name or domain: 1: `--`');
      expect(told).toContain('Checking them now');
      expect(lastAnswer(CHANNEL).warnings).toEqual([]);
      const stored = await bot.store.watchLists.allAccounts(TEAM, CHANNEL);
      expect(stored).toHaveLength(1000);
      expect(stored.find((account) => account.label === second)?.kind).toBe('competitor');
      // Looked up by the check right after the answer (none of these names is known to the service)
      expect(stored.filter((account) => account.resolution === 'pending')).toEqual([]);
      expect(bot.sim.requests().length).toBeGreaterThan(serviceCalls);
      expect(await say('watch status', ALICE)).toContain('Accounts: 1,000 — 0 found, 1,000 not found yet');
    },
  );

  it('refuses an import that would pass 1,000 with what is watched, and stores none of it', async () => {
    // Act
    const answer = await importLines([...domains(2, 998), 'One Company Too Many'], ALICE);

    // Assess: the modal could not know the channel's count; the worker says it
    expect(answer.body).toBe('');
    expect(visibleText(lastAnswer(CHANNEL))).toContain(
      'This channel watches 1,000 accounts; importing 1 more would pass the limit of 1,000. Nothing was added',
    );
    expect(await bot.store.watchLists.allAccounts(TEAM, CHANNEL)).toHaveLength(1000);
  });
});
