/**
 * The `action_id`s the views put on buttons, and the JSON their `value` carries. Action listeners
 * register on these and parse the value; keep both sides to these shapes.
 */
export const ACTION_IDS = {
  /** value: EventActionValue */
  fitUnlock: 'fit.unlock',
  fitExhibitors: 'fit.exhibitors',
  fitPeople: 'fit.people',
  fitRecommend: 'fit.recommend',
  /** value: ListPageValue */
  listPage: 'list.page',
  /** Event unlock from a preview-gated list. value: EventActionValue */
  listUnlock: 'list.unlock',
  /** value: PeopleUnlockValue (only people whose contact is not unlocked) */
  peopleEmails: 'people.emails',
  peoplePhones: 'people.phones',
  /** value: ConfirmationActionValue */
  confirmYes: 'confirm.yes',
  confirmNo: 'confirm.no',
  /** Fit score from an event card. value: EventActionValue */
  eventFit: 'event.fit',
  /** value: EventActionValue */
  digestFit: 'digest.fit',
  digestUnlock: 'digest.unlock',
  /** Posts a private answer in the channel for everyone. value: ShareValue */
  shareInChannel: 'share.channel',
  /** Opens, privately, the list of every person a card names. value: ListPageValue (`contacts`) */
  showAllPeople: 'people.all',
  /** Runs the command of an expired or cancelled confirmation again. value: CommandValue */
  confirmRestart: 'confirm.restart',
} as const;

export type ActionId = (typeof ACTION_IDS)[keyof typeof ACTION_IDS];

/** The lists that page with `list.page`. */
export const LIST_KINDS = [
  'events',
  'exhibitors',
  'people',
  'recommend',
  'files',
  'similar',
  'person-events',
  /** A large set of contacts, by name, 10 a page ("Show all"). */
  'contacts',
] as const;
export type ListKind = (typeof LIST_KINDS)[number];

/** The query a list was made from; views embed it as given, the page listener reads it back. */
export type ListQuery = Record<string, unknown>;

export interface EventActionValue {
  eventId: string;
}

export interface ListPageValue {
  list: ListKind;
  query: ListQuery;
  page: number;
}

export interface PeopleUnlockValue {
  personnelIds: string[];
}

export interface ConfirmationActionValue {
  confirmationId: string;
}

/** The command a private answer came from, run again in the channel when shared. */
export interface CommandValue {
  text: string;
}

export type ShareValue = CommandValue | ListPageValue;
