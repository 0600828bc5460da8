import { describe, expect, it } from 'vitest';
import type { Digest, DigestEvent } from '../../../../../src/domain/digest.ts';
import { blockKitViolations } from '../../../../../local/fake-slack/block-kit-check.ts';
import { ACTION_IDS } from '../../../../../src/slack/views/action-ids.ts';
import {
  describeFilters,
  describeSchedule,
  digestMessage,
  digestStatusMessage,
  digestSubscribedMessage,
  type DigestSubscriptionView,
} from '../../../../../src/slack/features/digests/views.ts';
import type { SlackMessage } from '../../../../../src/slack/views/types.ts';
import { buttonsOf, textsOf } from '../../../../support/views.ts';

const shown = (message: SlackMessage) => textsOf(message.blocks).join('\n');
// 1 March 2027: Berlin is UTC+1, New York UTC-5 (summer time starts on 14 March)
const NOW = new Date('2027-03-01T06:00:00Z');

const subscription = (overrides: Partial<DigestSubscriptionView> = {}): DigestSubscriptionView => ({
  channelId: 'C1',
  time: '08:30',
  timeZone: 'Europe/Berlin',
  filters: { keywords: 'fintech', country: 'Germany' },
  status: 'active',
  nextRunAt: '2027-03-01T07:30:00.000Z',
  ...overrides,
});

const shownEvent = (n: number, unlocked = false): DigestEvent => ({
  event: { id: String(n), eventId: `E${n}`, name: `Expo ${n}`, dateStart: '2027-04-01' },
  fit: { score: 7, recommendation: 'recommended' },
  unlocked,
});

const digest = (overrides: Partial<Digest> = {}): Digest => ({
  channelId: 'C1',
  localDate: '2027-03-01',
  timeZone: 'Europe/Berlin',
  filters: {},
  balance: 10_000,
  spentLast24h: 0,
  lowBalance: false,
  eventUnlockCredits: 2000,
  events: [shownEvent(1), shownEvent(2, true)],
  moreEvents: 0,
  unlocks: [],
  eventUnlocks: [],
  ...overrides,
});

describe('describeFilters', () => {
  it('says what the events are in plain words, and “all upcoming events” when nothing narrows them', () => {
    expect(describeFilters({})).toBe('all upcoming events');
    expect(describeFilters({ keywords: 'fintech', country: 'Germany' })).toBe(
      'events in Germany matching “fintech”',
    );
    expect(
      describeFilters({ city: 'Berlin', country: 'Germany', from: '2027-03-01', to: '2027-04-30' }),
    ).toBe('events in Berlin, Germany between 2027-03-01 and 2027-04-30');
    expect(describeFilters({ keywords: 'fintech', from: '2027-04-01', to: '2027-06-30' })).toBe(
      'events matching “fintech” in Q2 2027',
    );
    expect(describeFilters({ from: '2027-03-01', to: '2027-03-31' })).toBe('events in March 2027');
    expect(describeFilters({ keywords: '<b>', to: '2027-04-30' })).toBe(
      'events matching “&lt;b&gt;” until 2027-04-30',
    );
  });
});

describe('describeSchedule', () => {
  it('gives today’s UTC time next to the local one, and no UTC time when they are the same', () => {
    expect(describeSchedule('08:30', 'Europe/Berlin', NOW)).toBe(
      'every day at 08:30 Europe/Berlin (07:30 UTC today)',
    );
    expect(describeSchedule('08:30', 'America/New_York', new Date('2027-03-15T12:00:00Z'))).toBe(
      'every day at 08:30 America/New_York (12:30 UTC today)',
    );
    expect(describeSchedule('09:00', 'UTC', NOW)).toBe('every day at 09:00 UTC');
  });
});

