import { describe, expect, it } from 'vitest';
import type { EisClient } from '../../../../../src/eis/index.ts';
import { defineList, PAGE_SIZE } from '../../../../../src/slack/features/lists/definition.ts';
import { PEOPLE } from '../../../../../src/slack/features/lists/people.ts';
import type { SlackMessage } from '../../../../../src/slack/views/types.ts';

/**
 * A filter the service cannot apply, kept by the list (`keptHere`): the list reads the service's first
 * rows at once and pages what it kept, so its card's page and row counts are those of the kept rows,
 * a floor when the service had more than were read (issue 42: "Page 1 of 4 · row 1 of 40" above one row).
 */

const people = PEOPLE.definition;
const READ_SIZE = 100;
/** The service's people: `total` of them, every tenth one a director. */
function listOf(total: number) {
  const asked: { page: number; pageSize: number }[] = [];
  const list = defineList({
    ...people,
    filters: { ...people.filters, directors: { label: 'Directors only', placeholder: 'yes' } },
    read: (_query, page, pageSize) => {
      asked.push({ page, pageSize });
      const all = Array.from({ length: total }, (_, i) => ({
        id: String(100_001 + i),
        fullName: `Person ${i + 1}`,
        title: i % 10 === 0 ? 'Director' : 'Engineer',
        sourceType: [],
        contactUnlockStatus: 'locked',
      }));
      const items = all.slice((page - 1) * pageSize, page * pageSize);
      const totalPages = Math.ceil(total / pageSize);
      return Promise.resolve({ items, page, pageSize, total, totalPages, hasMore: page < totalPages });
    },
    keptHere: {
      readSize: READ_SIZE,
      keeps: (query) => (query.directors === 'yes' ? (person) => person.title === 'Director' : undefined),
    },
  });
  return { list, asked };
}
const eis = { events: { detail: () => Promise.resolve({ name: 'Fintech Expo' }) } } as unknown as EisClient;
const summary = (card: SlackMessage) =>
  JSON.stringify(card.blocks).match(/Page \d+[^"]*?(?:rows?) [^"]*?(?=")/)?.[0];
const rows = (card: SlackMessage) => (JSON.stringify(card.blocks).match(/Person \d+/g) ?? []).length;

describe('a filter the service cannot apply, kept by the list', () => {
  it('counts the kept rows, not the service’s, when the service had no more than was read', async () => {
    const { list, asked } = listOf(READ_SIZE);

    const card = await list.render({ eventId: '26855', directors: 'yes' }, 1, eis, '2026-11-28');

    const kept = READ_SIZE / 10;
    expect(rows(card)).toBe(Math.min(kept, PAGE_SIZE));
    expect(summary(card)).toBe(
      `Page 1 of ${Math.ceil(kept / PAGE_SIZE)} · rows 1–${Math.min(kept, PAGE_SIZE)} of ${kept}`,
    );
    expect(asked).toEqual([{ page: 1, pageSize: READ_SIZE }]);
  });

  it('says the total is a floor, and names no last page, when the service had more', async () => {
    const { list } = listOf(4 * READ_SIZE);

    const card = await list.render({ eventId: '26855', directors: 'yes' }, 1, eis, '2026-11-28');

    const kept = READ_SIZE / 10;
    expect(summary(card)).toBe(`Page 1 · rows 1–${Math.min(kept, PAGE_SIZE)} of at least ${kept}`);
  });

  it('leaves the service to page when the query does not use the filter', async () => {
    const { list, asked } = listOf(4 * READ_SIZE);

    const card = await list.render({ eventId: '26855' }, 2, eis, '2026-11-28');

    expect(asked).toEqual([{ page: 2, pageSize: PAGE_SIZE }]);
    expect(summary(card)).toBe(`Page 2 of ${(4 * READ_SIZE) / PAGE_SIZE} · rows 11–20 of ${4 * READ_SIZE}`);
  });
});
