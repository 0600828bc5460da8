import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { isInRegion } from '../../../src/domain/regions.ts';
import { ACTION_IDS } from '../../../src/slack/views/action-ids.ts';
import type { Actor } from '../../../local/fake-slack/payloads.ts';
import { ALICE, type Bot, CHANNEL, startBot, TEAM, visibleText } from '../../support/bot.ts';

/*
 * `/events watch shows` and the watch list's Previous / Next through the real handlers: a channel
 * whose watched accounts exhibit at the simulator's shows (some made to appear there), ranked by how
 * many of them exhibit, targets and competitors apart, free; Add to plan from a row; bad words refused.
 */

const LISTS = 'C0LISTS';
const LISTER: Actor = { teamId: TEAM, userId: 'U0ALICE', channelId: LISTS };

/** The last answer only the actor sees in the channel. */
const lastAnswer = (bot: Bot, channel = CHANNEL): SlackMessage => {
  const answers = bot.messages(channel).filter((m) => m.visibleTo !== undefined);
  const answer = answers[answers.length - 1];
  if (!answer) throw new Error('no private answer yet');
  return answer;
};

/** Every text of a block tree. */
const textsOf = (node: unknown): string[] =>
  typeof node === 'string'
    ? [node]
    : node && typeof node === 'object'
      ? Object.entries(node).flatMap(([key, value]) => (key === 'value' ? [] : textsOf(value)))
      : [];
/** A comma with nothing after it, or bold around nothing. */
const orphan = (text: string) => /: ,|,\s*$|,\s*\n|\*\*/m.test(text);

/** The text of the ack of a refused command (the usage answered at once). */
const ackText = (answer: { body: string }) =>
  visibleText(JSON.parse(answer.body) as Pick<SlackMessage, 'text' | 'blocks'>);

