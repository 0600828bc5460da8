import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import type {
  ContactUnlockSubmission,
  EisClient,
  EventPage,
  EventSearchPage,
  EventUnlockResult,
  ExhibitorPage,
  FullAccessUnlockResult,
} from '../eis/index.ts';
import { EisError, EisUnauthorizedError } from '../eis/errors.ts';
import { PAID_SEARCH_PAGE_SIZE } from '../eis/operations.ts';
import { traceIdOf } from '../eis/traces.ts';

/** Display names by personnel id, looked up when a contact unlock is asked for (free reads). */
const PeopleNames = z.record(z.string(), z.string()).optional();

const SearchPage = z.number().int().min(1).optional();

/** Every action that spends credits, as stored on its confirmation. */
export const ChargeActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('event-unlock'), eventId: z.string() }),
  z.object({ kind: z.literal('visitors-unlock'), eventId: z.string() }),
  z.object({ kind: z.literal('full-access-unlock'), eventId: z.string() }),
  z.object({
    kind: z.literal('email-unlock'),
    personnelIds: z.array(z.string()).min(1),
    names: PeopleNames,
    /** The event whose people list it started from: sent as the unlock's `event_id`. */
    fromEventId: z.string().optional(),
  }),
  z.object({
    kind: z.literal('phone-unlock'),
    personnelIds: z.array(z.string()).min(1),
    names: PeopleNames,
    fromEventId: z.string().optional(),
  }),
  /** Paid searches: `page` (default 1) is another search, charged again when that page is non-empty. */
  z.object({ kind: z.literal('people-by-name'), fullName: z.string(), page: SearchPage }),
  z.object({ kind: z.literal('exhibitor-events'), companyName: z.string(), page: SearchPage }),
  z.object({ kind: z.literal('exhibitor-search'), companyName: z.string(), page: SearchPage }),
  /**
   * LinkedIn activity analysis (the follow-up under email results): no published price and no
   * precheck code, so its card says the price is not published and shows the credits spent after.
   */
  z.object({
    kind: z.literal('linkedin-activity'),
    personnelIds: z.array(z.string()).min(1).max(20),
    names: PeopleNames,
    /** The unlock's thread, where the card is posted and the results go. */
    threadTs: z.string().optional(),
  }),
]);
export type ChargeAction = z.infer<typeof ChargeActionSchema>;

export interface Price {
  credits: number;
  /** The service charges at most this (searches charge only on a match; contacts already unlocked are free). */
  upTo: boolean;
}

/**
 * How each kind is charged (spec; reference/credits-and-access.mdx), which its cards must say truly:
 * - `fixed`: the price, once; an event already unlocked is refused before anything is charged;
 * - `missing-layers`: full access charges only the layers not yet unlocked (0 to 5,000);
 * - `per-contact`: per chargeable contact, including one the service then finds no email or phone
 *   number for ("charged but not found"); contacts already unlocked are free;
 * - `if-found`: a search, charged only when it returns something (an empty result is free);
 * - `unpublished`: no price is published; a bound is reserved and the spend read from the balance.
 */
export type ChargeBasis = 'fixed' | 'missing-layers' | 'per-contact' | 'if-found' | 'unpublished';

export const CHARGE_BASIS: Record<ChargeAction['kind'], ChargeBasis> = {
  'event-unlock': 'fixed',
  'visitors-unlock': 'fixed',
  'full-access-unlock': 'missing-layers',
  'email-unlock': 'per-contact',
  'phone-unlock': 'per-contact',
  'people-by-name': 'if-found',
  'exhibitor-events': 'if-found',
  'exhibitor-search': 'if-found',
  'linkedin-activity': 'unpublished',
};

/** Whether a stored action's price is published; cards say the service publishes none when it is not. */
export function hasPublishedPrice(action: unknown): boolean {
  const parsed = ChargeActionSchema.safeParse(action);
  return !parsed.success || CHARGE_BASIS[parsed.data.kind] !== 'unpublished';
}

/** The spec's prices, used where the service offers no precheck or the precheck cannot be had. */
export const LIST_PRICES = {
  eventUnlock: 2000,
  visitors: 3000,
  fullAccessMax: 5000,
  email: 15,
  phone: 150,
  search: 50,
};

