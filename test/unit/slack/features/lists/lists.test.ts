import { describe, expect, it } from 'vitest';
import { blockKitViolations } from '../../../../../local/fake-slack/block-kit-check.ts';
import { eventList } from '../../../../../src/slack/features/lists/event-views.ts';
import {
  exhibitorList,
  recommendedExhibitorList,
} from '../../../../../src/slack/features/lists/exhibitor-views.ts';
import {
  contactList,
  peopleList,
  showAllPeopleButton,
} from '../../../../../src/slack/features/lists/people-views.ts';
import type {
  ExhibitorSummary,
  ListPage,
  PersonnelItem,
  Semantics,
  SlackMessage,
} from '../../../../../src/slack/views/types.ts';
import { recommendedEventList } from '../../../../../src/slack/features/lists/recommended-events-views.ts';
import { buttonsOf, textsOf } from '../../../../support/views.ts';

const shown = (message: SlackMessage) => textsOf(message.blocks).join('\n');
/** The list's own buttons; "Filter…" and "Export CSV" have their own tests. */
const buttonLabels = (message: SlackMessage) =>
  buttonsOf(message.blocks)
    .filter((element) => element.action_id !== 'list.filter' && element.action_id !== 'list.export')
    .map((element) => element.text.text);
const buttonValue = (message: SlackMessage, label: string): unknown => {
  const element = buttonsOf(message.blocks).find((candidate) => candidate.text.text.includes(label));
  return element?.value === undefined ? undefined : JSON.parse(element.value);
};

function exhibitor(index: number, overrides: Partial<ExhibitorSummary> = {}): ExhibitorSummary {
  return {
    id: String(index),
    companyName: `Company ${index}`,
    industry: 'Payments',
    country: 'Germany',
    employeeCount: 120,
    website: 'https://company.example',
    ...overrides,
  };
}

function previewSemantics(overrides: Partial<Semantics> = {}): Semantics {
  return {
    accessMode: 'preview',
    previewLimit: 50,
    counts: { actualTotal: 312, visibleTotal: 50, remainingLockedCount: 262 },
    pageState: { requestedPage: 1, accessible: true, maxAccessiblePage: 3 },
    unlock: { requiredForMoreResults: true, actionType: 'unlock_event_exhibitors', credits: 2000 },
    guidance: { code: 'preview_results_truncated', message: 'Unlock to see more' },
    ...overrides,
  };
}

function page<T>(
  items: T[],
  overrides: Partial<ListPage<T> & { pageSize: number }> = {},
): ListPage<T> & { pageSize?: number } {
  return { items, total: items.length, page: 1, totalPages: 1, hasMore: false, ...overrides };
}

const query = { eventId: '26855', keyword: 'pay' };

