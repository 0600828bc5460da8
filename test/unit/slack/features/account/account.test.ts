import { describe, expect, it } from 'vitest';
import { accountCard, EVENTS_ON_A_CARD, upcomingFirst } from '../../../../../src/slack/features/account/views.ts';
import { buttonsOf, textsOf } from '../../../../support/views.ts';

const TODAY = '2027-03-10';
const event = (eventId: string, dateStart: string | null, dateEnd: string | null = dateStart) => ({
  eventId,
  name: `Event ${eventId}`,
  dateStart,
  dateEnd,
});

describe('upcomingFirst', () => {
  it('puts upcoming events first, soonest first, then past ones, latest first, then undated ones', () => {
    const events = [
      event('past-old', '2026-01-01'),
      event('undated', null),
      event('later', '2027-09-01'),
      event('running', '2027-03-08', '2027-03-11'),
      event('past-recent', '2027-02-01'),
      event('soon', '2027-04-01'),
    ];

    expect(upcomingFirst(events, TODAY).map((e) => e.eventId)).toEqual([
      'running',
      'soon',
      'later',
      'past-recent',
      'past-old',
      'undated',
    ]);
  });
});

describe('accountCard', () => {
  it('names the company, and gives each event shown its own Fit / Exhibitors / People / Add to plan', () => {
    const events = Array.from({ length: 12 }, (_, i) => event(String(100 + i), `2027-0${(i % 9) + 1}-15`));

    const card = accountCard(
      { id: '4100', companyName: 'Acme <Analytics>' },
      { items: events, total: 30 },
      TODAY,
    );

    const texts = textsOf(card.blocks).join('\n');
    expect(card.blocks[0]).toMatchObject({ type: 'header', text: { text: 'Acme <Analytics>' } });
    expect(texts).toContain('30 events');
    expect(texts).toContain(`the first ${EVENTS_ON_A_CARD} shown`);
    const buttons = buttonsOf(card.blocks);
    expect(buttons).toHaveLength(EVENTS_ON_A_CARD * 4);
    expect(buttons.slice(0, 4).map((b) => b.action_id)).toEqual([
      'event.fit',
      'fit.exhibitors',
      'fit.people',
      'plan.add',
    ]);
    expect(JSON.parse(buttons[0]?.value ?? '{}')).toEqual({ eventId: '102' });
  });
});