/** Precheck action codes (spec and reference: "action codes include …"); null where none exists. */
export const PRECHECK_ACTION: Record<ChargeAction['kind'], string | null> = {
  'event-unlock': 'unlock_event_contacts',
  'visitors-unlock': 'unlock_event_visitors',
  'full-access-unlock': 'unlock_event_full_access',
  'email-unlock': 'unlock_contact_emails',
  'phone-unlock': 'unlock_contact_phones',
  'people-by-name': 'search_personnel_events_by_name',
  'exhibitor-events': 'search_exhibitor_events',
  'exhibitor-search': 'search_exhibitors_by_company_name',
  'linkedin-activity': null,
};

export type ChargeEis = Pick<
  EisClient,
  'actions' | 'credits' | 'events' | 'contacts' | 'personnel' | 'exhibitors'
>;

export interface ChargeQuote {
  action: ChargeAction;
  price: Price;
  /** What will happen, in the user's words. */
  description: string;
  balance: number | null;
  /** Set when there is nothing to confirm: already unlocked, not allowed, not enough credits. */
  refusal?: string;
}

export function describeAction(action: ChargeAction): string {
  switch (action.kind) {
    case 'event-unlock':
      return `Unlock event ${action.eventId}: every exhibitor and person, past the 50-record preview`;
    case 'visitors-unlock':
      return `Unlock the registered visitors of event ${action.eventId}`;
    case 'full-access-unlock':
      return `Unlock full access to event ${action.eventId}: the event and its registered visitors`;
    case 'email-unlock':
      return `Unlock the email addresses of ${people(action.personnelIds, action.names)}`;
    case 'phone-unlock':
      return `Unlock the phone numbers of ${people(action.personnelIds, action.names)}`;
    case 'people-by-name':
      return `Find the events of people named “${action.fullName}”${pageWords(action.page)}`;
    case 'exhibitor-events':
      return `Find the events where “${action.companyName}” exhibits${pageWords(action.page)}`;
    case 'exhibitor-search':
      return `Find exhibitor records for the company “${action.companyName}”${pageWords(action.page)}`;
    case 'linkedin-activity':
      return `Analyse the LinkedIn activity of ${people(action.personnelIds, action.names)}`;
  }
}

/** `, page 2`: a paid search's later page is a search of its own. */
const pageWords = (page: number | undefined) => (page && page > 1 ? `, page ${page}` : '');

/** At most this many people are named on a card; the rest are counted (the card's Show all lists them). */
export const NAMED_ON_A_CARD = 10;

/**
 * "3 people: Jane Smith, Ada Silva and 1 more": names where they are known, never a long run of bare
 * ids; a set with no names at all is shown by its first ids.
 */
function people(ids: readonly string[], names: Readonly<Record<string, string>> = {}): string {
  const named = ids.filter((id) => names[id]).slice(0, NAMED_ON_A_CARD);
  const shown = named.length > 0 ? named.map((id) => names[id] ?? id) : ids.slice(0, NAMED_ON_A_CARD);
  const more = ids.length - shown.length;
  const list = more > 0 ? `${shown.join(', ')} and ${more.toLocaleString('en-US')} more` : shown.join(', ');
  return `${plural(ids.length, 'person', 'people')}: ${list}`;
}

/** At most this many names are looked up for a confirmation card; the rest show as ids. */
const MAX_NAME_LOOKUPS = 20;

/**
 * Names for the people of a contact unlock, so the card and the thread reply say who, not just an
 * id. Free reads; a person the service cannot find simply keeps their id.
 */
export async function withPeopleNames(
  action: ChargeAction,
  eis: Pick<EisClient, 'personnel'>,
): Promise<ChargeAction> {
  if (action.kind !== 'email-unlock' && action.kind !== 'phone-unlock') return action;
  const found = await Promise.all(
    action.personnelIds.slice(0, MAX_NAME_LOOKUPS).map((id) =>
      eis.personnel
        .profile(id)
        .then((person) => [id, person.fullName] as const)
        .catch(() => [id, null] as const),
    ),
  );
  const names = Object.fromEntries(
    found.filter((entry): entry is readonly [string, string] => Boolean(entry[1])),
  );
  return Object.keys(names).length > 0 ? { ...action, names } : action;
}

