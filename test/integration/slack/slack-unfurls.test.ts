import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnv } from '../../../src/platform/config/env.ts';
import type { SeededEvent } from '../../../simulator/server.ts';
import { eventIdOfLink } from '../../../src/slack/features/unfurls/listeners.ts';
import { ALICE, BOB, type Bot, CHANNEL, startBot, visibleText } from '../../support/bot.ts';

const BAND = { recommended: 'Recommended', consider: 'Consider', not_recommended: 'Not recommended' };
const linkTo = (event: SeededEvent, path = 'event') => `https://app.lensmor.com/${path}/${event.eventId}`;

/** The text and buttons one unfurl shows, as Slack would render them. */
function unfurlOf(bot: Bot, url: string) {
  const unfurl = bot.slack.unfurls.findLast((candidate) => url in candidate.unfurls);
  const shown = unfurl?.unfurls[url] as { blocks?: unknown[] } | undefined;
  return { unfurl, text: JSON.stringify(shown?.blocks ?? []) };
}

describe('event-link unfurls', () => {
  let bot: Bot;
  let events: SeededEvent[];
  beforeAll(async () => {
    bot = await startBot();
    events = bot.sim.events.slice(0, 3);
  });
  afterAll(() => bot.close());

  it('unfolds an event link into a compact fit card: name, dates, place, counts, score, band, Fit and Unlock', async () => {
    const [event] = events;
    if (!event) throw new Error('no seeded event');
    const url = linkTo(event);
    const before = bot.sim.requests().length;

    const delivery = await bot.slack.shareLink({ user: ALICE.userId, channel: CHANNEL, url });
    await bot.idle();

    expect(delivery?.status).toBe(200);
    const posted = bot.last();
    const { unfurl, text } = unfurlOf(bot, url);
    expect(unfurl).toMatchObject({ channel: CHANNEL, ts: posted.ts });
    expect(text).toContain(event.name);
    expect(text).toContain(event.city);
    // The brief's counts, and the brief asked for rather than the heavier detail.
    expect(text).toContain(`${event.exhibitorCount.toLocaleString('en-US')} exhibitors`);
    expect(text).toContain(`${event.attendeeCount.toLocaleString('en-US')} attendees`);
    const asked = bot.sim
      .requests()
      .slice(before)
      .map((request) => request.path);
    expect(asked).toContain('/external/events/brief');
    expect(asked).not.toContain('/external/events/detail');
    expect(asked).not.toContain(`/external/events/${event.eventId}`);
    expect(text).toMatch(/Fit \d+\.\d \/ 10/);
    expect(text).toContain(BAND[event.fit.recommendation]);
    expect(text).toContain('"action_id":"event.fit"');
    expect(text).toContain('"action_id":"fit.unlock"');
    // Nothing else is said in the channel: the unfurl is the whole answer.
    expect(bot.last().ts).toBe(posted.ts);
  });

  it('unfurls once when Slack delivers the same link_shared twice, the second time as a retry', async () => {
    const [, event] = events;
    if (!event) throw new Error('no seeded event');
    const url = linkTo(event, 'events');
    const before = bot.slack.unfurls.length;

    const first = await bot.slack.shareLink({ user: ALICE.userId, channel: CHANNEL, url });
    if (!first) throw new Error('link_shared not sent');
    const posted = bot.last();
    const again = {
      type: 'link_shared',
      channel: CHANNEL,
      user: ALICE.userId,
      message_ts: posted.ts,
      unfurl_id: `${posted.ts}.${ALICE.userId}`,
      source: 'conversations_history',
      links: [{ domain: 'app.lensmor.com', url }],
    };
    const retry = await bot.slack.sendEvent(again, { eventId: first.eventId, retryNum: 1 });
    const redelivery = await bot.slack.sendEvent(again, { eventId: first.eventId });
    await bot.idle();

    expect([retry.status, redelivery.status]).toEqual([200, 200]);
    const added = bot.slack.unfurls.slice(before);
    expect(added).toHaveLength(1);
    expect(Object.keys(added[0]?.unfurls ?? {})).toEqual([url]);
  });

  it('unfurls every known event of a message in one chat.unfurl, leaving an unknown id and other links alone', async () => {
    const [first, second] = events;
    if (!first || !second) throw new Error('no seeded events');
    const unknown = 'https://app.lensmor.com/event/99999999';
    const elsewhere = `https://example.com/event/${first.eventId}`;
    const before = bot.slack.unfurls.length;

    await bot.slack.sendMessage({
      user: BOB.userId,
      channel: CHANNEL,
      text: `Compare ${linkTo(first)} with ${linkTo(second, 'en/events')}/exhibitors and ${unknown} or ${elsewhere}`,
    });
    await bot.idle();

    const added = bot.slack.unfurls.slice(before);
    expect(added).toHaveLength(1);
    expect(Object.keys(added[0]?.unfurls ?? {}).sort()).toEqual(
      [linkTo(first), `${linkTo(second, 'en/events')}/exhibitors`].sort(),
    );
  });

  it('unfurls nothing for an unknown event id, and tells no one', async () => {
    const before = { unfurls: bot.slack.unfurls.length, messages: bot.messages().length };

    const delivery = await bot.slack.shareLink({
      user: ALICE.userId,
      channel: CHANNEL,
      url: 'https://app.lensmor.com/event/99999999',
    });
    await bot.idle();

    expect(delivery?.status).toBe(200);
    expect(bot.slack.unfurls).toHaveLength(before.unfurls);
    // Only the link itself was posted: no error, not even one only its poster sees.
    expect(bot.messages()).toHaveLength(before.messages + 1);
  });

  it('ignores other domains and links that name no event, without asking the service', async () => {
    const before = { unfurls: bot.slack.unfurls.length, requests: bot.sim.requests().length };
    const links = [
      `https://example.com/event/${events[0]?.eventId ?? ''}`,
      'https://app.lensmor.com/events/search?q=fintech',
      'https://app.lensmor.com/pricing',
      'https://app.lensmor.com/exhibitor/26855',
    ];
    const posted = await bot.slack.sendMessage({ user: ALICE.userId, channel: CHANNEL, text: 'see' });
    expect(posted).toBeUndefined();

    // As Slack would send them, had the app asked for every domain.
    const delivery = await bot.slack.sendEvent({
      type: 'link_shared',
      channel: CHANNEL,
      user: ALICE.userId,
      message_ts: bot.last().ts,
      source: 'conversations_history',
      links: links.map((url) => ({ domain: new URL(url).hostname, url })),
    });
    await bot.idle();

    expect(delivery.status).toBe(200);
    expect(bot.slack.unfurls).toHaveLength(before.unfurls);
    expect(bot.sim.requests()).toHaveLength(before.requests);
  });

  it('a click on the unfurl’s Fit button answers in the thread of the message with the link, for everyone', async () => {
    const [event] = events;
    if (!event) throw new Error('no seeded event');
    const url = linkTo(event);
    await bot.slack.shareLink({ user: ALICE.userId, channel: CHANNEL, url });
    await bot.idle();
    const posted = bot.last();

    const click = await bot.slack.click({
      user: BOB.userId,
      channel: CHANNEL,
      ts: posted.ts,
      actionId: 'event.fit',
      unfurlUrl: url,
    });
    await bot.idle();

    expect(click.status).toBe(200);
    const reply = bot.last();
    expect(reply.threadTs).toBe(posted.ts);
    expect(reply.visibleTo).toBeUndefined();
    expect(visibleText(reply)).toContain('Profile match');
  });

  it('a click on the unfurl’s Unlock button asks for a confirmation, as on the fit card', async () => {
    const [event] = events;
    if (!event) throw new Error('no seeded event');
    const url = linkTo(event);
    await bot.slack.shareLink({ user: ALICE.userId, channel: CHANNEL, url });
    await bot.idle();
    const posted = bot.last();

    await bot.slack.click({
      user: ALICE.userId,
      channel: CHANNEL,
      ts: posted.ts,
      actionId: 'fit.unlock',
      unfurlUrl: url,
    });
    await bot.idle();

    const card = bot.messages().findLast((message) => visibleText(message).includes('confirm.yes'));
    expect(card).toBeDefined();
    expect(visibleText(card ?? { text: '', blocks: [] })).toContain(`<@${ALICE.userId}>`);
    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
  });
});

