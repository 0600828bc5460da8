/**
 * The `action_id`s the views put on buttons; the JSON each `value` carries is the named schema in
 * its room's `src/slack/features/<room>/buttons.ts` (`ShareValueSchema`: kit/share.ts). Action
 * listeners register on these ids and parse the value.
 */
export const ACTION_IDS = {
  /** value: EventValueSchema */
  fitUnlock: 'fit.unlock',
  fitExhibitors: 'fit.exhibitors',
  fitPeople: 'fit.people',
  fitRecommend: 'fit.recommend',
  /** value: ListPageValueSchema */
  listPage: 'list.page',
  /**
   * Previous / Next under a paid search's results: the search for that page, asked for again as the
   * command (so it goes through a confirmation card: every page charges). value: CommandValueSchema
   */
  searchPagePrevious: 'search.page.previous',
  searchPageNext: 'search.page.next',
  /** Event unlock from a preview-gated list. value: EventValueSchema */
  listUnlock: 'list.unlock',
  /** value: PeopleValueSchema (only people whose contact is not unlocked) */
  peopleEmails: 'people.emails',
  peoplePhones: 'people.phones',
  /** value: ConfirmationValueSchema */
  confirmYes: 'confirm.yes',
  confirmNo: 'confirm.no',
  /** Fit score from an event card. value: EventValueSchema */
  eventFit: 'event.fit',
  /** Opens an exhibitor's profile card (free), from an exhibitor row. value: ExhibitorValueSchema */
  accountOpen: 'account.open',
  /** value: EventValueSchema */
  digestFit: 'digest.fit',
  digestUnlock: 'digest.unlock',
  /** Posts a private answer in the channel for everyone. value: ShareValueSchema */
  shareInChannel: 'share.channel',
  /** Opens, privately, the list of every person a card names. value: ListPageValueSchema (`contacts`) */
  showAllPeople: 'people.all',
  /** Runs the command of an expired or cancelled confirmation again. value: CommandValueSchema */
  confirmRestart: 'confirm.restart',
  /** Open the modals (from App Home, list cards and messages). No value, unless named. */
  openSearch: 'open.search',
  openResearch: 'open.research',
  /** value: the channel id whose digest the modal edits */
  openDigestSettings: 'open.digest',
  /** Turns a channel's digest off from App Home. value: the channel id */
  digestOff: 'digest.off',
  /** "Filter…" on a list card: opens the list's filter modal. value: ListPageValueSchema */
  listFilter: 'list.filter',
  /** "Export CSV" on a free list card (or a thread's unlocked contacts). value: ListPageValueSchema */
  listExport: 'list.export',
  /**
   * On an email unlock's results: drafts outreach for the people (free), or asks to confirm a LinkedIn
   * activity analysis. Suffixed `.<n>` per button (unique in their block). value: FollowUpValueSchema
   */
  followUpOutreach: 'followup.outreach',
  followUpLinkedin: 'followup.linkedin',
  /**
   * Distributed apps: opens the workspace's admin modal (service key and policy), from the Home's
   * "Connect Event Intelligence" or "Workspace settings". No value.
   */
  openWorkspaceSettings: 'open.workspace',
  /**
   * On a watch alert's row: the show's fit, the account's people there (each its `/events` command),
   * and Mute this account, one actions block per row. value: WatchRowValueSchema
   * (features/watch/buttons.ts). Show all runs `/events watch list`; Export CSV (on the list) runs
   * `/events watch export`; no value.
   */
  watchFit: 'watch.fit',
  watchPeople: 'watch.people',
  watchMute: 'watch.mute',
  watchShowAll: 'watch.all',
  watchExport: 'watch.export',
  /** This one, under an ambiguous account's candidates: runs `/events watch choose`. value: WatchChoiceValueSchema */
  watchChoose: 'watch.choose',
  /**
   * Previous / Next under `/events watch shows` and `/events watch list`: runs that page of it again.
   * value: WatchPageValueSchema (features/watch/buttons.ts)
   */
  watchPagePrevious: 'watch.page.previous',
  watchPageNext: 'watch.page.next',
  /**
   * Add to plan, on any row or card naming a show (search rows, compare columns, fit cards): runs
   * `/events plan add <event id>` in that channel. value: EventValueSchema
   */
  planAdd: 'plan.add',
  /** Export CSV on the spend card: runs `/events spend <period> export`. value: SpendExportValueSchema */
  spendExport: 'spend.export',
  /** "Compare…" under a list of shows: opens the compare modal with the page's shows. value: CompareValueSchema (features/compare/buttons.ts) */
  compareOpen: 'compare.open',
  /** Remove, on a row of the plan card: runs `/events plan remove <event id>`. value: EventValueSchema */
  planRemove: 'plan.remove',
  /** Costs…, on a row of the plan card: opens the show's costs modal. value: CostsValueSchema (features/plan/buttons.ts) */
  planCosts: 'plan.costs',
  /** Export CSV on the plan card: runs `/events plan export`. No value. */
  planExport: 'plan.export',
} as const;

export type ActionId = (typeof ACTION_IDS)[keyof typeof ACTION_IDS];
