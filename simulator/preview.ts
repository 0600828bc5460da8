import type { Page, PageRequest } from './params.ts';

export const PREVIEW_LIMIT = 50;
export const EVENT_UNLOCK_CREDITS = 2000;

export type GuidanceCode =
  | 'preview_page_inaccessible'
  | 'preview_results_truncated'
  | 'preview_complete_for_query'
  | 'full_access'
  | 'no_matching_results';

const MESSAGES: Record<GuidanceCode, string> = {
  preview_page_inaccessible:
    'This page is outside the preview window. Unlock the event to access results beyond the first 50.',
  preview_results_truncated:
    'Preview shows the first 50 matching records. Unlock the event to see all of them.',
  preview_complete_for_query: 'All matching records are visible in preview mode.',
  full_access: 'The event is unlocked; all matching records are accessible.',
  no_matching_results: 'No records match this query.',
};

/**
 * Applies the preview window to the matches of an event-scoped list. In preview only the first 50
 * matches are reachable; `total` then counts the reachable ones and `counts.actualTotal` all of them.
 */
export function previewPage<T>(
  matches: readonly T[],
  request: PageRequest,
  unlocked: boolean,
  unlockActionType: string,
): Page<T> & { semantics: Record<string, unknown> } {
  const { page, pageSize } = request;
  const actualTotal = matches.length;
  const visibleTotal = unlocked ? actualTotal : Math.min(actualTotal, PREVIEW_LIMIT);
  const remainingLockedCount = actualTotal - visibleTotal;
  const maxAccessiblePage = Math.max(1, Math.ceil(visibleTotal / pageSize));
  const accessible = unlocked || remainingLockedCount === 0 || page <= maxAccessiblePage;
  const code: GuidanceCode =
    actualTotal === 0
      ? 'no_matching_results'
      : unlocked
        ? 'full_access'
        : !accessible
          ? 'preview_page_inaccessible'
          : remainingLockedCount > 0
            ? 'preview_results_truncated'
            : 'preview_complete_for_query';
  const needsUnlock = !unlocked && remainingLockedCount > 0;
  const visible = matches.slice(0, visibleTotal);
  const totalPages = accessible ? Math.ceil(visibleTotal / pageSize) : 0;
  return {
    items: accessible ? visible.slice((page - 1) * pageSize, page * pageSize) : [],
    total: accessible ? visibleTotal : 0,
    page,
    pageSize,
    totalPages,
    hasMore: accessible && page < totalPages,
    semantics: {
      accessMode: unlocked ? 'full' : 'preview',
      previewLimit: unlocked ? null : PREVIEW_LIMIT,
      counts: { actualTotal, visibleTotal, remainingLockedCount },
      pageState: { requestedPage: page, accessible, maxAccessiblePage },
      unlock: {
        requiredForMoreResults: needsUnlock,
        actionType: needsUnlock ? unlockActionType : null,
        credits: needsUnlock ? EVENT_UNLOCK_CREDITS : null,
      },
      guidance: { code, message: MESSAGES[code] },
    },
  };
}
