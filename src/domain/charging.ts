import * as z from 'zod';
import type { EisClient } from '../eis/index.ts';
import type { Unlock } from './ports/records.ts';
import { type ListedPrice, PAID_SEARCH_PAGE_SIZE, PRICES } from './prices.ts';

/*
 * What a charge is: the actions that spend credits, as stored on their confirmations, and the price
 * each is listed at. Quoting one is charge-quote.ts, running it charge-run.ts, what came of it
 * charge-outcome.ts.
 */

/** Display names by personnel id, looked up when a contact unlock is asked for (free reads). */
const PeopleNames = z.record(z.string(), z.string()).optional();

const SearchPage = z.number().int().min(1).optional();

/**
 * The show an event unlock is for, read when it is asked for (a free read), so its card can name it
 * by name, dates and city. Absent when that read failed or was too slow: the card names the number.
 */
const EventNamingSchema = z
  .object({
    name: z.string(),
    dateStart: z.string().nullable(),
    dateEnd: z.string().nullable(),
    city: z.string().nullable(),
  })
  .optional();
export type EventNaming = NonNullable<z.infer<typeof EventNamingSchema>>;

/** Every action that spends credits, as stored on its confirmation. */
export const ChargeActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('event-unlock'), eventId: z.string(), event: EventNamingSchema }),
  z.object({ kind: z.literal('visitors-unlock'), eventId: z.string(), event: EventNamingSchema }),
  z.object({ kind: z.literal('full-access-unlock'), eventId: z.string(), event: EventNamingSchema }),
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
export type ChargeActionKind = ChargeAction['kind'];
export const ChargeActionKindSchema = z.enum(
  ChargeActionSchema.options.map((option) => option.shape.kind.value) as [
    ChargeActionKind,
    ...ChargeActionKind[],
  ],
);

/** The kind of a stored confirmation's action; undefined when it is none the bot knows. */
export const chargeActionKindOf = (action: unknown): ChargeActionKind | undefined =>
  ChargeActionSchema.safeParse(action).data?.kind;

export interface Price {
  credits: number;
  /** The service charges at most this (searches charge only on a match; contacts already unlocked are free). */
  upTo: boolean;
}

export type { ChargeBasis } from './prices.ts';

/** Every kind of charge has its line in the price table. */
const PRICE_OF: Record<ChargeAction['kind'], ListedPrice> = PRICES;

const eachKind = <T>(read: (price: ListedPrice) => T) =>
  Object.fromEntries(Object.entries(PRICE_OF).map(([kind, price]) => [kind, read(price)])) as Record<
    ChargeAction['kind'],
    T
  >;

export const CHARGE_BASIS = eachKind((price) => price.basis);

/** Whether a stored action's price is published; cards say the service publishes none when it is not. */
export function hasPublishedPrice(action: unknown): boolean {
  const parsed = ChargeActionSchema.safeParse(action);
  return !parsed.success || CHARGE_BASIS[parsed.data.kind] !== 'unpublished';
}

/** Precheck action codes; null where none exists. */
export const PRECHECK_ACTION = eachKind((price) => price.precheck);

/**
 * The unlock a charge buys, which the service charges once per account (asked again, it answers
 * "already unlocked"); null for searches and LinkedIn analysis, charged each time they are run.
 */
export function unlockOf(action: ChargeAction): Unlock | null {
  switch (action.kind) {
    case 'event-unlock':
    case 'visitors-unlock':
    case 'full-access-unlock':
      return { action: action.kind, eventId: action.eventId };
    case 'email-unlock':
    case 'phone-unlock':
      return { action: action.kind, personnelIds: [...action.personnelIds].sort() };
    default:
      return null;
  }
}

export type ChargeEis = Pick<
  EisClient,
  'actions' | 'credits' | 'events' | 'contacts' | 'personnel' | 'exhibitors'
>;

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

/** The price table's figure for an action: shown as an upper bound when the precheck cannot be had. */
export function listPrice(action: ChargeAction): Price {
  switch (action.kind) {
    case 'event-unlock':
    case 'visitors-unlock':
      return { credits: PRICES[action.kind].credits, upTo: false };
    case 'full-access-unlock':
      return { credits: PRICES[action.kind].credits, upTo: true };
    case 'email-unlock':
    case 'phone-unlock':
      return { credits: PRICES[action.kind].credits * action.personnelIds.length, upTo: true };
    case 'linkedin-activity':
      return linkedinActivityPrice(action.personnelIds.length);
    default:
      return { credits: PRICES[action.kind].credits, upTo: true };
  }
}

/** A paid search's page and its size (`PAID_SEARCH_PAGE_SIZE`), as the search and its precheck send them. */
export const searchPage = (page: number | undefined) => ({
  page: page ?? 1,
  pageSize: PAID_SEARCH_PAGE_SIZE,
});

/** The total balance, or null when the service cannot say right now (never worth failing over). */
export function balanceOrNull(eis: Pick<EisClient, 'credits'>): Promise<number | null> {
  return eis.credits
    .balance()
    .then((balance) => balance.totalBalance)
    .catch(() => null);
}
