import { describe, expect, it } from 'vitest';
import { blockKitViolations } from '../../../../../local/fake-slack/block-kit-check.ts';
import { readCompareIds } from '../../../../../src/slack/features/compare/commands.ts';
import { readCompareForm } from '../../../../../src/slack/features/compare/forms.ts';
import {
  type ComparedShow,
  compareCard,
  compareModal,
  type FoundShow,
} from '../../../../../src/slack/features/compare/views.ts';
import { CompareValueSchema } from '../../../../../src/slack/features/compare/buttons.ts';
import { buttonsOf, textsOf } from '../../../../support/views.ts';
import { compareButton } from '../../../../../src/slack/kit/row-buttons.ts';

/** The day the cards are built on: the shows here are later. */
const TODAY = '2026-11-28';

const show = (eventId: string, overrides: Partial<FoundShow> = {}): FoundShow => ({
  found: true,
  event: {
    eventId,
    name: `Show ${eventId}`,
    dateStart: '2027-03-10',
    dateEnd: '2027-03-12',
    city: 'Berlin',
    country: 'Germany',
    exhibitorCount: 1200,
    hasVisitors: true,
  },
  fit: {
    score: 7.4,
    recommendation: 'recommended',
    breakdown: { profile_match: 8, matched_exhibitor_density: 6.5, event_scale: 7 },
  },
  watched: [],
  unlock: { state: 'locked', credits: 2000, estimated: false },
  ...overrides,
});

/** The card's section whose text starts with `*title*`. */
const fact = (shows: ComparedShow[], title: string, watchesAccounts = true) =>
  textsOf(compareCard({ shows, watchesAccounts, today: TODAY }).blocks).find((text) =>
    text.startsWith(`*${title}*`),
  ) ?? '';

describe('readCompareIds', () => {
  it('reads 2 to 5 ids separated by spaces or commas, in order', () => {
    expect(readCompareIds('27317, 27053 27251')).toEqual({ ok: true, eventIds: ['27317', '27053', '27251'] });
    expect(readCompareIds('1 2 3 4 5')).toMatchObject({ ok: true });
  });

  it.each([
    ['', /Give 2 to 5 event ids/],
    ['26855', /one show alone: `\/events fit <event_id>`/],
    ['1 2 3 4 5 6', /at most 5 shows; you gave 6/],
    ['26855 26856 26855', /`26855` is given twice/],
    ['26855 fintech', /`fintech` is not an event id/],
    ['26855 <@U1>', /is not an event id/],
  ])('refuses %j', (text, problem) => {
    const read = readCompareIds(text);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.problem).toMatch(problem);
  });
});

