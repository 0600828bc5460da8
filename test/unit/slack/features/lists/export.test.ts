import { describe, expect, it } from 'vitest';
import { blockKitViolations } from '../../../../../local/fake-slack/block-kit-check.ts';
import { exportProgress } from '../../../../../src/slack/features/lists/export-views.ts';
import { eventList, personEventList } from '../../../../../src/slack/features/lists/event-views.ts';
import { companyExhibitorList, exhibitorList } from '../../../../../src/slack/features/lists/exhibitor-views.ts';
import { unlockResultReply } from '../../../../../src/slack/features/unlock-results/views.ts';
import type { ExhibitorSummary, ListPage, SlackMessage } from '../../../../../src/slack/views/types.ts';
import { buttonsOf, textsOf } from '../../../../support/views.ts';

const exhibitors = (count: number): ExhibitorSummary[] =>
  Array.from({ length: count }, (_, i) => ({ id: String(i + 1), companyName: `Company ${i + 1}` }));

const page = <T>(items: T[], pageNumber = 1): ListPage<T> & { pageSize: number } => ({
  items,
  page: pageNumber,
  pageSize: 10,
  total: 40,
  totalPages: 4,
  hasMore: pageNumber < 4,
});

const exportValue = (message: SlackMessage): unknown => {
  const element = buttonsOf(message.blocks).find((button) => button.action_id === 'list.export');
  return element?.value === undefined ? undefined : JSON.parse(element.value);
};

describe('the Export CSV button', () => {
  it('is on free lists, carrying the list, its query and the page shown', () => {
    // Prepare
    const query = { eventId: '26855', keyword: 'pay' };

    // Act
    const list = exhibitorList({ eventId: '26855', query, page: page(exhibitors(10), 2) });
    const search = eventList({ query: { keywords: 'expo' }, page: page([{ eventId: '1' }]) });

    // Assess
    expect(exportValue(list)).toEqual({ list: 'exhibitors', query, page: 2 });
    expect(exportValue(search)).toEqual({ list: 'events', query: { keywords: 'expo' }, page: 1 });
    expect(blockKitViolations(list.text, list.blocks)).toEqual([]);
  });

  it('is not on searches charged per request, nor on an empty list', () => {
    const charged = [
      eventList({ query: { companyName: 'Acme' }, page: page([{ eventId: '1' }]), pageable: false }),
      personEventList({ query: { name: 'Jane' }, page: page([{ eventId: '1' }]), pageable: false }),
      companyExhibitorList({ query: {}, page: page(exhibitors(3)), pageable: false }),
      exhibitorList({ eventId: '26855', query: { eventId: '26855' }, page: page([]) }),
    ];

    for (const message of charged) expect(exportValue(message)).toBeUndefined();
  });

  it('is on an unlock result in a thread, for the people it names', () => {
    const reply = unlockResultReply({
      kind: 'email',
      status: 'completed',
      people: [
        { personnelId: '101', value: 'a@x.example' },
        { personnelId: '102', value: null, problem: 'not found' },
      ],
      skipped: [],
    });

    expect(exportValue(reply)).toEqual({
      list: 'contacts',
      query: { personnelIds: ['101', '102'] },
      page: 1,
    });
    expect(blockKitViolations(reply.text, reply.blocks)).toEqual([]);
  });
});

describe('exportProgress', () => {
  it('shows the card with how far the export got, within the block limit', () => {
    const card = exhibitorList({
      eventId: '26855',
      query: { eventId: '26855' },
      page: page(exhibitors(200)),
    });

    const shown = exportProgress(card, 3, 34);

    expect(textsOf(shown.blocks).join('\n')).toContain('Exporting… page 3 of 34');
    expect(blockKitViolations(shown.text, shown.blocks)).toEqual([]);
  });
});