/**
 * The `/events` command that asks for `action` again (the card's "Start again"); undefined for the
 * LinkedIn follow-up, which is asked for by a button under email results, not by a command.
 */
export function commandTextOf<A extends ChargeAction>(
  action: A,
): A extends { kind: 'linkedin-activity' } ? undefined : string;
export function commandTextOf(action: ChargeAction): string | undefined {
  switch (action.kind) {
    case 'event-unlock':
      return `unlock ${action.eventId}`;
    case 'visitors-unlock':
      return `visitors ${action.eventId}`;
    case 'full-access-unlock':
      return `full-access ${action.eventId}`;
    case 'email-unlock':
      return `emails ${action.personnelIds.join(' ')}${eventWord(action.fromEventId)}`;
    case 'phone-unlock':
      return `phones ${action.personnelIds.join(' ')}${eventWord(action.fromEventId)}`;
    case 'people-by-name':
      return `who ${action.fullName}${pageWord(action.page)}`;
    case 'exhibitor-events':
      return `company ${action.companyName}${pageWord(action.page)}`;
    case 'exhibitor-search':
      return `exhibitor ${action.companyName}${pageWord(action.page)}`;
    case 'linkedin-activity':
      return undefined;
  }
}

/** ` page:2` for a paid search's later page. */
const pageWord = (page: number | undefined) => (page && page > 1 ? ` page:${page}` : '');

/** ` event:26855` for a contact unlock started from an event's people list. */
const eventWord = (eventId: string | undefined) => (eventId ? ` event:${eventId}` : '');

/** The unlock's event context as its optional argument, when it has one. */
const unlockOptions = (eventId: string | undefined): [] | [{ eventId: string }] =>
  eventId ? [{ eventId }] : [];

/** The description of an action as stored on a confirmation (parsed, never trusted). */
export function describeStoredAction(action: unknown): string {
  const parsed = ChargeActionSchema.safeParse(action);
  return parsed.success ? describeAction(parsed.data) : 'A credit-spending action';
}