describe('digestSubscribedMessage and digestStatusMessage', () => {
  it('repeat the schedule as understood, with the parser’s note on `digest on`', () => {
    // Act
    const on = digestSubscribedMessage(subscription(), { now: NOW, note: 'CET read as Europe/Berlin' });
    const status = digestStatusMessage(subscription(), NOW);

    // Assess
    const schedule =
      'Daily digest on: every day at 08:30 Europe/Berlin (07:30 UTC today) — events in Germany matching “fintech”.';
    expect(on.text).toContain(`${schedule} Note: CET read as Europe/Berlin.`);
    expect(status.text).toContain(schedule);
    expect(status.text).toContain('`/events digest off` stops it');
  });

  it('never says “matching all events”', () => {
    // Act
    const on = digestSubscribedMessage(subscription({ filters: {}, timeZone: 'UTC' }), {
      now: NOW,
      zoneGuessed: true,
    });

    // Assess
    expect(on.text).toContain('Daily digest on: every day at 08:30 UTC — all upcoming events.');
    expect(on.text).toContain('Your Slack time zone was not available');
    expect(on.text).not.toContain('matching all');
  });

  it('says why a stopped digest stopped and what it was', () => {
    // Act
    const status = digestStatusMessage(
      subscription({ status: 'disabled', disabledReason: 'is_archived' }),
      NOW,
    );

    // Assess
    expect(status.text).toContain(
      'stopped: the channel was archived. It ran every day at 08:30 Europe/Berlin (07:30 UTC today) — events in Germany matching “fintech”.',
    );
  });
});

describe('digestMessage', () => {
  it('tells a channel with a digest when the next comes and how to change or stop it', () => {
    // Act
    const message = digestMessage(
      digest({ schedule: { time: '08:30', timeZone: 'Europe/Berlin', next: '2027-03-02T07:30:00.000Z' } }),
    );

    // Assess
    const text = shown(message);
    expect(text).toContain(`Next digest <!date^${Date.parse('2027-03-02T07:30:00Z') / 1000}^`);
    expect(text).toContain('every day at 08:30 Europe/Berlin');
    expect(text).toContain('`/events digest off` to stop');
    expect(text).not.toContain('to get this every morning');
    expect(blockKitViolations(message.text, message.blocks)).toEqual([]);
  });

  it('offers a daily digest only in a channel without one', () => {
    // Act
    const text = shown(digestMessage(digest()));

    // Assess
    expect(text).toContain('`/events digest on` to get this every morning');
    expect(text).toContain('*Upcoming events*, next 90 days');
    expect(text).not.toContain('all events');
  });

  it('says which events the filters chose', () => {
    // Act
    const text = shown(digestMessage(digest({ filters: { keywords: 'fintech', country: 'Germany' } })));

    // Assess
    expect(text).toContain('*Upcoming events* in Germany matching “fintech”, next 90 days, best fit first');
  });

  it('offers no Unlock button for an event already unlocked', () => {
    // Act
    const message = digestMessage(digest());

    // Assess
    const unlocks = buttonsOf(message.blocks).filter((b) => b.action_id === ACTION_IDS.digestUnlock);
    expect(unlocks.map((b) => b.value)).toEqual([JSON.stringify({ eventId: 'E1' })]);
    expect(buttonsOf(message.blocks).filter((b) => b.action_id === ACTION_IDS.digestFit)).toHaveLength(2);
    expect(shown(message)).toMatch(/ID `E2` · Unlocked/);
  });

  it('lists event unlocks with contact unlocks, oldest first, named where the digest knows the event', () => {
    // Act
    const text = shown(
      digestMessage(
        digest({
          eventUnlocks: [
            {
              action: 'event-unlock',
              eventId: 'E2',
              eventName: 'Expo 2',
              credits: 2000,
              requestedBy: 'U1',
              confirmedBy: 'U4',
              at: '2027-02-28T10:00:00.000Z',
            },
            {
              action: 'full-access-unlock',
              eventId: 'E99',
              eventName: null,
              credits: 5000,
              requestedBy: 'U2',
              confirmedBy: 'U2',
              at: '2027-02-28T12:00:00.000Z',
            },
          ],
          unlocks: [
            {
              taskId: '1',
              kind: 'email',
              channelId: 'C1',
              threadTs: '1.2',
              requestedBy: 'U3',
              people: 2,
              finishedAt: '2027-02-28T11:00:00.000Z',
              outcome: { status: 'completed', unlocked: 2, notUnlocked: 0, skipped: 0 },
            },
          ],
        }),
      ),
    );

    // Assess
    const lines = text.split('\n').filter((line) => line.startsWith('• '));
    expect(lines).toEqual([
      '• Event unlock — *Expo 2* (`E2`) · 2,000 credits · asked by <@U1> · confirmed by <@U4>',
      expect.stringContaining('Emails for 2 people'),
      '• Full access unlock — event `E99` · 5,000 credits · asked by <@U2>',
    ]);
  });
});
