import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import type { SeededEvent } from '../../../simulator/seed.ts';
import { parseCalendarPeriod } from '../../../src/domain/periods.ts';
import { REGIONS } from '../../../src/domain/regions.ts';
import { HORIZON_DAYS } from '../../../src/domain/digest-events.ts';
import { ALICE, type Bot, CHANNEL, startBot, visibleText } from '../../support/bot.ts';

/**
 * Search as a seller means it (issue 26, item 1), through the real handlers and the simulator: several
 * words (any of them, best matches first), a region of countries, and a quarter, in search, the Search
 * modal, shows-for and the digest. What should be found is worked out from the simulator's seed here.
 */

const LIST_ROUTE = '/external/events/list';
const SHOWS_ROUTE = '/external/profile-matching/actions/apply-recommended-events/paged';

const text = (value: string) => ({ value: { type: 'plain_text_input', value } });
const channel = (id: string) => ({ value: { type: 'conversations_select', selected_conversation: id } });

/** What the simulator matches a keyword against, as any one text of the show holding it. */
const holds = (event: SeededEvent, word: string) =>
  [event.name, event.nickname, event.description, event.city].some((field) =>
    (field ?? '').toLowerCase().includes(word.toLowerCase()),
  );
const europe: readonly string[] = REGIONS.Europe;

/** The event ids of a list card's rows, top to bottom (each row shows its id in code). */
const rowIdsOf = (message: SlackMessage) =>
  [...visibleText(message).matchAll(/\* {2}`(\d+)`/g)].map((match) => match[1] ?? '');

