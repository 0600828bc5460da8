import { within } from '../platform/within.ts';
import type { EisClient } from '../eis/index.ts';
import {
  type ChargeAction,
  type ChargeEis,
  type EventNaming,
  listPrice,
  PRECHECK_ACTION,
  type Price,
  searchPage,
} from './charging.ts';
import { isServiceError, SERVICE_ERROR_CODE } from './ports/service.ts';

/*
 * Before a charge: who it concerns by name, its price and the balance, or why there is nothing to
 * confirm. The service's precheck has the last word where it has one.
 */

/** Why there is nothing to confirm, as facts; Slack words them. */
export type QuoteRefusal =
  { reason: 'insufficient-balance'; credits: number; balance: number } | { reason: PrecheckRefusal };

export interface ChargeQuote {
  action: ChargeAction;
  price: Price;
  balance: number | null;
  /** Set when there is nothing to confirm: already unlocked, not allowed, not enough credits. */
  refusal?: QuoteRefusal;
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

/** Where a show's name is read: the service's event detail, or today's names of the account. */
export interface EventNames {
  detail(eventId: string): Promise<Partial<Record<NamingField, string | null | undefined>>>;
}
type NamingField = 'name' | 'nickname' | 'dateStart' | 'dateEnd' | 'city';

/** How long a confirmation card waits for its event's name before naming the event by number. */
export const EVENT_NAMING_WAIT_MS = 2_000;

/**
 * The name, dates and city of the event an unlock is for, so the card says which show it charges
 * for, not just its number. A free read, bounded in time; when it fails the action stays as it was.
 */
export async function withEventNaming(
  action: ChargeAction,
  eis: { events: EventNames },
  waitMs = EVENT_NAMING_WAIT_MS,
): Promise<ChargeAction> {
  if (!('eventId' in action)) return action;
  const event = await within(waitMs, eis.events.detail(action.eventId)).catch(() => undefined);
  const name = event?.name?.trim() || event?.nickname?.trim();
  if (!event || !name) return action;
  const naming: EventNaming = {
    name,
    dateStart: event.dateStart ?? null,
    dateEnd: event.dateEnd ?? null,
    city: event.city?.trim() || null,
  };
  return { ...action, event: naming };
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

/** Precheck reason codes that refuse an action before anything is charged (Slack words each). */
export const PRECHECK_REFUSALS = [
  'already_unlocked',
  'unlock_in_progress',
  'no_contacts_available',
  'forbidden',
  'not_found',
  'exceed_max_unlock_limit',
  'state_conflict',
  'invalid_subject',
] as const;
export type PrecheckRefusal = (typeof PRECHECK_REFUSALS)[number];

const isPrecheckRefusal = (code: string): code is PrecheckRefusal =>
  (PRECHECK_REFUSALS as readonly string[]).includes(code);

/**
 * The price and balance to show on a confirmation card. The action precheck is the source of truth
 * where the service has one; when it cannot be had, the spec's price is shown instead, as an upper
 * bound. A revoked key is not papered over: it is thrown for the user to see.
 */
export async function quoteCharge(action: ChargeAction, eis: ChargeEis): Promise<ChargeQuote> {
  const actionType = PRECHECK_ACTION[action.kind];
  const [precheck, balance] = await Promise.all([
    actionType === null
      ? null
      : eis.actions.precheck({ actionType, params: precheckParams(action) }).catch((error: unknown) => {
          if (isServiceError(error, SERVICE_ERROR_CODE.unauthorized)) throw error;
          return null;
        }),
    eis.credits
      .balance()
      .then((b) => b.totalBalance)
      .catch((error: unknown) => {
        if (isServiceError(error, SERVICE_ERROR_CODE.unauthorized)) throw error;
        return null;
      }),
  ]);
  const fallback = listPrice(action);
  if (!precheck || precheck.reason_code === 'unsupported_action') return { action, price: fallback, balance };
  const price: Price = {
    credits: precheck.credits,
    upTo: fallback.upTo && action.kind !== 'full-access-unlock',
  };
  if (precheck.reason_code === 'insufficient_balance') {
    return {
      action,
      price,
      balance,
      refusal: { reason: 'insufficient-balance', credits: price.credits, balance: balance ?? 0 },
    };
  }
  const code = precheck.reason_code;
  if (isPrecheckRefusal(code) && (!precheck.allowed || !precheck.should_charge))
    return { action, price, balance, refusal: { reason: code } };
  return { action, price, balance };
}
