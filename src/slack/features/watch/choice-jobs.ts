import type { WatchAccount, WatchLookups } from '../../../domain/ports/index.ts';
import { accountKey, compareAppearances } from '../../../domain/watch/index.ts';
import type { Store } from '../../../store/index.ts';
import type { JobContext } from '../../kit/jobs.ts';
import { botNotice } from '../../views/messages.ts';
import type { SlackMessage } from '../../views/types.ts';
import { choiceRefused, chosenAnswer } from './choice-views.ts';
import { utcDate } from '../../../time/local-time.ts';

/** An ambiguous account's candidate, or a near match a not-found one keeps. */
const choosable = (account: WatchAccount, exhibitorId: string) =>
  account.resolution === 'ambiguous'
    ? account.exhibitorIds.includes(exhibitorId)
    : account.resolution === 'not-found' &&
      (account.candidates ?? []).some((kept) => kept.id === exhibitorId);

export interface WatchChoiceDeps {
  watchLists: Pick<Store['watchLists'], 'account' | 'chooseExhibitor'>;
  lookups: Pick<WatchLookups, 'exhibitorShows'>;
  now: () => Date;
}

/**
 * `/events watch choose <exhibitor id> <name>` (a This one button): any member of the channel may
 * choose, as anyone in it may add or remove an account. The chosen exhibitor's current shows become
 * what the channel was told (no alert for them); the store takes the choice only while the account is
 * still ambiguous with that candidate (or still not found, for a near match it keeps), so a stale or
 * repeated click changes nothing.
 */
export async function chooseExhibitor(
  deps: WatchChoiceDeps,
  context: JobContext,
  choice: { exhibitorId: string; account: string },
): Promise<SlackMessage> {
  const { teamId, channelId } = context;
  const key = accountKey(choice.account);
  const account = key ? await deps.watchLists.account(teamId, channelId, key) : null;
  if (!account || !choosable(account, choice.exhibitorId))
    return botNotice(choiceRefused(choice.account, account));
  const companyName = account.candidates?.find((kept) => kept.id === choice.exhibitorId)?.companyName;
  const today = utcDate(deps.now());
  const shows = await deps.lookups.exhibitorShows(choice.exhibitorId);
  const told = compareAppearances(shows, undefined, today).told;
  const chosen = await deps.watchLists.chooseExhibitor(teamId, channelId, account.key, {
    exhibitorId: choice.exhibitorId,
    chosenBy: context.userId,
    told,
    ...(companyName ? { companyName } : {}),
  });
  if (!chosen)
    return botNotice(
      choiceRefused(choice.account, await deps.watchLists.account(teamId, channelId, account.key)),
    );
  return chosenAnswer(account, choice.exhibitorId, told);
}
