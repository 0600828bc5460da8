import {
  type ChargeAction,
  ChargeActionSchema,
  type PrecheckRefusal,
  type QuoteRefusal,
} from '../../../domain/charging.ts';
import { formatNumber } from '../../views/format.ts';

/*
 * A charge in words: what an action does, the `/events` command that asks for it again, and why there
 * is nothing to confirm. The domain (src/domain/charging.ts) gives the action and the facts.
 */

/** `1 person`, `3 people`. */
export function plural(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/** What will happen, in the user's words. */
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
