import { describe, expect, it } from 'vitest';
import type { Button } from '@slack/types';
import { blockKitViolations } from '../../../../../local/fake-slack/block-kit-check.ts';
import { describeAction } from '../../../../../src/slack/kit/charge-words.ts';
import { confirmationCard } from '../../../../../src/slack/kit/confirmation-card.ts';
import { eventList } from '../../../../../src/slack/features/lists/event-views.ts';
import {
  companyExhibitorList,
  exhibitorList,
  similarExhibitorList,
} from '../../../../../src/slack/features/lists/exhibitor-views.ts';
import type {
  EventSummary,
  ExhibitorSummary,
  ListPage,
  SlackMessage,
} from '../../../../../src/slack/views/types.ts';
import { buttonsOf, textsOf } from '../../../../support/views.ts';

/** Issue 26, item 5: search rows and exhibitor rows lead on; event unlock cards name the show. */

const shown = (message: SlackMessage) => textsOf(message.blocks).join('\n');
const valueOf = (button: Button): unknown => JSON.parse(button.value ?? 'null');
const page = <T>(items: T[], overrides: Partial<ListPage<T>> = {}): ListPage<T> => ({
  items,
  total: items.length,
  page: 1,
  totalPages: 1,
  hasMore: false,
  ...overrides,
});
const event = (index: number): EventSummary => ({
  eventId: String(27_000 + index),
  name: `Expo ${index}`,
  dateStart: '2027-03-12',
  dateEnd: '2027-03-14',
  city: 'Berlin',
  country: 'Germany',
});
const exhibitor = (id: string): ExhibitorSummary => ({
  id,
  companyName: `Company ${id}`,
  country: 'Germany',
});
/** The section accessories: the button beside each row. */
const accessories = (message: SlackMessage): Button[] =>
  message.blocks.flatMap((block) =>
    block.type === 'section' && block.accessory?.type === 'button' ? [block.accessory] : [],
  );

describe('search rows', () => {
  it('put Fit / Exhibitors / People / Add to plan under each row, for that row’s event', () => {
    // Act
    const message = eventList({ query: { keywords: 'fintech' }, page: page([event(1), event(2)]) });

    // Assess: row, its buttons, row, its buttons, then the list's own row
    const types = message.blocks.map((block) => block.type);
    expect(types.slice(2, 6)).toEqual(['section', 'actions', 'section', 'actions']);
    const [, , firstRow, firstLeads, , secondLeads] = message.blocks;
    expect(textsOf(firstRow).join('')).toContain('*Expo 1*  `27001`');
    for (const [leads, eventId] of [
      [firstLeads, '27001'],
      [secondLeads, '27002'],
    ] as const) {
      const buttons = leads ? buttonsOf([leads]) : [];
      expect(buttons.map((button) => [button.text.text, button.action_id, valueOf(button)])).toEqual([
        ['Fit', 'event.fit', { eventId }],
        ['Exhibitors', 'fit.exhibitors', { eventId }],
        ['People', 'fit.people', { eventId }],
        ['Add to plan', 'plan.add', { eventId }],
      ]);
    }
    expect(blockKitViolations(message.text, message.blocks)).toEqual([]);
  });

  it('keep a full page of ten within Slack’s limits, every row with its buttons', () => {
    // Act
    const message = eventList({
      query: { keywords: 'fintech' },
      page: page(
        Array.from({ length: 10 }, (_, index) => event(index)),
        { hasMore: true, total: 40, totalPages: 4 },
      ),
    });

    // Assess
    expect(buttonsOf(message.blocks).filter((button) => button.action_id === 'event.fit')).toHaveLength(10);
    expect(shown(message)).not.toContain('more events');
    expect(blockKitViolations(message.text, message.blocks)).toEqual([]);
  });

  it('of a paid search (company → events) keep every one of their 40 rows, without row buttons', () => {
    // Act
    const message = eventList({
      query: {},
      pageable: false,
      page: page(Array.from({ length: 40 }, (_, index) => event(index))),
    });

    // Assess
    expect(message.blocks.filter((block) => block.type === 'section')).toHaveLength(40);
    expect(buttonsOf(message.blocks)).toEqual([]);
    expect(blockKitViolations(message.text, message.blocks)).toEqual([]);
  });
});

