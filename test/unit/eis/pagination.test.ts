import { describe, expect, it } from 'vitest';
import { iteratePages } from '../../../src/eis/pagination.ts';

interface FakePage {
  page: number;
  hasMore: boolean;
  items: number[];
  semantics?: { pageState?: { accessible?: boolean; maxAccessiblePage?: number } };
}

async function collect(pageOf: (page: number) => FakePage, options = {}) {
  const requested: number[] = [];
  const pages: number[] = [];
  for await (const page of iteratePages((n) => {
    requested.push(n);
    return Promise.resolve(pageOf(n));
  }, options)) {
    pages.push(page.page);
  }
  return { requested, pages };
}

describe('eis iteratePages', () => {
  it('follows hasMore to the last page', async () => {
    // Act
    const { pages } = await collect((page) => ({ page, hasMore: page < 3, items: [page] }));

    // Assess
    expect(pages).toEqual([1, 2, 3]);
  });

  it('does not request a page past maxAccessiblePage', async () => {
    // Act
    const { requested, pages } = await collect((page) => ({
      page,
      hasMore: true,
      items: [page],
      semantics: { pageState: { accessible: true, maxAccessiblePage: 2 } },
    }));

    // Assess
    expect(requested).toEqual([1, 2]);
    expect(pages).toEqual([1, 2]);
  });

  it('stops without yielding a page marked inaccessible', async () => {
    // Act
    const { requested, pages } = await collect((page) => ({
      page,
      hasMore: page < 2,
      items: page < 2 ? [page] : [],
      semantics: { pageState: { accessible: page < 2 } },
    }));

    // Assess
    expect(requested).toEqual([1, 2]);
    expect(pages).toEqual([1]);
  });

  it('starts at firstPage and stops at maxPages', async () => {
    // Act
    const { requested } = await collect((page) => ({ page, hasMore: true, items: [] }), {
      firstPage: 4,
      maxPages: 3,
    });

    // Assess
    expect(requested).toEqual([4, 5, 6]);
  });
});
