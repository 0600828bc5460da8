import { describe, expect, it } from 'vitest';
import { collectRows, EXPORT_LIMIT } from '../../../../src/slack/features/lists/export-jobs.ts';
import { exportComment } from '../../../../src/slack/features/lists/export-views.ts';

/** A list of `total` rows served `pageSize` at a time, counting the pages asked for. */
function fakeSource(total: number, pageSize: number) {
  const asked: number[] = [];
  const totalPages = Math.ceil(total / pageSize);
  return {
    asked,
    fetch: (page: number) => {
      asked.push(page);
      const first = (page - 1) * pageSize;
      const items = Array.from(
        { length: Math.max(0, Math.min(pageSize, total - first)) },
        (_, i) => first + i,
      );
      return Promise.resolve({
        items,
        rows: items.map((n) => [String(n)]),
        page,
        total,
        totalPages,
        hasMore: page < totalPages,
      });
    },
  };
}

describe('collectRows', () => {
  it('reads every page of a list under the cap', async () => {
    const source = fakeSource(340, 100);
    const progress: string[] = [];

    const collected = await collectRows(source, EXPORT_LIMIT, (page, pages) => {
      progress.push(`${page}/${pages}`);
      return Promise.resolve();
    });

    expect(collected.rows).toHaveLength(340);
    expect(collected.capped).toBe(false);
    expect(progress).toEqual(['1/4', '2/4', '3/4', '4/4']);
  });

  it(`stops at ${EXPORT_LIMIT} rows and asks for no page beyond them`, async () => {
    const source = fakeSource(12_345, 100);

    const collected = await collectRows(source, EXPORT_LIMIT);

    expect(collected.rows).toHaveLength(5000);
    expect(collected.capped).toBe(true);
    expect(collected.total).toBe(12_345);
    expect(Math.max(...source.asked)).toBe(50);
  });

  it('is not capped when the list has exactly the limit', async () => {
    const collected = await collectRows(fakeSource(5000, 100), EXPORT_LIMIT);
    expect(collected.capped).toBe(false);
  });
});

describe('exportComment', () => {
  const base = { noun: 'exhibitors', title: 'Exhibitors of event 26855', locked: 0, limit: 5000 };

  it('states the count and the cap', () => {
    expect(exportComment({ ...base, rows: 340, total: 340, capped: false })).toContain(
      'CSV of 340 exhibitors (all of them; at most 5,000 rows per export)',
    );
    expect(exportComment({ ...base, rows: 5000, total: 12_345, capped: true })).toContain(
      'CSV of 5,000 exhibitors (the first 5,000 of 12,345: the export stops at 5,000 rows)',
    );
  });

  it('says that locked rows are not in the file', () => {
    expect(exportComment({ ...base, rows: 50, total: 340, locked: 290, capped: false })).toContain(
      '290 locked exhibitors beyond the free preview are not included',
    );
  });
});
