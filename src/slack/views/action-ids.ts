import type { Audience } from '../../domain/audience.ts';
import { OUTCOME_LOGGERS } from '../../domain/outcomes.ts';

/**
 * Whom a button is for (src/domain/audience.ts). `RUNS`: it runs an `/events` command, a list's page or
 * export, or shares an answer, and is held to what it runs (that command's or list's audience) where it
 * runs, in the worker; so a button and its command can never disagree.
 */
export const RUNS = 'what it runs';
export type ButtonAudience = Audience | typeof RUNS;
interface ButtonDefinition {
  id: string;
  audience: ButtonAudience;
}

/**
 * The `action_id`s the views put on buttons, each with whom it is for; the JSON each `value` carries is
 * the named schema in its room's `src/slack/features/<room>/buttons.ts` (`ShareValueSchema`:
 * kit/share.ts; `AskAgainValueSchema`: kit/job-values.ts). Action listeners register on these ids and
 * parse the value; a button that stands for an `/events` command is declared with that command in its
 * room's `buttons.ts` (`ButtonCommands`).
 */
const BUTTONS = {
  /** value: EventValueSchema */
  fitUnlock: { id: 'fit.unlock', audience: RUNS },
  fitExhibitors: { id: 'fit.exhibitors', audience: RUNS },
  fitPeople: { id: 'fit.people', audience: RUNS },
  fitRecommend: { id: 'fit.recommend', audience: RUNS },
  /** value: ListPageValueSchema */
  listPage: { id: 'list.page', audience: RUNS },
  /**
   * Previous / Next under a paid search's results: the search for that page, asked for again as the
   * command (so it goes through a confirmation card: every page charges). value: AskAgainValueSchema
   */
  searchPagePrevious: { id: 'search.page.previous', audience: RUNS },
  searchPageNext: { id: 'search.page.next', audience: RUNS },
  /** Event unlock from a preview-gated list. value: EventValueSchema */
  listUnlock: { id: 'list.unlock', audience: RUNS },
  /** value: PeopleValueSchema (only people whose contact is not unlocked) */
  peopleEmails: { id: 'people.emails', audience: RUNS },
  peoplePhones: { id: 'people.phones', audience: RUNS },
  /** value: ConfirmationValueSchema */
  confirmYes: { id: 'confirm.yes', audience: 'askers' },
  confirmNo: { id: 'confirm.no', audience: 'askers' },
  /** Fit score from an event card. value: EventValueSchema */
  eventFit: { id: 'event.fit', audience: RUNS },
  /** Opens an exhibitor's profile card (free), from an exhibitor row. value: ExhibitorValueSchema */
  accountOpen: { id: 'account.open', audience: RUNS },
  /** value: EventValueSchema */
  digestFit: { id: 'digest.fit', audience: RUNS },
  digestUnlock: { id: 'digest.unlock', audience: RUNS },
  /** Posts a private answer in the channel for everyone. value: ShareValueSchema */
  shareInChannel: { id: 'share.channel', audience: RUNS },
  /** Opens, privately, the list of every person a card names. value: ListPageValueSchema (`contacts`) */
  showAllPeople: { id: 'people.all', audience: RUNS },
  /** Asks again for the charge of an expired or cancelled confirmation. value: AskAgainValueSchema */
  confirmRestart: { id: 'confirm.restart', audience: RUNS },
  /** Open the modals (from App Home, list cards and messages). No value, unless named. */
  openSearch: { id: 'open.search', audience: 'anyone' },
  openResearch: { id: 'open.research', audience: 'anyone' },
  /** value: the channel id whose digest the modal edits */
  openDigestSettings: { id: 'open.digest', audience: 'members' },
  /** Turns a channel's digest off from App Home. value: the channel id */
  digestOff: { id: 'digest.off', audience: 'members' },
  /** "Filter…" on a list card: opens the list's filter modal. value: ListPageValueSchema */
  listFilter: { id: 'list.filter', audience: 'anyone' },
  /** "Export CSV" on a free list card (or a thread's unlocked contacts). value: ListPageValueSchema */
  listExport: { id: 'list.export', audience: RUNS },
  /**
   * On an email unlock's results: drafts outreach for the people (free), or asks to confirm a LinkedIn
   * activity analysis. Suffixed `.<n>` per button (unique in their block). value: FollowUpValueSchema
   */
  followUpOutreach: { id: 'followup.outreach', audience: 'members' },
  followUpLinkedin: { id: 'followup.linkedin', audience: 'members' },
  /**
   * Distributed apps: opens the workspace's admin modal (service key and policy), from the Home's
   * "Connect Event Intelligence" or "Workspace settings". No value.
   */
  openWorkspaceSettings: { id: 'open.workspace', audience: 'admins' },
  /**
   * On a watch alert's row: the show's fit, the account's people there (each its `/events` command),
   * and Mute this account, one actions block per row. value: WatchRowValueSchema
   * (features/watch/buttons.ts). Show all runs `/events watch list`; Export CSV (on the list) runs
   * `/events watch export`; no value.
   */
  watchFit: { id: 'watch.fit', audience: RUNS },
  watchPeople: { id: 'watch.people', audience: RUNS },
  watchMute: { id: 'watch.mute', audience: RUNS },
  watchShowAll: { id: 'watch.all', audience: RUNS },
  watchExport: { id: 'watch.export', audience: RUNS },
  /** This one, under an ambiguous account's candidates: runs `/events watch choose`. value: WatchChoiceValueSchema */
  watchChoose: { id: 'watch.choose', audience: RUNS },
  /**
   * Previous / Next under `/events watch shows` and `/events watch list`: runs that page of it again.
   * value: WatchPageValueSchema (features/watch/buttons.ts)
   */
  watchPagePrevious: { id: 'watch.page.previous', audience: RUNS },
  watchPageNext: { id: 'watch.page.next', audience: RUNS },
  /**
   * Add to plan, on any row or card naming a show (search rows, compare columns, fit cards): runs
   * `/events plan add <event id>` in that channel. value: EventValueSchema
   */
  planAdd: { id: 'plan.add', audience: RUNS },
  /** Export CSV on the spend card: runs `/events spend <period> export`. value: SpendExportValueSchema */
  spendExport: { id: 'spend.export', audience: RUNS },
  /** "Compare…" under a list of shows: opens the compare modal with the page's shows. value: CompareValueSchema (features/compare/buttons.ts) */
  compareOpen: { id: 'compare.open', audience: 'anyone' },
  /** Remove, on a row of the plan card: runs `/events plan remove <event id>`. value: EventValueSchema */
  planRemove: { id: 'plan.remove', audience: RUNS },
  /** Costs…, on a row of the plan card: opens the show's costs modal. value: CostsValueSchema (features/plan/buttons.ts) */
  planCosts: { id: 'plan.costs', audience: 'members' },
  /** Export CSV on the plan card: runs `/events plan export`. No value. */
  planExport: { id: 'plan.export', audience: RUNS },
  /**
   * Delete, on an outcome's card: runs `/events outcome delete <id>` (its logger or an admin).
   * value: OutcomeValueSchema (features/outcomes/buttons.ts)
   */
  outcomeDelete: { id: 'outcome.delete', audience: RUNS },
  /** Outcome…, on a past show's fit card and plan row: opens the Log for a show form with the show. value: EventValueSchema (kit/row-buttons.ts) */
  outcomeOpen: { id: 'outcome.open', audience: OUTCOME_LOGGERS },
} as const satisfies Readonly<Record<string, ButtonDefinition>>;

type Buttons = typeof BUTTONS;
export const ACTION_IDS = Object.fromEntries(
  Object.entries(BUTTONS).map(([name, { id }]) => [name, id]),
) as { readonly [Name in keyof Buttons]: Buttons[Name]['id'] };

export type ActionId = (typeof ACTION_IDS)[keyof typeof ACTION_IDS];

/** Every button's action id with its audience, for the one check and the permissions table. */
export const BUTTON_AUDIENCES: readonly { actionId: ActionId; audience: ButtonAudience }[] = Object.values(
  BUTTONS,
).map(({ id, audience }) => ({ actionId: id, audience }));
