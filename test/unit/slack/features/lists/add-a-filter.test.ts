import { describe, expect, it } from 'vitest';
import type { EisClient } from '../../../../../src/eis/index.ts';
import { defineList } from '../../../../../src/slack/features/lists/definition.ts';
import { PEOPLE } from '../../../../../src/slack/features/lists/people.ts';
import { listFilterModal } from '../../../../../src/slack/features/lists/filter-views.ts';
import { readFilterForm } from '../../../../../src/slack/features/lists/forms.ts';
import type { SlackMessage } from '../../../../../src/slack/views/types.ts';

/**
 * Adding a filter to a list is one change to its definition: here a `title:` filter on `/events people`
 * (a test-only definition: the service's personnel list has no such parameter today). Its command
 * words, its Filter… modal, its buttons' query, its card's request and its export's request all follow.
 */

const people = PEOPLE.definition;
const asked: Record<string, unknown>[] = [];
const WITH_TITLE = defineList({
  ...people,
  filters: { ...people.filters, title: { label: 'Job title', placeholder: 'VP Sales' } },
  read: (query, page, pageSize) => {
    asked.push({ ...query, page, pageSize });
    const person = { id: '100001', fullName: 'Jane Smith', sourceType: [], contactUnlockStatus: 'locked' };
    const items = [{ ...person, title: query.title ?? '' }];
    return Promise.resolve({ items, page, total: 30, totalPages: 3, hasMore: page < 3 });
  },
});
// The event's name in the title is the one service read the fake answers.
const eis = { events: { detail: () => Promise.resolve({ name: 'Fintech Expo' }) } } as unknown as EisClient;

const commandOf = (words: string) => {
  const read = WITH_TITLE.command.parse(words.split(' '));
  if (!read.ok) throw new Error(read.problem);
  return read.command;
};
/** The value of a button by its action id, as Slack sends it back. */
function buttonValue(message: SlackMessage, actionId: string): { query: Record<string, unknown> } {
  for (const block of message.blocks) {
    if (block.type !== 'actions') continue;
    const button = block.elements.find((element) => element.action_id === actionId);
    if (button && 'value' in button && button.value) return JSON.parse(button.value) as never;
  }
  throw new Error(`no ${actionId} button`);
}

describe('a filter added to a list definition', () => {
  it('is a word of its command, and the list without it refuses the word', () => {
    expect(commandOf('26855 cto title:VP Sales level:director')).toEqual({
      name: 'people',
      eventId: '26855',
      query: 'cto',
      filters: { title: 'VP Sales', level: 'director' },
    });
    const without = PEOPLE.command.parse(['26855', 'title:VP']);
    expect(without.ok ? '' : without.problem).toContain('is not a filter here');
  });

  it('reaches the service request, the card title and the Previous / Next / Filter… / Export values', async () => {
    asked.length = 0;
    const card = await WITH_TITLE.render({ eventId: '26855', title: 'VP Sales' }, 2, eis, '2026-11-28');

    expect(asked).toEqual([{ eventId: '26855', title: 'VP Sales', page: 2, pageSize: 10 }]);
    expect(card.text).toContain('title:VP Sales');
    for (const actionId of ['list.page.next', 'list.page.previous', 'list.filter', 'list.export']) {
      const { query } = buttonValue(card, actionId);
      expect(WITH_TITLE.schema.parse(query)).toEqual({ eventId: '26855', title: 'VP Sales' });
    }
  });

  it('is applied by the export, page by page', async () => {
    asked.length = 0;
    const source = WITH_TITLE.exportSource?.({ eventId: '26855', title: 'VP Sales' }, eis, '2027-01-01');
    const page = await source?.fetch(1);

    expect(asked).toEqual([{ eventId: '26855', title: 'VP Sales', page: 1, pageSize: 50 }]);
    expect(page?.rows[0]).toContain('VP Sales');
  });

  it('is a field of the Filter… modal, prefilled and read back', () => {
    const metadata = {
      list: 'people' as const,
      query: { eventId: '26855', title: 'CTO' },
      channelId: 'C0GENERAL',
      inPlace: true,
    };
    const modal = listFilterModal(metadata, WITH_TITLE);
    const field = modal?.blocks.find((block) => block.block_id === 'title');

    expect(field).toMatchObject({ label: { text: 'Job title' }, element: { initial_value: 'CTO' } });
    const values = { title: { value: { type: 'plain_text_input', value: 'VP Sales' } } };
    expect(readFilterForm(values, metadata, WITH_TITLE)).toEqual({
      ok: true,
      value: { eventId: '26855', title: 'VP Sales' },
    });
  });
});