describe('search that finds what a seller means', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  /** `/events <text>`: the message it produced and the service requests it made. */
  async function run(command: string) {
    const before = bot.sim.requests().length;
    await bot.command(command);
    await bot.idle();
    const message = bot.last();
    expect(message.warnings).toEqual([]);
    return { message: structuredClone(message), requests: bot.sim.requests().slice(before) };
  }
  /** The event ids of every page of a list card, top to bottom: Next → clicked up to the last page. */
  async function allRowIdsOf(message: SlackMessage) {
    const ids = rowIdsOf(message);
    let current = message;
    while (buttonsOf(current).some(({ button }) => button.action_id === 'list.page.next')) {
      await bot.click(current, 'list.page.next', ALICE);
      await bot.idle();
      current = structuredClone(bot.find((candidate) => candidate.ts === current.ts));
      ids.push(...rowIdsOf(current));
    }
    return ids;
  }
  const keywordsRead = (requests: ReturnType<Bot['sim']['requests']>) =>
    requests.filter((r) => r.path === LIST_ROUTE).map((r) => r.query.keyword);

  it('finds shows matching any of several words, those matching more words first', async () => {
    // Prepare: the seed's shows naming fintech, payments, or both
    const both = bot.sim.events.filter((e) => holds(e, 'fintech') && holds(e, 'payments'));
    const either = bot.sim.events.filter((e) => holds(e, 'fintech') || holds(e, 'payments'));
    expect(both.length).toBeGreaterThan(0);
    expect(either.length).toBeGreaterThan(both.length);

    // Act
    const { message, requests } = await run('search fintech payments');

    // Assess: every show matching either word, of the shows still ahead the ones matching both on top, one free read per word
    const rows = await allRowIdsOf(message);
    expect(new Set(rows)).toEqual(new Set(either.map((e) => e.eventId)));
    const ahead = (e: SeededEvent) => (e.dateEnd ?? e.dateStart) >= bot.sim.today;
    const bothAhead = both.filter(ahead);
    expect(new Set(rows.slice(0, bothAhead.length))).toEqual(new Set(bothAhead.map((e) => e.eventId)));
    expect(visibleText(message)).toContain('Matches: fintech, payments');
    expect(new Set(keywordsRead(requests))).toEqual(new Set(['fintech', 'payments']));
    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
  });

  it('lists the shows still ahead before the ended ones when no dates are given, the latest ended first', async () => {
    // Prepare: a word of an ended show's name, which shows still ahead hold too
    const isAhead = (e: SeededEvent) => (e.dateEnd ?? e.dateStart) >= bot.sim.today;
    const word = bot.sim.events
      .filter((e) => !isAhead(e))
      .flatMap((e) => e.name.split(' '))
      .find((w) => w.length > 3 && bot.sim.events.some((e) => isAhead(e) && holds(e, w)));
    if (!word) throw new Error('the simulator has no ended show sharing a word with one ahead');

    // Act
    const { message } = await run(`search ${word}`);

    // Assess
    const byId = new Map(bot.sim.events.map((e) => [e.eventId, e]));
    const rows = (await allRowIdsOf(message)).map((id) => byId.get(id)).filter((e) => e !== undefined);
    const firstEnded = rows.findIndex((e) => !isAhead(e));
    expect(firstEnded).toBeGreaterThan(0);
    expect(rows.slice(firstEnded).every((e) => !isAhead(e))).toBe(true);
    const ended = rows.slice(firstEnded).map((e) => e.dateStart);
    expect(ended).toEqual([...ended].sort().reverse());
  });

  it('finds the payments shows for `search payments`', async () => {
    const expected = bot.sim.events.filter((e) => holds(e, 'payments')).map((e) => e.eventId);
    expect(expected.length).toBeGreaterThan(0);

    const { message } = await run('search payments');

    expect(new Set(await allRowIdsOf(message))).toEqual(new Set(expected));
  });

  it('keeps a region search to the region’s countries, reading the list without a country', async () => {
    // Prepare
    const inEurope = bot.sim.events.filter((e) => europe.includes(e.country));
    const fintechEurope = inEurope.filter((e) => holds(e, 'fintech') || holds(e, 'payments'));
    expect(fintechEurope.length).toBeGreaterThan(0);

    // Act
    const all = await run('search region:Europe');
    const words = await run('search fintech payments region:europe');

    // Assess
    expect(visibleText(all.message)).toContain(`of ${inEurope.length}`);
    for (const id of rowIdsOf(all.message)) expect(inEurope.map((e) => e.eventId)).toContain(id);
    expect(
      all.requests.filter((r) => r.path === LIST_ROUTE).every((r) => r.query.country === undefined),
    ).toBe(true);
    expect(new Set(await allRowIdsOf(words.message))).toEqual(new Set(fintechEurope.map((e) => e.eventId)));
  });

  it('limits the dates to a quarter with when:', async () => {
    // Prepare: the quarter of the first show matching either word
    const either = bot.sim.events.filter((e) => holds(e, 'fintech') || holds(e, 'payments'));
    const first = either[0];
    if (!first) throw new Error('no matching show in the seed');
    const month = Number(first.dateStart.slice(5, 7));
    const key = `Q${Math.ceil(month / 3)}-${first.dateStart.slice(0, 4)}`;
    const quarter = parseCalendarPeriod(key);
    if (!quarter) throw new Error(`no quarter ${key}`);
    const inQuarter = either.filter((e) => e.dateStart >= quarter.from && e.dateStart <= quarter.to);

    // Act
    const { message, requests } = await run(`search fintech payments when:${key}`);

    // Assess: the shows of that quarter only, the service asked for its first and last day
    expect(new Set(rowIdsOf(message))).toEqual(new Set(inQuarter.map((e) => e.eventId)));
    const reads = requests.filter((r) => r.path === LIST_ROUTE);
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads)
      expect(read.query).toMatchObject({ date_start_from: quarter.from, date_start_to: quarter.to });
  });

  it('answers bad regions, quarters and clashing dates in words, asking the service nothing', async () => {
    const before = bot.sim.requests().length;

    const answers = [
      await bot.command('search fintech region:Antarctica'),
      await bot.command('search fintech when:Q5-2027'),
      await bot.command('search fintech when:Q2-2027 from:2027-01-01'),
    ].map((answer) => answer.body);
    await bot.idle();

    expect(answers[0]).toContain('`region:Antarctica` is not a region I know');
    expect(answers[0]).toContain('`North-America`');
    expect(answers[1]).toContain('is not a quarter or a month');
    expect(answers[2]).toContain('both give the dates');
    expect(
      bot.sim
        .requests()
        .slice(before)
        .filter((r) => r.path === LIST_ROUTE),
    ).toEqual([]);
  });

  it('finds shows for the Search modal’s own placeholder words', async () => {
    // Prepare
    await bot.slack.globalShortcut({ user: ALICE.userId, callbackId: 'search_events' });
    const modal = bot.slack.modal(ALICE.userId);
    const placeholder = JSON.stringify(modal?.view.blocks).match(
      /"block_id":"keywords".*?"placeholder":\{"type":"plain_text","text":"([^"]+)"/,
    )?.[1];
    expect(placeholder).toBe('fintech, payments');
    const expected = bot.sim.events.filter((e) => holds(e, 'fintech') || holds(e, 'payments'));

    // Act
    await bot.slack.submitView({
      user: ALICE.userId,
      values: { keywords: text(placeholder ?? ''), channel: channel(CHANNEL) },
    });
    await bot.idle();

    // Assess
    expect(new Set(await allRowIdsOf(bot.last()))).toEqual(new Set(expected.map((e) => e.eventId)));
  });

  it('the digest finds the shows of several words in its horizon', async () => {
    // Prepare: the upcoming shows (within the digest's horizon) naming fintech or payments
    const today = new Date().toISOString().slice(0, 10);
    const horizon = new Date(Date.now() + HORIZON_DAYS * 86_400_000).toISOString().slice(0, 10);
    const expected = bot.sim.events.filter(
      (e) => (holds(e, 'fintech') || holds(e, 'payments')) && e.dateStart >= today && e.dateStart <= horizon,
    );
    expect(expected.length).toBeGreaterThan(0);
    await bot.command('digest on 08:30 Europe/Berlin keywords:fintech payments');
    await bot.idle();

    // Act
    await bot.command('digest now');
    await bot.idle();

    // Assess
    const digest = bot
      .messages()
      .filter((m) => /Digest for/.test(m.text))
      .at(-1);
    if (!digest) throw new Error('no digest');
    const shown = [...JSON.stringify(digest.blocks).matchAll(/\\"eventId\\":\\"([^\\]+)\\"/g)].map(
      (m) => m[1],
    );
    expect(new Set(shown)).toEqual(new Set(expected.map((e) => e.eventId)));
  });

  it('shows-for reads region: as a seller’s region and state: as the service’s region', async () => {
    // Act
    const regional = await run('shows-for payment teams region:Europe');
    const state = await run('shows-for payment teams state:Nevada');

    // Assess
    const ids = rowIdsOfShows(regional.message);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      const event = bot.sim.events.find((e) => e.eventId === id);
      expect(europe).toContain(event?.country);
    }
    const regionalRead = regional.requests.find((r) => r.path === SHOWS_ROUTE)?.body;
    expect(regionalRead).not.toHaveProperty('region');
    expect(regionalRead).not.toHaveProperty('country');
    expect(state.requests.find((r) => r.path === SHOWS_ROUTE)?.body).toMatchObject({ region: 'Nevada' });
  });
});

/** The shows of a shows-for card, from their row buttons (`event-<id>` blocks). */
function rowIdsOfShows(message: SlackMessage): string[] {
  return [...JSON.stringify(message.blocks).matchAll(/"block_id":"event-(\d+)"/g)].map((m) => m[1] ?? '');
}
