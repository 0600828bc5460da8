import { type ChargeAction, ChargeActionSchema, type EventNaming } from '../../domain/charging.ts';
import type { ChargeFacts } from '../../domain/charge-outcome.ts';
import type { PrecheckRefusal, QuoteRefusal } from '../../domain/charge-quote.ts';
import type { StoredOutcome } from '../../domain/confirmations.ts';
import type { LedgerEntry } from '../../domain/ports/index.ts';
import { formatDateRange, formatNumber, mentionChannel, mentionUser, plural } from '../views/format.ts';
import { mk, type Mrkdwn } from '../views/mrkdwn.ts';
import type { AskAgainValue } from './job-values.ts';

/*
 * A charge in words: what an action does, the `/events` command that asks for it again, and why there
 * is nothing to confirm, and what came of it. The domain gives the action (src/domain/charging.ts) and
 * the facts (charge-quote.ts, charge-outcome.ts).
 */

/**
 * Who approved a booked charge, after who asked: ` · confirmed by @Bob`, the watch budget's setter for
 * a pre-approved look-up, or nothing when the asker confirmed it themselves.
 */
export function confirmedByWords(
  entry: Pick<LedgerEntry, 'requestedBy' | 'confirmedBy' | 'preApproval'>,
): Mrkdwn {
  if (entry.preApproval)
    return mk` · pre-approved by the watch budget ${mentionUser(entry.preApproval.setBy)} set for ${mentionChannel(entry.preApproval.channelId)}`;
  return entry.confirmedBy === entry.requestedBy
    ? mk``
    : mk` · confirmed by ${mentionUser(entry.confirmedBy)}`;
}

