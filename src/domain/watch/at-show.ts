import type { WatchAccount } from '../ports/records.ts';
import { shownName } from './names.ts';

/** A watched account at a show, as compare, the plan and Home name it. */
export interface WatchedAtShow {
  /** The account's company name once resolved, else its label. */
  label: string;
  kind: WatchAccount['kind'];
}

/**
 * The channel's watched accounts known to exhibit at each of these shows: those whose last look-up
 * told the show (muted ones too: muting stops alerts, not the facts). Shows none is known at map to
 * an empty list. Reads only what the watch stored, so it spends nothing.
 */
export function watchedAccountsAt(
  accounts: readonly WatchAccount[],
  eventIds: readonly string[],
): Map<string, WatchedAtShow[]> {
  const at = new Map<string, WatchedAtShow[]>(eventIds.map((id) => [id, []]));
  for (const account of accounts)
    for (const show of account.told ?? [])
      at.get(show.eventId)?.push({ label: shownName(account), kind: account.kind });
  for (const list of at.values()) list.sort((a, b) => a.label.localeCompare(b.label));
  return at;
}