describe('exhibitor rows', () => {
  it('of an event show each exhibitor’s id with an Account button beside it', () => {
    // Act
    const message = exhibitorList({
      eventId: '26855',
      query: { eventId: '26855' },
      page: page([exhibitor('101'), exhibitor('102')]),
    });

    // Assess
    const text = shown(message);
    expect(text).toContain('*Company 101*\nGermany\nExhibitor ID `101`');
    expect(text).toContain('Exhibitor ID `102`');
    expect(
      accessories(message).map((button) => [button.text.text, button.action_id, valueOf(button)]),
    ).toEqual([
      ['Account', 'account.open', { exhibitorId: '101' }],
      ['Account', 'account.open', { exhibitorId: '102' }],
    ]);
  });

  it('have no Account button for an id `/events account` would refuse, and still show the id', () => {
    // Act
    const message = exhibitorList({
      eventId: '26855',
      query: { eventId: '26855' },
      page: page([exhibitor('x-1')]),
    });

    // Assess
    expect(shown(message)).toContain('Exhibitor ID `x-1`');
    expect(accessories(message)).toEqual([]);
  });

  it('are the same on company-name records and similar exhibitors', () => {
    // Act
    const lists = [
      companyExhibitorList({ query: {}, pageable: false, page: page([exhibitor('7')]) }),
      similarExhibitorList({ query: { companyUrl: 'acme.com' }, page: page([exhibitor('7')]) }),
    ];

    // Assess
    for (const message of lists) {
      expect(shown(message)).toContain('Exhibitor ID `7`');
      expect(accessories(message).map(valueOf)).toEqual([{ exhibitorId: '7' }]);
    }
  });
});

describe('event unlock cards', () => {
  const naming = {
    name: 'Fintech Expo 2027',
    dateStart: '2027-03-12',
    dateEnd: '2027-03-14',
    city: 'Berlin',
  };

  it('name the event by name, dates and city beside its number, for each kind of event unlock', () => {
    // Act + Assess
    expect(describeAction({ kind: 'event-unlock', eventId: '27317', event: naming })).toBe(
      'Unlock Fintech Expo 2027 (12–14 Mar 2027, Berlin), event 27317: every exhibitor and person, past the 50-record preview',
    );
    expect(describeAction({ kind: 'visitors-unlock', eventId: '27317', event: naming })).toBe(
      'Unlock the registered visitors of Fintech Expo 2027 (12–14 Mar 2027, Berlin), event 27317',
    );
    expect(describeAction({ kind: 'full-access-unlock', eventId: '27317', event: naming })).toBe(
      'Unlock full access to Fintech Expo 2027 (12–14 Mar 2027, Berlin), event 27317: the event and its registered visitors',
    );
  });

  it('leave out what is not known, and name the number alone when the name could not be read', () => {
    // Act + Assess
    const undated = { ...naming, dateStart: null, dateEnd: null };
    expect(describeAction({ kind: 'visitors-unlock', eventId: '27317', event: undated })).toBe(
      'Unlock the registered visitors of Fintech Expo 2027 (Berlin), event 27317',
    );
    expect(
      describeAction({ kind: 'visitors-unlock', eventId: '27317', event: { ...undated, city: null } }),
    ).toBe('Unlock the registered visitors of Fintech Expo 2027, event 27317');
    expect(describeAction({ kind: 'event-unlock', eventId: '27317' })).toBe(
      'Unlock event 27317: every exhibitor and person, past the 50-record preview',
    );
  });

  it('never let an event name ping the channel', () => {
    // Act
    const message = confirmationCard({
      description: describeAction({
        kind: 'event-unlock',
        eventId: '27317',
        event: { ...naming, name: '<!channel> Expo' },
      }),
      price: { credits: 2000, upTo: false },
      requestedBy: 'U1',
      state: 'running',
      confirmedBy: 'U1',
    });

    // Assess
    expect(JSON.stringify(message)).not.toContain('<!channel>');
    expect(shown(message)).toContain('Unlock &lt;!channel&gt; Expo (12–14 Mar 2027, Berlin), event 27317');
  });
});