describe('exhibitorList', () => {
  it('says which rows are shown, and how many are free and locked, with the unlock at its price', () => {
    // Prepare
    const items = Array.from({ length: 10 }, (_, index) => exhibitor(index + 1));
    const input = {
      eventId: '26855',
      query,
      page: page(items, {
        total: 50,
        pageSize: 10,
        totalPages: 5,
        hasMore: true,
        semantics: previewSemantics({
          counts: { actualTotal: 340, visibleTotal: 50, remainingLockedCount: 290 },
          pageState: { requestedPage: 1, accessible: true, maxAccessiblePage: 5 },
        }),
      }),
    };

    // Act
    const message = exhibitorList(input);

    // Assess
    expect(shown(message)).toContain('Page 1 of 5 · rows 1–10 of 340 (50 free, 290 locked)');
    expect(shown(message)).not.toContain('preview records');
    expect(message.text).toContain('Page 1 of 5 · rows 1–10 of 340 (50 free, 290 locked).');
    expect(buttonLabels(message)).toContain('Unlock event · 2,000 credits');
    expect(buttonValue(message, 'Unlock event')).toEqual({ eventId: '26855' });
    expect(buttonsOf(message.blocks).find((element) => element.text.text.includes('Unlock'))?.action_id).toBe(
      'list.unlock',
    );
  });

  it('says plainly which rows are shown when nothing is locked', () => {
    // Prepare
    const items = Array.from({ length: 10 }, (_, index) => exhibitor(index + 11));
    const semantics: Semantics = {
      accessMode: 'full',
      previewLimit: null,
      counts: { actualTotal: 25, visibleTotal: 25, remainingLockedCount: 0 },
      unlock: { requiredForMoreResults: false, actionType: null, credits: null },
      guidance: { code: 'full_access', message: '' },
    };

    // Act
    const message = exhibitorList({
      eventId: '26855',
      query,
      page: page(items, { page: 2, pageSize: 10, total: 25, totalPages: 3, hasMore: true, semantics }),
    });

    // Assess
    expect(shown(message)).toContain('Page 2 of 3 · rows 11–20 of 25');
    expect(shown(message)).not.toMatch(/free|locked/);
    expect(buttonLabels(message)).toEqual(['← Previous', 'Next →']);
  });

  it('names the event in the title rather than its id, when the name is known', () => {
    // Act
    const named = exhibitorList({
      eventId: '26855',
      query,
      names: { eventId: 'Fintech Expo' },
      page: page([]),
    });
    const unnamed = exhibitorList({ eventId: '26855', query, names: { eventId: undefined }, page: page([]) });

    // Assess
    expect(named.blocks[0]).toMatchObject({ text: { text: 'Exhibitors: Fintech Expo · pay' } });
    expect(unnamed.blocks[0]).toMatchObject({ text: { text: 'Exhibitors: event 26855 · pay' } });
  });

  it('says plainly that a page beyond the preview is locked, with the unlock and a way back', () => {
    // Prepare
    const semantics = previewSemantics({
      counts: { actualTotal: 312, visibleTotal: 0, remainingLockedCount: 312 },
      pageState: { requestedPage: 4, accessible: false, maxAccessiblePage: 3 },
      guidance: { code: 'preview_page_inaccessible', message: '' },
    });
    const input = {
      eventId: '26855',
      query,
      page: page([], { page: 4, total: 0, totalPages: 0, semantics }),
    };

    // Act
    const message = exhibitorList(input);

    // Assess
    expect(shown(message)).toContain(
      'Page 4 is beyond the free preview (pages 1–3). Unlock the event to see all 312 matches.',
    );
    expect(buttonLabels(message)).toEqual(['Unlock event · 2,000 credits', '← Previous']);
    expect(buttonValue(message, 'Previous')).toEqual({ list: 'exhibitors', query, page: 3 });
  });

  it('puts Previous and Next in one row, each only where it leads somewhere', () => {
    // Act
    const first = exhibitorList({ eventId: '26855', query, page: page([exhibitor(1)], { hasMore: true }) });
    const middle = exhibitorList({
      eventId: '26855',
      query,
      page: page([exhibitor(1)], { page: 2, hasMore: true }),
    });
    const last = exhibitorList({
      eventId: '26855',
      query,
      page: page([exhibitor(1)], { page: 3, hasMore: false }),
    });

    // Assess
    expect(buttonLabels(first)).toEqual(['Next →']);
    expect(buttonValue(first, 'Next')).toEqual({ list: 'exhibitors', query, page: 2 });
    expect(buttonLabels(middle)).toEqual(['← Previous', 'Next →']);
    expect(buttonLabels(last)).toEqual(['← Previous']);
    const pagingRows = middle.blocks.filter(
      (block) => block.type === 'actions' && block.block_id === 'list-paging',
    );
    expect(pagingRows).toHaveLength(1);
    expect(buttonsOf(pagingRows).map((element) => element.action_id)).toEqual([
      'list.page.previous',
      'list.page.next',
    ]);
    expect(blockKitViolations(middle.text, middle.blocks)).toEqual([]);
  });

  it('has no paging row for a single page', () => {
    // Act
    const message = exhibitorList({
      eventId: '26855',
      query,
      page: page([exhibitor(1), exhibitor(2)], { pageSize: 10 }),
    });

    // Assess
    expect(
      message.blocks.filter((block) => block.type === 'actions' && block.block_id === 'list-paging'),
    ).toEqual([]);
    expect(shown(message)).toContain('Page 1 of 1 · rows 1–2 of 2');
  });

  it('fits 200 exhibitors into 50 blocks and counts the ones left out', () => {
    // Prepare
    const items = Array.from({ length: 200 }, (_, index) => exhibitor(index));
    const input = {
      eventId: '26855',
      query,
      page: page(items, { total: 312, hasMore: true, semantics: previewSemantics() }),
    };

    // Act
    const message = exhibitorList(input);

    // Assess
    expect(message.blocks.length).toBeLessThanOrEqual(50);
    expect(shown(message)).toMatch(/…and \d+ more exhibitors on this page/);
    expect(buttonLabels(message)).toEqual(['Unlock event · 2,000 credits', 'Next →']);
    expect(blockKitViolations(message.text, message.blocks)).toEqual([]);
  });

  it('says "No matches" for an empty list', () => {
    // Act
    const message = exhibitorList({ eventId: '26855', query, label: 'payments', page: page([]) });

    // Assess
    expect(shown(message)).toContain('No matches for “payments”.');
    expect(message.text).toContain('no matches');
  });

  it('escapes a channel ping in a company name', () => {
    // Act
    const message = exhibitorList({
      eventId: '26855',
      query,
      page: page([exhibitor(1, { companyName: 'Evil <!channel> Corp' })]),
    });

    // Assess
    expect(shown(message)).toContain('Evil &lt;!channel&gt; Corp');
    expect(JSON.stringify(message)).not.toContain('<!channel>');
  });

  it('leaves out Previous / Next rather than cut a query too long for a button value', () => {
    // Prepare
    const longQuery = { eventId: '26855', keyword: 'x'.repeat(2100) };

    // Act
    const message = exhibitorList({
      eventId: '26855',
      query: longQuery,
      label: 'long',
      page: page([exhibitor(1)], { page: 2, hasMore: true }),
    });

    // Assess
    expect(buttonLabels(message)).toEqual([]);
    expect(shown(message)).toContain('too long to page through');
    for (const element of buttonsOf(message.blocks))
      expect((element.value ?? '').length).toBeLessThanOrEqual(2000);
  });
});