/** What will happen, in the user's words. */
export function describeAction(action: ChargeAction): string {
  switch (action.kind) {
    case 'event-unlock':
      return `Unlock ${eventWords(action)}: every exhibitor and person, past the 50-record preview`;
    case 'visitors-unlock':
      return `Unlock the registered visitors of ${eventWords(action)}`;
    case 'full-access-unlock':
      return `Unlock full access to ${eventWords(action)}: the event and its registered visitors`;
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

/**
 * `Fintech Expo 2027 (12–14 Mar 2027, Berlin), event 27317`: the show by name, dates and city, and
 * its number; `event 27317` alone when its name could not be read.
 */
function eventWords({ eventId, event }: { eventId: string; event?: EventNaming | undefined }): string {
  if (!event) return `event ${eventId}`;
  const when = event.dateStart || event.dateEnd ? formatDateRange(event.dateStart, event.dateEnd) : undefined;
  const facts = [when, event.city].filter(Boolean);
  return `${event.name}${facts.length > 0 ? ` (${facts.join(', ')})` : ''}, event ${eventId}`;
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

/**
 * What Start again and a paid search's Previous / Next carry to ask for `action` again: the action as
 * its command asks for it; undefined for the LinkedIn follow-up (asked for by a button, not a command).
 */
export function askAgainValue(action: ChargeAction): AskAgainValue | undefined {
  switch (action.kind) {
    case 'event-unlock':
    case 'visitors-unlock':
    case 'full-access-unlock':
      return { askAgain: { kind: action.kind, eventId: action.eventId } };
    case 'email-unlock':
    case 'phone-unlock': {
      const { kind, personnelIds, fromEventId } = action;
      return { askAgain: { kind, personnelIds, ...(fromEventId ? { fromEventId } : {}) } };
    }
    case 'people-by-name':
      return { askAgain: { kind: action.kind, fullName: action.fullName, ...searchPage(action.page) } };
    case 'exhibitor-events':
    case 'exhibitor-search':
      return { askAgain: { kind: action.kind, companyName: action.companyName, ...searchPage(action.page) } };
    case 'linkedin-activity':
      return undefined;
  }
}

const searchPage = (page: number | undefined) => (page && page > 1 ? { page } : {});

/** ` page:2` for a paid search's later page. */
const pageWord = (page: number | undefined) => (page && page > 1 ? ` page:${page}` : '');

/** ` event:26855` for a contact unlock started from an event's people list. */
const eventWord = (eventId: string | undefined) => (eventId ? ` event:${eventId}` : '');

/** The description of an action as stored on a confirmation (parsed, never trusted). */
export function describeStoredAction(action: unknown): string {
  const parsed = ChargeActionSchema.safeParse(action);
  return parsed.success ? describeAction(parsed.data) : 'A credit-spending action';
}

const PRECHECK_REFUSAL_WORDS: Record<PrecheckRefusal, string> = {
  already_unlocked: 'This is already unlocked: there is nothing to pay for.',
  unlock_in_progress: 'An unlock of this is already in progress. Try again in a minute.',
  no_contacts_available: 'There is nothing to unlock here: no chargeable records are available.',
  forbidden: 'This needs an active paid subscription on the service account.',
  not_found: 'The service does not know this event or person.',
  exceed_max_unlock_limit: 'That is more records than the service unlocks at once.',
  state_conflict: 'This needs the event itself unlocked first (`/events unlock <event_id>`).',
  invalid_subject: 'The service could not use these ids.',
};

/** Why there is nothing to confirm. */
export function quoteRefusalWords(refusal: QuoteRefusal): string {
  if (refusal.reason === 'insufficient-balance')
    return `This costs ${formatNumber(refusal.credits)} credits and the balance is ${formatNumber(refusal.balance)}.`;
  return PRECHECK_REFUSAL_WORDS[refusal.reason];
}

/**
 * What came of a succeeded charge, as the lines of its card: its facts worded, or the words an older
 * release (or the reconciler) stored in their place.
 */
export function chargeOutcomeLines(outcome: Pick<StoredOutcome, 'facts' | 'summary'>): string[] {
  return outcome.facts ? chargeFactsWords(outcome.facts) : (outcome.summary ?? []);
}

const EVENT_LAYER: Record<Extract<ChargeFacts, { kind: 'event-unlocked' }>['layer'], string> = {
  event: 'Event',
  visitors: 'Visitors',
  'full-access': 'Full access',
};

const CONTACTS: Record<'email' | 'phone', { one: string; many: string }> = {
  email: { one: 'email', many: 'emails' },
  phone: { one: 'phone number', many: 'phone numbers' },
};

/** What a paid search looked for: `events where “Acme” exhibits`. */
function searchedFor({ search, query }: Extract<ChargeFacts, { kind: 'search' }>): string {
  switch (search) {
    case 'people-by-name':
      return `events of people named “${query}”`;
    case 'exhibitor-events':
      return `events where “${query}” exhibits`;
    case 'exhibitor-search':
      return `exhibitor records for “${query}”`;
  }
}

/** ` (2 skipped: 1 already unlocked, 1 invalid id)`, or nothing when none was skipped. */
function skippedWords(skipped: readonly { reason: string; count: number }[]): string {
  const total = skipped.reduce((sum, { count }) => sum + count, 0);
  if (total === 0) return '';
  return ` (${total} skipped: ${skipped.map(({ reason, count }) => `${count} ${reason}`).join(', ')})`;
}

function chargeFactsWords(facts: ChargeFacts): string[] {
  switch (facts.kind) {
    case 'event-unlocked': {
      const what = EVENT_LAYER[facts.layer];
      const name = facts.eventName ?? facts.eventId;
      return [
        facts.alreadyUnlocked ? `${what} for ${name} was already unlocked.` : `${what} unlocked for ${name}.`,
      ];
    }
    case 'contacts-unlocking': {
      const { one, many } = CONTACTS[facts.contact];
      const skipped = skippedWords(facts.skipped);
      return [`Unlocking ${plural(facts.count, one, many)}…${skipped} Results will arrive in this thread.`];
    }
    case 'nothing-to-unlock':
      return [`Nothing to unlock${skippedWords(facts.skipped)}.`];
    case 'search':
      return [
        facts.found
          ? `Found ${plural(facts.total, 'match', 'matches')}: ${searchedFor(facts)}.`
          : `No ${searchedFor(facts)}: nothing was charged.`,
      ];
    case 'linkedin-analysis':
      return linkedinAnalysisWords(facts);
  }
}

function linkedinAnalysisWords({
  started,
  refused,
  measuredSpend,
}: Extract<ChargeFacts, { kind: 'linkedin-analysis' }>): string[] {
  return [
    started > 0
      ? `Analysing ${plural(started, 'person', 'people')}… Results will arrive in this thread.`
      : 'Nothing to analyse: the service refused every person.',
    ...(refused.length > 0
      ? [`${refused.length} skipped (${refused.map((error) => error ?? 'refused').join(', ')}).`]
      : []),
    measuredSpend !== null
      ? `Credits spent, from the balance before and after: ${measuredSpend.toLocaleString('en-US')}.`
      : 'The balance could not be read: the credits spent are not known.',
  ];
}
