/** The members of a page the iterator needs; every list endpoint's page has them. */
export interface PageLike {
  page: number;
  hasMore: boolean;
  semantics?:
    | {
        pageState?: { accessible?: boolean | undefined; maxAccessiblePage?: number | undefined } | undefined;
      }
    | undefined;
}

export interface IteratePagesOptions {
  /** Default 1. */
  firstPage?: number;
  /** A safety net against a service that always says hasMore. Default 1000. */
  maxPages?: number;
}

/**
 * Walks a list endpoint page by page while `hasMore` holds, stopping at the preview window of a locked
 * event: a page marked inaccessible is not yielded, and no page past `maxAccessiblePage` is requested.
 *
 *   for await (const page of iteratePages((page) => client.exhibitors.list({ eventId, page }))) { ... }
 */
export async function* iteratePages<P extends PageLike>(
  fetchPage: (page: number) => Promise<P>,
  options: IteratePagesOptions = {},
): AsyncGenerator<P, void, undefined> {
  const maxPages = options.maxPages ?? 1000;
  let pageNumber = options.firstPage ?? 1;
  for (let fetched = 0; fetched < maxPages; fetched += 1) {
    const page = await fetchPage(pageNumber);
    const pageState = page.semantics?.pageState;
    if (pageState?.accessible === false) return;
    yield page;
    if (!page.hasMore) return;
    pageNumber += 1;
    const maxAccessiblePage = pageState?.maxAccessiblePage;
    if (maxAccessiblePage !== undefined && pageNumber > maxAccessiblePage) return;
  }
}