describe('peopleList', () => {
  const people: PersonnelItem[] = [
    {
      id: '101',
      fullName: 'Jane Doe',
      title: 'CFO',
      companyName: 'Acme',
      sourceType: ['exhibitor', 'social'],
      email: null,
      contactUnlockStatus: 'locked',
    },
    {
      id: '102',
      fullName: 'Bob Roe',
      title: null,
      companyName: 'Acme',
      sourceType: ['visitors'],
      email: 'bob@acme.example',
      contactUnlockStatus: 'unlocked',
    },
    {
      id: '103',
      fullName: 'Ann Poe',
      sourceType: 'exhibitor',
      email: null,
      contactUnlockStatus: 'unlocking',
    },
  ];

  it('shows names, roles, source labels and the email or its status', () => {
    // Act
    const text = shown(peopleList({ eventId: '26855', query, page: page(people) }));

    // Assess
    expect(text).toContain('*Jane Doe* — CFO, Acme');
    expect(text).toContain('Exhibitor, Social Signals');
    expect(text).toContain('Visitor');
    expect(text).toContain('bob@acme.example');
    expect(text).toContain('Email locked');
    expect(text).toContain('Email unlocking');
  });

  it('offers email unlock for the people not yet unlocked, from this event, leaving the price to the confirmation card', () => {
    // Act
    const message = peopleList({ eventId: '26855', query, page: page(people) });

    // Assess
    expect(buttonLabels(message)).toContain('Unlock 2 emails…');
    expect(buttonValue(message, 'Unlock 2 emails')).toEqual({
      personnelIds: ['101', '103'],
      eventId: '26855',
    });
    expect(buttonLabels(message)).toContain('Unlock 3 phone numbers…');
    expect(buttonValue(message, 'Unlock 3 phone')).toEqual({
      personnelIds: ['101', '102', '103'],
      eventId: '26855',
    });
    expect(buttonLabels(message).join(' ')).not.toMatch(/credits/);
  });

  it('keeps the preview truth for people too', () => {
    // Prepare
    const semantics = previewSemantics({
      counts: { actualTotal: 80, visibleTotal: 50, remainingLockedCount: 30 },
      unlock: { requiredForMoreResults: true, actionType: 'unlock_event', credits: 2000 },
    });

    // Act
    const message = peopleList({ eventId: '26855', query, page: page(people, { semantics }) });

    // Assess
    expect(shown(message)).toContain('Page 1 of 1 · rows 1–3 of 80 (50 free, 30 locked)');
    expect(buttonLabels(message)[0]).toBe('Unlock event · 2,000 credits');
  });
});