describe('which links are event links', () => {
  const domains = ['app.lensmor.com'];

  it('takes the id after an event or events segment, on the domain or a subdomain', () => {
    expect(eventIdOfLink('https://app.lensmor.com/event/26855', domains)).toBe('26855');
    expect(eventIdOfLink('https://app.lensmor.com/events/26855?tab=fit', domains)).toBe('26855');
    expect(eventIdOfLink('https://app.lensmor.com/en/Events/ev-26855/exhibitors', domains)).toBe('ev-26855');
    expect(eventIdOfLink('https://eu.app.lensmor.com/event/26855', domains)).toBe('26855');
  });

  it('names nothing elsewhere', () => {
    expect(eventIdOfLink('https://lensmor.com/event/26855', domains)).toBeUndefined();
    expect(eventIdOfLink('https://app.lensmor.com.evil.example/event/26855', domains)).toBeUndefined();
    expect(eventIdOfLink('https://app.lensmor.com/events/search', domains)).toBeUndefined();
    expect(eventIdOfLink('https://app.lensmor.com/event/', domains)).toBeUndefined();
    expect(eventIdOfLink('mailto:someone@app.lensmor.com', domains)).toBeUndefined();
    expect(eventIdOfLink('not a url', domains)).toBeUndefined();
  });

  it('reads UNFURL_DOMAINS (comma-separated), app.lensmor.com by default', () => {
    const base = { TABLE_NAME: 't', EIS_BASE_URL: 'https://platform.lensmor.com' };
    expect(readEnv(base).UNFURL_DOMAINS).toEqual(['app.lensmor.com']);
    expect(
      readEnv({ ...base, UNFURL_DOMAINS: ' App.Lensmor.com, events.example.org ' }).UNFURL_DOMAINS,
    ).toEqual(['app.lensmor.com', 'events.example.org']);
  });
});