describe('compareCard', () => {
  it('gives every show a line in each fact, with its score, band and three factors', () => {
    const shows = [
      show('1'),
      show('2', { fit: { score: 3.1, recommendation: 'not_recommended', breakdown: null } }),
    ];

    const fit = fact(shows, 'Fit for your profile');

    expect(fit).toContain('*Show 1*: *7.4 / 10* :large_green_circle: Recommended');
    expect(fit).toContain('Profile match 8.0/10 · Exhibitor density 6.5/10 · Event scale 7.0/10');
    expect(fit).toContain('*Show 2*: *3.1 / 10* :red_circle: Not recommended');
    expect(fact(shows, 'When')).toBe('*When*\n*Show 1*: 10–12 Mar 2027\n*Show 2*: 10–12 Mar 2027');
    expect(fact(shows, 'Where')).toContain('*Show 1*: Berlin, Germany');
    expect(fact(shows, 'Exhibitors')).toContain('*Show 1*: 1,200');
    expect(fact(shows, 'Visitor data')).toContain('*Show 1*: Available (separate unlock)');
  });

  it('quotes the unlock price, or says the show is unlocked, or that the price could not be had', () => {
    const shows = [
      show('1'),
      show('2', { unlock: { state: 'unlocked' } }),
      show('3', { unlock: { state: 'locked', credits: 2000, estimated: false, overBalance: true } }),
      show('4', { unlock: { state: 'locked', credits: 2000, estimated: true } }),
    ];

    const unlock = fact(shows, 'Unlock (event contacts)');

    expect(unlock).toContain('*Show 1*: 2,000 credits');
    expect(unlock).toContain('*Show 2*: :white_check_mark: Unlocked');
    expect(unlock).toContain('*Show 3*: 2,000 credits (more than the balance)');
    expect(unlock).toContain('*Show 4*: Price not available right now (list price 2,000 credits)');
  });

  it("names the channel's watched accounts at each show, and says when the channel watches none", () => {
    const shows = [
      show('1', {
        watched: [
          { label: 'Acme <Robotics>', kind: 'target' },
          { label: 'Globex', kind: 'competitor' },
        ],
      }),
      show('2'),
    ];
    const title = "This channel's watched accounts exhibiting";

    expect(fact(shows, title)).toContain('*Show 1*: Acme &lt;Robotics&gt;, Globex (competitor)');
    expect(fact(shows, title)).toContain('*Show 2*: None of the watched accounts');
    expect(fact(shows, title, false)).toContain('This channel watches no accounts yet');
  });

  it('says which show was not found and compares the others, with buttons only for those', () => {
    const card = compareCard({
      shows: [show('1'), { found: false, eventId: '99999999', reason: 'not-found' }, show('3')],
      watchesAccounts: false,
      today: TODAY,
    });

    const texts = textsOf(card.blocks).join('\n');
    expect(texts).toContain('`99999999`: not compared, the service has no show with this id');
    expect(fact([show('1'), show('3')], 'When')).not.toContain('99999999');
    const planAdds = buttonsOf(card.blocks).filter((button) => button.action_id === 'plan.add');
    expect(planAdds.map((button) => JSON.parse(button.value ?? '{}') as unknown)).toEqual([
      { eventId: '1' },
      { eventId: '3' },
    ]);
    expect(card.text).toBe('Compare: Show 1 7.4/10, 99999999 not compared, Show 3 7.4/10.');
  });

  it('stays within Block Kit limits for five shows with long names and many watched accounts', () => {
    const watched = Array.from({ length: 40 }, (_, index) => ({
      label: `Account ${index} ${'x'.repeat(80)}`,
      kind: 'target' as const,
    }));
    const shows = Array.from({ length: 5 }, (_, index) =>
      show(String(index + 1), { event: { eventId: String(index + 1), name: 'N'.repeat(300) }, watched }),
    );

    const card = compareCard({ shows, watchesAccounts: true, today: TODAY });

    expect(blockKitViolations(card.text, card.blocks)).toEqual([]);
    expect(buttonsOf(card.blocks).filter((button) => button.action_id === 'event.fit')).toHaveLength(5);
    expect(fact(shows, "This channel's watched accounts exhibiting")).toContain('…and 35 more');
  });
});

describe('Compare… on lists', () => {
  const events = Array.from({ length: 12 }, (_, index) => ({
    eventId: String(26855 + index),
    name: `Expo ${index}`,
  }));

  it("carries the page's shows (at most ten) to the modal, and is left out under fewer than two", () => {
    const button = compareButton(events);

    const value = CompareValueSchema.parse(JSON.parse(button?.value ?? '{}'));
    expect(value.shows).toHaveLength(10);
    expect(value.shows[0]).toEqual({ eventId: '26855', name: 'Expo 0' });
    expect(compareButton(events.slice(0, 1))).toBeUndefined();
  });

  it('lists the shows as checkboxes in a modal within Block Kit limits', () => {
    const view = compareModal(
      events.slice(0, 10).map((event) => ({ ...event, name: event.name.repeat(20) })),
      { channelId: 'C1', private: true },
    );

    expect(blockKitViolations('modal', view.blocks)).toEqual([]);
    expect(JSON.parse(view.private_metadata ?? '{}')).toEqual({ channelId: 'C1', private: true });
  });

  it.each([
    [['1'], 'Pick at least 2 shows to compare.'],
    [['1', '2', '3', '4', '5', '6'], 'Pick at most 5 shows: you picked 6.'],
  ])('refuses %j picked with a field error', (ids, error) => {
    const values = {
      shows: { value: { type: 'checkboxes', selected_options: ids.map((value) => ({ value })) } },
    };
    expect(readCompareForm(values)).toEqual({ ok: false, errors: { shows: error } });
  });

  it('reads 2 to 5 picked shows as their ids', () => {
    const values = {
      shows: { value: { type: 'checkboxes', selected_options: [{ value: '7' }, { value: '9' }] } },
    };
    expect(readCompareForm(values)).toEqual({ ok: true, value: ['7', '9'] });
  });
});