describe('eventList', () => {
  it('shows each event with dates, place, exhibitor count and its id', () => {
    // Prepare
    const events = [
      {
        eventId: '26855',
        name: 'Fintech Expo',
        dateStart: '2027-03-12',
        dateEnd: '2027-03-14',
        venue: null,
        city: 'Berlin',
        region: null,
        country: 'Germany',
        exhibitorCount: 420,
      },
    ];

    // Act
    const message = eventList({ query: { keywords: 'fintech' }, page: page(events, { total: 1 }) });

    // Assess
    expect(message.blocks[0]).toMatchObject({ type: 'header', text: { text: 'Events: fintech' } });
    const text = shown(message);
    expect(text).toContain('*Fintech Expo*  `26855`');
    expect(text).toContain('12–14 Mar 2027 · Berlin, Germany · 420 exhibitors');
  });

  it('says the total is a floor when a search of several words read only the first rows of a word', () => {
    const events = [{ eventId: '26855', name: 'Fintech Expo' }];

    const capped = eventList({
      query: { keywords: 'expo show' },
      page: { ...page(events, { total: 300 }), capped: true },
    });
    const whole = eventList({ query: { keywords: 'expo show' }, page: page(events, { total: 300 }) });

    expect(shown(capped)).toContain('row 1 of at least 300');
    expect(shown(whole)).not.toContain('at least');
  });

  it('has no paging buttons for a search charged per request', () => {
    // Act
    const message = eventList({
      query: { companyName: 'Acme' },
      pageable: false,
      page: page([{ eventId: '1', name: 'A' }], { hasMore: true, page: 2 }),
    });

    // Assess
    expect(buttonLabels(message)).toEqual([]);
  });
});

describe('recommendedExhibitorList', () => {
  it('shows company, industry, country and size', () => {
    // Act
    const message = recommendedExhibitorList({
      query: { eventId: '26855' },
      page: page([
        { id: '1', companyName: 'Acme', industry: 'Payments', country: 'France', companySize: '51-200' },
      ]),
    });

    // Assess
    expect(shown(message)).toContain('*Acme*\nPayments · France · 51-200');
  });

  it('shows each exhibitor’s reason as the service gave it, and says so where it gave none', () => {
    // Act
    const message = recommendedExhibitorList({
      query: { eventId: '26855' },
      page: page([
        { id: '1', companyName: 'Acme', reason: 'Sells <card> terminals to retailers' },
        { id: '2', companyName: 'Globex', reason: null },
        { id: '3', companyName: 'Initech', reason: '  ', matchStatus: 'processing' },
      ]),
    });

    // Assess
    const text = shown(message);
    expect(text).toContain('*Acme*\nWhy: Sells &lt;card&gt; terminals to retailers');
    expect(text).toContain('*Globex*\n_No reason given by the service._');
    expect(text).toContain('*Initech*\n_No reason given by the service yet: it is still matching._');
  });
});