describe('watch shows', () => {
  let bot: Bot;
  /** The three accounts at the big show (two targets, one competitor) and the one elsewhere. */
  let at: { big: { eventId: string; name: string }; other: { eventId: string; name: string } };
  let picked: { companyName: string; id: string }[];

  const say = async (text: string, actor = ALICE) => {
    await bot.command(text, actor);
    await bot.idle();
    return lastAnswer(bot, actor.channelId);
  };
  const click = async (message: SlackMessage, actionId: string, blockId?: string) => {
    await bot.slack.click({
      user: ALICE.userId,
      channel: message.channel,
      ts: message.ts,
      actionId,
      ...(blockId ? { blockId } : {}),
    });
    await bot.idle();
  };

  beforeAll(async () => {
    bot = await startBot();
    const { today } = bot.sim;
    const european = bot.sim.events
      .filter((e) => e.dateStart > today && isInRegion(e.country, 'Europe'))
      .sort((a, b) => a.dateStart.localeCompare(b.dateStart));
    const internalIds = new Set(european.map((e) => e.id));
    // Four companies, each found by its name alone, no two at the same European show yet
    const names = bot.sim.seed.exhibitors.map((x) => x.companyName.toLowerCase());
    const taken = new Set<string>();
    picked = [];
    for (const x of bot.sim.seed.exhibitors) {
      const name = x.companyName.toLowerCase();
      if (names.filter((other) => other.includes(name) || name.includes(other)).length !== 1) continue;
      if (!x.eventIds.some((id) => bot.sim.events.some((e) => e.id === id && e.dateStart > today))) continue;
      const shows = x.eventIds.filter((id) => internalIds.has(id));
      if (shows.some((id) => taken.has(id))) continue;
      for (const id of shows) taken.add(id);
      picked.push(x);
      if (picked.length === 4) break;
    }
    expect(picked).toHaveLength(4);
    const free = european.filter((e) => !taken.has(e.id));
    const [big, other] = free;
    if (!big || !other) throw new Error('the seed has too few European shows');
    at = { big, other };
    for (const x of picked.slice(0, 3))
      bot.sim.changeData({ kind: 'appear', exhibitor: x.id, event: big.id });
    // The fourth at the other show and a few more, so the ranking runs past one page
    for (const show of [other, ...free.slice(2, 8)])
      bot.sim.changeData({ kind: 'appear', exhibitor: picked[3]?.id ?? '', event: show.id });
    const [a, b, c, d] = picked.map((x) => x.companyName);
    await say(`watch add ${a}, ${b}, competitor:${c}, ${d}`);
  });
  afterAll(() => bot.close());

  it('ranks the show where three accounts exhibit first, targets and competitors apart, and charges nothing', async () => {
    // Prepare
    const balance = bot.sim.balance(bot.apiKey);
    const [a, b, c] = picked.map((x) => x.companyName);

    // Act
    const answer = visibleText(await say('watch shows region:Europe'));

    // Assess
    expect(answer).toContain('Where this channel’s accounts will be in Europe');
    const first = answer.indexOf(at.big.name);
    expect(first).toBeGreaterThan(-1);
    expect(answer.indexOf(at.other.name) === -1 || answer.indexOf(at.other.name) > first).toBe(true);
    const row = answer.slice(first, first + 600);
    expect(row).toContain('3 watched accounts: 2 targets');
    expect(row).toContain(`1 competitor (${c})`);
    for (const name of [a, b]) expect(row).toContain(name);
    expect(row).toMatch(/Fit \d+\.\d \/ 10/);
    expect(row).toMatch(/Unlock: [\d,]+ credits|Unlocked/);
    for (const show of bot.sim.events.filter((e) => !isInRegion(e.country, 'Europe')))
      expect(answer).not.toContain(`event ${show.eventId}`);
    expect(bot.sim.balance(bot.apiKey)).toBe(balance);
  });

  it('names a show of one kind of account with no orphan comma, on the card and on the Home', async () => {
    // Prepare
    const d = picked[3]?.companyName ?? '';
    const alone = `1 watched account: 1 target (${d})`;

    // Act
    const answer = visibleText(await say('watch shows region:Europe'));
    await bot.slack.openHome(ALICE.userId);
    await bot.idle();
    const home = `\n${JSON.stringify(bot.slack.home(ALICE.userId)?.view ?? {})}`;

    // Assess
    expect(answer).toContain(alone);
    expect(answer).not.toContain(`${alone},`);
    expect(home).toContain('Where the accounts of');
    for (const text of [answer, home])
      expect(textsOf(JSON.parse(text.slice(text.indexOf('\n') + 1))).filter(orphan)).toEqual([]);
  });

  it('adds the show to the plan from its row', async () => {
    // Prepare
    const card = await say('watch shows region:Europe');

    // Act
    await click(card, ACTION_IDS.planAdd, `watch-show-${at.big.eventId}`);

    // Assess
    const plan = await bot.store.plans.get(TEAM, CHANNEL);
    expect(plan?.shows.map((show) => show.eventId)).toEqual([at.big.eventId]);
    const [canvas] = bot.slack.canvases(CHANNEL);
    const section = canvas?.markdown.split('## Where the watched accounts will be')[1] ?? '';
    expect(section.split('\n')[1]).toContain(`event ${at.big.eventId}`);
    expect(section.split('\n')[1]).toContain('2 targets, 1 competitor');
  });

  it('shows where the accounts will be on the Home, the show with three first', async () => {
    // Act
    await bot.slack.openHome(ALICE.userId);
    await bot.idle();

    // Assess
    const home = JSON.stringify(bot.slack.home(ALICE.userId)?.view ?? {});
    const where = home.split(`Where the accounts of <#${CHANNEL}> will be, most first:`)[1] ?? '';
    expect(where.split('\\n')[1]).toContain(at.big.name);
    expect(where.split('\\n')[1]).toContain('3 watched accounts: 2 targets');
    expect(where).toContain('`/events watch shows`');
  });

  it('gives the next page with Next, and the first again with Previous', async () => {
    // Prepare
    const card = await say('watch shows region:Europe');
    expect(visibleText(card)).toMatch(/page 1 of [2-9]/);

    // Act
    await click(card, ACTION_IDS.watchPageNext);
    const second = lastAnswer(bot);
    await click(second, ACTION_IDS.watchPagePrevious);
    const back = lastAnswer(bot);

    // Assess
    expect(visibleText(second)).toMatch(/in Europe.*page 2 of/);
    expect(visibleText(second)).not.toContain(at.big.name);
    expect(visibleText(back)).toContain(at.big.name);
  });

  it('refuses a region it does not know, a word that is no quarter, mentions and long text, with the usage', async () => {
    for (const [text, problem] of [
      ['watch shows region:Atlantis', '`region:Atlantis` is not a region I know'],
      ['watch shows when:yesterday', '`when:yesterday` is not a quarter or a month'],
      ['watch shows <!channel> <@U0BOSS>', 'Mentions, channels and @here or @channel are not names'],
      [`watch shows ${'x'.repeat(5000)}`, 'is neither'],
      [`watch shows region:${'y'.repeat(5000)}`, 'longer than 100 characters'],
      ['watch shows country:Germany', '`country:` is not a filter of `watch shows`'],
    ] as const) {
      const refused = ackText(await bot.command(text));
      expect(refused).toContain(problem);
      expect(refused).toContain('shows [region:Europe] [when:Q2-2027]');
      expect(refused).not.toContain('<!channel>');
    }
  });
});

describe('watch list pages', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  it('pages a list longer than a page with Next and Previous', async () => {
    // Prepare
    const domains = Array.from({ length: 30 }, (_, i) => `company-${String(i + 1).padStart(2, '0')}.example`);
    await bot.command(`watch add ${domains.join(', ')}`, LISTER);
    await bot.idle();

    // Act
    await bot.command('watch list', LISTER);
    await bot.idle();
    const first = lastAnswer(bot, LISTS);
    await bot.slack.click({
      user: LISTER.userId,
      channel: LISTS,
      ts: first.ts,
      actionId: ACTION_IDS.watchPageNext,
    });
    await bot.idle();
    const second = lastAnswer(bot, LISTS);

    // Assess
    expect(visibleText(first)).toContain('company-01.example');
    expect(visibleText(first)).not.toContain('company-30.example');
    expect(visibleText(second)).toContain('Watched accounts, page 2');
    expect(visibleText(second)).toContain('company-30.example');
    expect(visibleText(second)).not.toContain('company-01.example');
    expect(JSON.stringify(second.blocks)).toContain(ACTION_IDS.watchPagePrevious);
    expect(JSON.stringify(second.blocks)).not.toContain(ACTION_IDS.watchPageNext);
  });
});