export function plural(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/**
 * LinkedIn activity's price is not published (its card says so): this many credits per person are
 * assumed at most (src/eis/ASSUMPTIONS.md) and reserved under the daily cap when it is confirmed, so
 * a spent cap refuses it and many confirmed at once cannot pass the cap on their reservations.
 */
export const LINKEDIN_ACTIVITY_ASSUMED_MAX = 150;

export const linkedinActivityPrice = (people: number): Price => ({
  credits: LINKEDIN_ACTIVITY_ASSUMED_MAX * people,
  upTo: true,
});

function listPrice(action: ChargeAction): Price {
  switch (action.kind) {
    case 'event-unlock':
      return { credits: LIST_PRICES.eventUnlock, upTo: false };
    case 'visitors-unlock':
      return { credits: LIST_PRICES.visitors, upTo: false };
    case 'full-access-unlock':
      return { credits: LIST_PRICES.fullAccessMax, upTo: true };
    case 'email-unlock':
      return { credits: LIST_PRICES.email * action.personnelIds.length, upTo: true };
    case 'phone-unlock':
      return { credits: LIST_PRICES.phone * action.personnelIds.length, upTo: true };
    case 'linkedin-activity':
      return linkedinActivityPrice(action.personnelIds.length);
    default:
      return { credits: LIST_PRICES.search, upTo: true };
  }
}

export function precheckParams(action: ChargeAction): Record<string, unknown> {
  if ('eventId' in action) return { event_id: action.eventId };
  if ('personnelIds' in action) return { personnel_ids: action.personnelIds };
  // A search's precheck names the page it quotes: each page is charged on its own.
  const { page, pageSize } = searchPage(action.page);
  const paging = { page, page_size: pageSize };
  if ('fullName' in action) return { person_name: action.fullName, ...paging };
  return { company_name: action.companyName, ...paging };
}

const REFUSALS: Record<string, string> = {
  already_unlocked: 'This is already unlocked: there is nothing to pay for.',
  unlock_in_progress: 'An unlock of this is already in progress. Try again in a minute.',
  no_contacts_available: 'There is nothing to unlock here: no chargeable records are available.',
  forbidden: 'This needs an active paid subscription on the service account.',
  not_found: 'The service does not know this event or person.',
  exceed_max_unlock_limit: 'That is more records than the service unlocks at once.',
  state_conflict: 'This needs the event itself unlocked first (`/events unlock <event_id>`).',
  invalid_subject: 'The service could not use these ids.',
};

/**
 * The price and balance to show on a confirmation card. The action precheck is the source of truth
 * where the service has one; when it cannot be had, the spec's price is shown instead, as an upper
 * bound. A revoked key is not papered over: it is thrown for the user to see.
 */
export async function quoteCharge(action: ChargeAction, eis: ChargeEis): Promise<ChargeQuote> {
  const description = describeAction(action);
  const actionType = PRECHECK_ACTION[action.kind];
  const [precheck, balance] = await Promise.all([
    actionType === null
      ? null
      : eis.actions.precheck({ actionType, params: precheckParams(action) }).catch((error: unknown) => {
          if (error instanceof EisUnauthorizedError) throw error;
          return null;
        }),
    eis.credits
      .balance()
      .then((b) => b.totalBalance)
      .catch((error: unknown) => {
        if (error instanceof EisUnauthorizedError) throw error;
        return null;
      }),
  ]);
  const fallback = listPrice(action);
  if (!precheck || precheck.reason_code === 'unsupported_action')
    return { action, price: fallback, description, balance };
  const price: Price = {
    credits: precheck.credits,
    upTo: fallback.upTo && action.kind !== 'full-access-unlock',
  };
  if (precheck.reason_code === 'insufficient_balance') {
    return {
      action,
      price,
      description,
      balance,
      refusal: `This costs ${price.credits.toLocaleString('en-US')} credits and the balance is ${(balance ?? 0).toLocaleString('en-US')}.`,
    };
  }
  const refusal = REFUSALS[precheck.reason_code];
  if (refusal && (!precheck.allowed || !precheck.should_charge))
    return { action, price, description, balance, refusal };
  return { action, price, description, balance };
}

/** What a finished charge did, ready to be shown and recorded. */
export interface ChargeOutcome {
  creditsSpent: number;
  /** The service's trace id of the charging call, for the ledger and support questions. */
  traceId?: string;
  balanceAfter: number | null;
  /** Lines for the card, in the user's words. */
  summary: string[];
  /** Search results to post under the card. */
  results?:
    { kind: 'events'; page: EventPage | EventSearchPage } | { kind: 'exhibitors'; page: ExhibitorPage };
  /** An asynchronous contact unlock (or LinkedIn analysis) the poller must follow. */
  task?: {
    taskId: string;
    kind: 'email' | 'phone';
    skipped: { personnelId: string; reason: string }[];
    /** The people it follows, when fewer than the action's (the service refused the others). */
    personnelIds?: string[];
    /** A LinkedIn analysis: the poller reads activity, not contacts. */
    followUp?: { kind: 'linkedin' };
  };
}

function balanceOf(balanceAfter: unknown): number | null {
  if (balanceAfter && typeof balanceAfter === 'object' && 'totalBalance' in balanceAfter) {
    const total = balanceAfter.totalBalance;
    return typeof total === 'number' ? total : null;
  }
  return null;
}

const SKIP_REASONS: Record<string, string> = {
  already_unlocked_personnel_ids: 'already unlocked',
  unlocking_personnel_ids: 'already unlocking',
  unlinked_personnel_ids: 'not linked to a contact',
  invalid_personnel_ids: 'invalid id',
  missing_personnel_ids: 'not found',
};

/** Calls the charging operation once. Errors (typed `EisError`s) are the caller's to show. */
export async function executeCharge(action: ChargeAction, eis: ChargeEis): Promise<ChargeOutcome> {
  const { response, outcome } = await callService(action, eis);
  const traceId = traceIdOf(response);
  // Every card says the balance after its charge: read it when the reply did not carry it (LinkedIn's
  // outcome already read it). Null then means it could not be read.
  const balanceAfter =
    outcome.balanceAfter ?? (action.kind === 'linkedin-activity' ? null : await balanceOrNull(eis));
  return { ...outcome, balanceAfter, ...(traceId ? { traceId } : {}) };
}

/** The service's reply (its trace id is looked up by it) and what it did. */
interface ServiceReply {
  response: unknown;
  outcome: ChargeOutcome;
}

type ActionOf<K extends ChargeAction['kind']> = Extract<ChargeAction, { kind: K }>;
type ServiceCall<A extends ChargeAction> = (eis: ChargeEis, action: A) => Promise<ServiceReply>;

/** A service call of one kind: how to call the client, and how to read what it returns. */
function serviceCall<A extends ChargeAction, R>(
  call: (eis: ChargeEis, action: A) => Promise<R>,
  read: (result: R, action: A) => ChargeOutcome,
): ServiceCall<A> {
  return async (eis, action) => {
    const response = await call(eis, action);
    return { response, outcome: read(response, action) };
  };
}

/** A paid search's page and its size (`PAID_SEARCH_PAGE_SIZE`), as the search and its precheck send them. */
const searchPage = (page: number | undefined) => ({ page: page ?? 1, pageSize: PAID_SEARCH_PAGE_SIZE });

/** The one charging call of each kind of action. */
const SERVICE_CALLS: { [K in ChargeAction['kind']]: ServiceCall<ActionOf<K>> } = {
  'event-unlock': serviceCall(
    (eis, a) => eis.events.unlock(a.eventId),
    (result, a) => eventUnlocked('Event', result, a.eventId),
  ),
  'visitors-unlock': serviceCall(
    (eis, a) => eis.events.unlockVisitors(a.eventId),
    (result, a) => eventUnlocked('Visitors', result, a.eventId),
  ),
  'full-access-unlock': serviceCall(
    (eis, a) => eis.events.unlockFullAccess(a.eventId),
    (result, a) => eventUnlocked('Full access', result, a.eventId),
  ),
  'email-unlock': serviceCall(
    (eis, a) => eis.contacts.unlockEmails(a.personnelIds, ...unlockOptions(a.fromEventId)),
    (submission, a) => contactsUnlocking('email', submission, a.personnelIds),
  ),
  'phone-unlock': serviceCall(
    (eis, a) => eis.contacts.unlockPhones(a.personnelIds, ...unlockOptions(a.fromEventId)),
    (submission, a) => contactsUnlocking('phone', submission, a.personnelIds),
  ),
  'people-by-name': serviceCall(
    (eis, a) => eis.personnel.eventsByName({ personName: a.fullName, ...searchPage(a.page) }),
    (page, a) => searchOutcome(page, { kind: 'events', page }, `events of people named “${a.fullName}”`),
  ),
  'exhibitor-events': serviceCall(
    (eis, a) => eis.exhibitors.searchEvents({ companyName: a.companyName, ...searchPage(a.page) }),
    (page, a) => searchOutcome(page, { kind: 'events', page }, `events where “${a.companyName}” exhibits`),
  ),
  'exhibitor-search': serviceCall(
    (eis, a) => eis.exhibitors.searchByCompanyName({ companyName: a.companyName, ...searchPage(a.page) }),
    (page, a) =>
      searchOutcome(page, { kind: 'exhibitors', page }, `exhibitor records for “${a.companyName}”`),
  ),
  'linkedin-activity': serviceCall(async (eis, a) => {
    // The answer has no amount: the balance's drop is the best figure.
    const before = await balanceOrNull(eis);
    const answer = await eis.personnel.unlockLinkedinActivity(a.personnelIds);
    return { ...answer, before, after: await balanceOrNull(eis) };
  }, linkedinOutcome),
};

function callService(action: ChargeAction, eis: ChargeEis): Promise<ServiceReply> {
  // The entry for `action.kind` takes that kind of action; TypeScript cannot correlate the two by itself.
  const call = SERVICE_CALLS[action.kind] as ServiceCall<ChargeAction>;
  return call(eis, action);
}

/** An event, visitors or full-access unlock; `what` names the layer in the summary. */
function eventUnlocked(
  what: string,
  result: EventUnlockResult | FullAccessUnlockResult,
  eventId: string,
): ChargeOutcome {
  const name = result.event.name ?? eventId;
  const summary = result.alreadyUnlocked
    ? `${what} for ${name} was already unlocked.`
    : `${what} unlocked for ${name}.`;
  return {
    creditsSpent: result.creditsSpent,
    balanceAfter: balanceOf(result.balanceAfter),
    summary: [summary],
  };
}

/** An email or phone unlock submission: a task for the poller, or nothing to unlock. */
function contactsUnlocking(
  kind: 'email' | 'phone',
  submission: ContactUnlockSubmission,
  personnelIds: readonly string[],
): ChargeOutcome {
  const skipped = Object.entries(SKIP_REASONS).flatMap(([field, reason]) => {
    const ids = submission.skipped_detail?.[field];
    return Array.isArray(ids) ? ids.map((personnelId) => ({ personnelId: String(personnelId), reason })) : [];
  });
  const asked = personnelIds.length - skipped.length;
  const noun =
    kind === 'email' ? plural(asked, 'email', 'emails') : plural(asked, 'phone number', 'phone numbers');
  const skippedLine = skipped.length > 0 ? ` (${skipped.length} skipped: ${skipReasons(skipped)})` : '';
  if (!submission.taskId) {
    return {
      creditsSpent: submission.creditsSpent ?? 0,
      balanceAfter: null,
      summary: [`Nothing to unlock${skippedLine}.`],
    };
  }
  // When the service does not report the amount, the list price of the contacts it accepted is recorded.
  const unitPrice = kind === 'email' ? LIST_PRICES.email : LIST_PRICES.phone;
  return {
    creditsSpent: submission.creditsSpent ?? asked * unitPrice,
    balanceAfter: null,
    summary: [`Unlocking ${noun}…${skippedLine} Results will arrive in this thread.`],
    task: { taskId: submission.taskId, kind, skipped },
  };
}

/** A LinkedIn analysis: who is being analysed, who was refused, and the balance's drop as the amount. */
function linkedinOutcome(answer: {
  items: { personnel_id: string; success: boolean; error?: string | null | undefined }[];
  before: number | null;
  after: number | null;
}): ChargeOutcome {
  const { items, before, after } = answer;
  const known = before !== null && after !== null;
  // Other spending at the same moment would be counted too, so the card says where the figure comes from.
  const spent = known ? Math.max(0, before - after) : 0;
  const started = items.filter((item) => item.success).map((item) => item.personnel_id);
  const refused = items.filter((item) => !item.success);
  const summary = [
    started.length > 0
      ? `Analysing ${plural(started.length, 'person', 'people')}… Results will arrive in this thread.`
      : 'Nothing to analyse: the service refused every person.',
    ...(refused.length > 0
      ? [`${refused.length} skipped (${refused.map((item) => item.error ?? 'refused').join(', ')}).`]
      : []),
    known
      ? `Credits spent, from the balance before and after: ${spent.toLocaleString('en-US')}.`
      : 'The balance could not be read: the credits spent are not known.',
  ];
  return {
    creditsSpent: spent,
    balanceAfter: after,
    summary,
    ...(started.length > 0
      ? {
          task: {
            taskId: `linkedin-${randomUUID()}`,
            kind: 'email' as const,
            skipped: [],
            personnelIds: started,
            followUp: { kind: 'linkedin' as const },
          },
        }
      : {}),
  };
}

function skipReasons(skipped: { reason: string }[]): string {
  const counts = new Map<string, number>();
  for (const { reason } of skipped) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts].map(([reason, count]) => `${count} ${reason}`).join(', ');
}

function searchOutcome(
  { total, items }: { total: number; items: unknown[] },
  results: NonNullable<ChargeOutcome['results']>,
  what: string,
): ChargeOutcome {
  const found = total > 0 || items.length > 0;
  return {
    // The spec's rule: 50 credits for a non-empty result, nothing for an empty one.
    creditsSpent: found ? LIST_PRICES.search : 0,
    balanceAfter: null,
    summary: [
      found ? `Found ${plural(total, 'match', 'matches')}: ${what}.` : `No ${what}: nothing was charged.`,
    ],
    results,
  };
}

/** The total balance, or null when the service cannot say right now (never worth failing over). */
export function balanceOrNull(eis: Pick<EisClient, 'credits'>): Promise<number | null> {
  return eis.credits
    .balance()
    .then((balance) => balance.totalBalance)
    .catch(() => null);
}

/** A user-facing sentence for any error of a charge; never a stack or a secret. */
export function chargeErrorMessage(error: unknown): string {
  if (error instanceof EisError) return error.userMessage;
  return 'Something went wrong on our side; nothing more will be attempted for this confirmation.';
}
