import type { Button, KnownBlock } from '@slack/types';
import type { ChargeAction } from '../../../domain/charging.ts';
import type { ChargeOutcome } from '../../../domain/charge-outcome.ts';
import { askAgainValue } from '../../kit/charge-words.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { actions, button, context } from '../../views/blocks.ts';
import { fitToLimits } from '../../views/limits.ts';
import { companyExhibitorList, eventList, personEventList } from '../lists/index.ts';
import { otherPagesWords } from '../../kit/money-words.ts';
import type { SlackMessage } from '../../views/types.ts';
import { escapeMrkdwn } from '../../views/mrkdwn.ts';

type SearchAction = Extract<
  ChargeAction,
  { kind: 'people-by-name' | 'exhibitor-events' | 'exhibitor-search' }
>;

export const isSearchAction = (action: ChargeAction): action is SearchAction =>
  action.kind === 'people-by-name' ||
  action.kind === 'exhibitor-events' ||
  action.kind === 'exhibitor-search';

/** The rows of one page of a paid search, titled with what was searched for. */
function resultRows(action: SearchAction, results: NonNullable<ChargeOutcome['results']>): SlackMessage {
  const label = action.kind === 'people-by-name' ? action.fullName : action.companyName;
  if (results.kind === 'exhibitors')
    return companyExhibitorList({ page: results.page, query: {}, label, pageable: false });
  if (action.kind === 'people-by-name')
    return personEventList({ page: results.page, query: {}, label, pageable: false });
  return eventList({ page: results.page, query: {}, label, pageable: false });
}

/**
 * A paid search's results, posted under its confirmation card: the rows, then Previous / Next as on
 * free lists, except that each is the search for that page asked for again, through a confirmation
 * card, since the service charges every non-empty page. The card says so, at `credits` a page.
 */
export function paidSearchResults(
  action: SearchAction,
  results: NonNullable<ChargeOutcome['results']>,
  credits: number,
): SlackMessage {
  const rows = resultRows(action, results);
  const page = action.page ?? 1;
  const pageCommand = (target: number) => askAgainValue({ ...action, page: target });
  const buttons: (Button | undefined)[] = [];
  if (page > 1) buttons.push(button('← Previous', ACTION_IDS.searchPagePrevious, pageCommand(page - 1)));
  if (results.page.hasMore) buttons.push(button('Next →', ACTION_IDS.searchPageNext, pageCommand(page + 1)));
  const footer: KnownBlock[] = [];
  const row = actions(buttons, 'search-paging');
  if (row) {
    footer.push(row);
    footer.push(context(escapeMrkdwn(otherPagesWords(credits))));
  } else if (page > 1 || results.page.items.length > 0) {
    footer.push(context('That is every match: there is no further page to pay for.'));
  }
  return fitToLimits({ text: rows.text, blocks: [...rows.blocks, ...footer] });
}
