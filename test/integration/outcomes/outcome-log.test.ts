import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import type { Actor } from '../../../local/fake-slack/payloads.ts';
import { KNOWN_COMPANY_NAME, type SeededEvent } from '../../../simulator/server.ts';
import { OUTCOME_LIMITS } from '../../../src/domain/outcomes.ts';
import { ALICE, BOB, type Bot, CHANNEL, startBot, visibleText } from '../../support/bot.ts';
import { showsForPlan } from '../../support/plan-shows.ts';

/*
 * `/events outcome` through the real handlers: an entry logged from the channel (its card, its
 * record), every refusal changing nothing, and Delete held to its logger or an admin, the deletion kept.
 */

const ADMIN: Actor = { ...ALICE, userId: 'U0ADMIN' };

describe('logging what a show brought', () => {
  let bot: Bot;
  let show: SeededEvent;
  let farShow: SeededEvent;

  const entries = () => bot.store.outcomes.forTeam(ALICE.teamId);
  /** The channel's messages everyone sees (cards), newest last. */
  const cards = () =>
    bot
      .messages()
      .filter(
        (m) =>
          (m.visibleTo === undefined && visibleText(m).includes('outcome.delete')) ||
          m.text.startsWith('Deleted'),
      );
  const cardOf = (id: string) => {
    const card = bot
      .messages()
      .find((m) => m.visibleTo === undefined && visibleText(m).includes(`entry \`${id}\``));
    if (!card) throw new Error(`no card for ${id}`);
    return structuredClone(card);
  };
  /** Text as a reader sees it (`<` and co. as Slack escapes them, read back). */
  const unescaped = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const textOf = (message: SlackMessage | undefined) =>
    unescaped(visibleText(message ?? { text: '', blocks: [] }));
  /** Runs `/events <text>`; the HTTP ack's text (a refusal read at once is answered there). */
  async function say(text: string, actor: Actor = ALICE): Promise<string> {
    const ack = await bot.command(text, actor);
    await bot.idle();
    return unescaped(ack.body);
  }
  const lastToldTo = (userId: string) =>
    textOf(
      bot
        .messages()
        .filter((m) => m.visibleTo === userId)
        .at(-1),
    );
  /** The last answer in a card's thread (a button on a public card answers there). */
  const lastInThread = (ts: string) =>
    textOf(
      bot
        .messages()
        .filter((m) => m.threadTs === ts)
        .at(-1),
    );
  async function logged(text: string, actor: Actor = ALICE) {
    const before = new Set((await entries()).map((e) => e.id));
    await say(text, actor);
    const entry = (await entries()).find((e) => !before.has(e.id));
    if (!entry) throw new Error(`nothing logged by ${text}: ${lastToldTo(actor.userId)}`);
    return entry;
  }
  const click = async (card: SlackMessage, actor: Actor) => {
    await bot.click(card, 'outcome.delete', actor);
    await bot.idle();
  };

  beforeAll(async () => {
    bot = await startBot({ users: { [ADMIN.userId]: { name: 'Ada Admin', tz: 'UTC', isAdmin: true } } });
    const [first, second] = showsForPlan(bot.sim.events, bot.sim.today);
    if (!first || !second) throw new Error('the simulator has too few shows');
    show = first;
    farShow = second;
    // Moved past the limit: it starts more than a year after today.
    const days =
      (Date.parse(bot.sim.today) - Date.parse(second.dateStart)) / 86_400_000 + OUTCOME_LIMITS.aheadDays + 2;
    bot.sim.changeData({ kind: 'postpone', event: second.eventId, days });
    await say('plan currency EUR');
    await say(`watch add ${KNOWN_COMPANY_NAME}`);
  });
  afterAll(() => bot.close());

  it('gives the usage with an example, bare and as help', async () => {
    const bare = await say('outcome');
    const help = await say('help outcome');

    for (const answer of [bare, help]) {
      expect(answer).toContain('outcome <event id> <kind> <account> [amount] [note]');
      expect(answer).toContain('outcome 26855 lead B');
    }
    expect(await entries()).toEqual([]);
  });

  it('logs an entry under the show’s public id, matched to the watched company, with its card in the channel', async () => {
    const watched = (await bot.store.watchLists.allAccounts(ALICE.teamId, CHANNEL))[0];
    const at = Date.now();

    // The show named by its internal id: the entry keeps the one public id.
    const entry = await logged(
      `outcome ${show.id} won 48,000 EUR "${KNOWN_COMPANY_NAME.toUpperCase()}" signed at the booth`,
    );

    expect(entry).toMatchObject({
      teamId: ALICE.teamId,
      channelId: CHANNEL,
      eventId: show.eventId,
      showName: show.name,
      kind: 'won',
      hundredths: 4_800_000,
      currency: 'EUR',
      account: KNOWN_COMPANY_NAME.toUpperCase(),
      company: { exhibitorId: watched?.exhibitorIds[0], name: watched?.companyName },
      note: 'signed at the booth',
      loggedBy: ALICE.userId,
      history: [{ action: 'logged', by: ALICE.userId }],
    });
    expect(watched?.resolution).toBe('resolved');
    expect(Date.parse(entry.loggedAt)).toBeGreaterThanOrEqual(at - 1000);
    const card = visibleText(cardOf(entry.id));
    expect(card).toContain(show.name);
    expect(card).toContain('Won 48,000 EUR');
    expect(card).toContain(KNOWN_COMPANY_NAME.toUpperCase());
    expect(card).toContain(`<@${ALICE.userId}>`);
    expect(buttonsOf(cardOf(entry.id)).map(({ button }) => button.text.text)).toEqual(['Delete']);
    expect(entry.cardTs).toBe(cardOf(entry.id).ts);
  });

  it('keeps a lead’s grade, an amount in the plan’s currency when none is typed, and a plain account', async () => {
    const lead = await logged(`outcome ${show.eventId} lead b Initrode`);
    const opportunity = await logged(`outcome ${show.eventId} opportunity Globex 12000.50`);

    expect(lead).toMatchObject({ kind: 'lead', grade: 'B', account: 'Initrode' });
    expect(lead).not.toHaveProperty('company');
    expect(opportunity).toMatchObject({
      kind: 'opportunity',
      hundredths: 1_200_050,
      currency: 'EUR',
      account: 'Globex',
    });
    expect(visibleText(cardOf(lead.id))).toContain('Lead (B)');
    expect(visibleText(cardOf(opportunity.id))).toContain('Opportunity 12,000.50 EUR');
  });

  it.each([
    ['an unknown show', () => 'outcome 99999999 meeting-held Acme', 'knows no show with the id 99999999'],
    ['a show more than a year ahead', () => `outcome ${farShow.eventId} meeting-booked Acme`, 'days ahead'],
    ['a negative amount', () => `outcome ${show.eventId} won -5000 Acme`, 'is below 0'],
    ['a malformed amount', () => `outcome ${show.eventId} won 12k Acme`, 'is not an amount'],
    ['a grade that is not A, B or C', () => `outcome ${show.eventId} lead D Acme`, 'A lead takes a grade'],
    [
      'an amount in another currency',
      () => `outcome ${show.eventId} won 5000 USD Acme`,
      "this channel's plan is in EUR",
    ],
    ['a missing account', () => `outcome ${show.eventId} meeting-held`, 'Name the account'],
    ['a missing amount', () => `outcome ${show.eventId} opportunity Acme`, 'takes an amount'],
    [
      'a note over the limit',
      () => `outcome ${show.eventId} meeting-held Acme ${'x'.repeat(OUTCOME_LIMITS.noteChars + 1)}`,
      'The note is',
    ],
  ])('refuses %s with the usage, changing nothing', async (_what, text, problem) => {
    const before = await entries();
    const cardsBefore = cards().length;

    const ack = await say(text());

    const answer = `${ack}\n${lastToldTo(ALICE.userId)}`;
    expect(answer).toContain(problem);
    expect(answer).toContain('outcome <event id> <kind> <account> [amount] [note]');
    expect(await entries()).toEqual(before);
    expect(cards()).toHaveLength(cardsBefore);
  });

  it('lets only its logger or an admin delete an entry, keeping it marked with who and when', async () => {
    const entry = await logged(`outcome ${show.eventId} meeting-held Hooli met their VP`);

    // Another member: refused, nothing changes.
    await click(cardOf(entry.id), BOB);
    expect(lastInThread(cardOf(entry.id).ts)).toContain(
      'Only the person who logged this entry, or a workspace admin',
    );
    expect(await bot.store.outcomes.get(ALICE.teamId, entry.id)).toEqual(entry);
    expect(buttonsOf(cardOf(entry.id))).toHaveLength(1);

    // Its logger: deleted, the card says so, the record keeps it.
    await click(cardOf(entry.id), ALICE);
    const deleted = await bot.store.outcomes.get(ALICE.teamId, entry.id);
    expect(deleted).toMatchObject({
      ...entry,
      deletedBy: ALICE.userId,
      history: [
        { action: 'logged', by: ALICE.userId },
        { action: 'deleted', by: ALICE.userId },
      ],
    });
    expect(deleted?.deletedAt).toBe(deleted?.history[1]?.at);
    const card = cardOf(entry.id);
    expect(visibleText(card)).toContain(`Deleted* by <@${ALICE.userId}>`);
    expect(buttonsOf(card)).toEqual([]);

    // An admin deletes someone else's entry.
    const bobs = await logged(`outcome ${show.eventId} meeting-booked Pied-Piper`, BOB);
    await say(`outcome delete ${bobs.id}`, ADMIN);
    expect(await bot.store.outcomes.get(ALICE.teamId, bobs.id)).toMatchObject({ deletedBy: ADMIN.userId });
    expect(visibleText(cardOf(bobs.id))).toContain(`Deleted* by <@${ADMIN.userId}>`);
  });

  it('lets its logger change an entry, keeping what it said before; another member may not', async () => {
    const entry = await logged(`outcome ${show.eventId} lead C Umbrella`);

    await say(`outcome edit ${entry.id} opportunity Umbrella 30000`, BOB);
    expect(lastToldTo(BOB.userId)).toContain('Only the person who logged this entry, or a workspace admin');
    await say(`outcome edit ${entry.id} won 5 USD Umbrella`);
    expect(lastToldTo(ALICE.userId)).toContain("this channel's plan is in EUR");
    expect(await bot.store.outcomes.get(ALICE.teamId, entry.id)).toEqual(entry);

    await say(`outcome edit ${entry.id} opportunity 30,000 EUR Umbrella after the demo`);

    const edited = await bot.store.outcomes.get(ALICE.teamId, entry.id);
    expect(edited).toMatchObject({
      eventId: show.eventId,
      kind: 'opportunity',
      hundredths: 3_000_000,
      currency: 'EUR',
      account: 'Umbrella',
      note: 'after the demo',
      loggedBy: ALICE.userId,
      history: [
        { action: 'logged', by: ALICE.userId },
        { action: 'edited', by: ALICE.userId, was: { kind: 'lead', grade: 'C', account: 'Umbrella' } },
      ],
    });
    expect(edited).not.toHaveProperty('grade');
    const card = visibleText(cardOf(entry.id));
    expect(card).toContain('Opportunity 30,000 EUR');
    expect(card).toContain(`edited by <@${ALICE.userId}>`);
  });
});