describe('recommendedEventList (shows-for)', () => {
  const show = (eventId: string, relevanceReason?: string | null) => ({
    id: eventId,
    eventId,
    name: `Show ${eventId}`,
    matched_exhibitor_count: 3,
    matched_personnel_count: 5,
    match_score: 0.81,
    unlocked: false,
    rank: Number(eventId),
    ...(relevanceReason === undefined ? {} : { relevanceReason }),
  });

  it('shows each show’s own reason, and says so where the service gave none (null or omitted)', () => {
    // Act
    const message = recommendedEventList({
      query: { targetAudience: 'payment teams' },
      page: page([show('1', 'Your audience matches its Fintech focus'), show('2', null), show('3')]),
    });

    // Assess
    const text = shown(message);
    expect(text).toContain('Why: Your audience matches its Fintech focus');
    expect(text.split('_No reason given by the service._').length - 1).toBe(2);
    expect(text).not.toContain('recommended for your profile');
    expect(blockKitViolations(message.text, message.blocks)).toEqual([]);
  });

  it('counts one matching exhibitor and one matching person in the singular', () => {
    // Act
    const one = { ...show('1'), matched_exhibitor_count: 1, matched_personnel_count: 1 };
    const text = shown(
      recommendedEventList({ query: { targetAudience: 'payment teams' }, page: page([one]) }),
    );

    // Assess
    expect(text).toContain('1 matching exhibitor · 1 matching person');
    expect(text).not.toMatch(/1 matching exhibitors|1 matching people/);
  });
});

describe('showAllPeopleButton', () => {
  it('offers every person of a large set, as a contacts list from page 1', () => {
    // Prepare
    const ids = Array.from({ length: 85 }, (_, index) => String(100001 + index));

    // Act
    const showAll = showAllPeopleButton(ids);

    // Assess
    expect(showAll?.text.text).toBe('Show all 85');
    expect(showAll?.action_id).toBe('people.all');
    expect(JSON.parse(showAll?.value ?? '')).toEqual({
      list: 'contacts',
      query: { personnelIds: ids },
      page: 1,
    });
  });

  it('is not needed when the card names everyone', () => {
    expect(showAllPeopleButton(['1', '2', '3'])).toBeUndefined();
  });
});

describe('contactList', () => {
  it('pages through every person of a card by name', () => {
    // Prepare
    const personnelIds = Array.from({ length: 85 }, (_, index) => String(100001 + index));
    const people: PersonnelItem[] = personnelIds
      .slice(10, 20)
      .map((id) => ({ id, fullName: `Person ${id}`, contactUnlockStatus: 'locked' }));

    // Act
    const message = contactList({
      query: { personnelIds },
      page: page(people, { page: 2, pageSize: 10, total: 85, totalPages: 9, hasMore: true }),
    });

    // Assess
    expect(shown(message)).toContain('Page 2 of 9 · rows 11–20 of 85');
    expect(shown(message)).toContain('*Person 100011*');
    expect(buttonLabels(message)).toEqual(['← Previous', 'Next →']);
    expect(buttonValue(message, 'Next')).toEqual({ list: 'contacts', query: { personnelIds }, page: 3 });
    expect(blockKitViolations(message.text, message.blocks)).toEqual([]);
  });
});

describe('the Filter… button', () => {
  it('is on exhibitor, people and event search lists, carrying the list and its query from page 1', () => {
    // Prepare
    const query = { eventId: '26855', keyword: 'pay' };

    // Act
    const exhibitors = exhibitorList({ eventId: '26855', query, page: page([exhibitor(1)], { page: 2 }) });
    const events = eventList({ query: { keywords: 'expo' }, page: page([]) });

    // Assess
    expect(buttonValue(exhibitors, 'Filter…')).toEqual({ list: 'exhibitors', query, page: 1 });
    expect(buttonValue(events, 'Filter…')).toEqual({ list: 'events', query: { keywords: 'expo' }, page: 1 });
    expect(blockKitViolations(exhibitors.text, exhibitors.blocks)).toEqual([]);
  });

  it('is not on charged searches', () => {
    const charged = eventList({ query: { companyName: 'Acme' }, page: page([]), pageable: false });

    expect(buttonValue(charged, 'Filter…')).toBeUndefined();
  });
});
