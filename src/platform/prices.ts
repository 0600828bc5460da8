/*
 * The one price table: what each kind of charge costs per the spec (reference/credits-and-access.mdx),
 * how it is charged, and the precheck action code that quotes the real figure. The charging rules
 * (src/domain), the service client's operation table (src/eis/operations.ts) and the help all read it, so
 * it lives below both: the vendor's price list is a fact of the service, like its OpenAPI. The service's
 * precheck has the last word.
 */

/**
 * How each kind is charged, which its cards must say truly:
 * - `fixed`: the price, once; an event already unlocked is refused before anything is charged;
 * - `missing-layers`: full access charges only the layers not yet unlocked (0 to the price);
 * - `per-contact`: per chargeable contact, including one the service then finds no email or phone
 *   number for ("charged but not found"); contacts already unlocked are free;
 * - `if-found`: a search, charged only when it returns something (an empty result is free);
 * - `unpublished`: no price is published; a bound is reserved and the spend read from the balance.
 */
export type ChargeBasis = 'fixed' | 'missing-layers' | 'per-contact' | 'if-found' | 'unpublished';

export interface ListedPrice {
  /** The spec's price: per contact for `per-contact`, the most for `missing-layers`; null when unpublished. */
  credits: number | null;
  basis: ChargeBasis;
  /** The precheck action code (spec: "action codes include …"); null where none exists. */
  precheck: string | null;
}

export const PRICES = {
  /** The spec: "examples show 2000"; free when already unlocked. */
  'event-unlock': { credits: 2000, basis: 'fixed', precheck: 'unlock_event_contacts' },
  'visitors-unlock': { credits: 3000, basis: 'fixed', precheck: 'unlock_event_visitors' },
  /** The missing layers only: the event unlock plus the visitors. */
  'full-access-unlock': { credits: 5000, basis: 'missing-layers', precheck: 'unlock_event_full_access' },
  'email-unlock': { credits: 15, basis: 'per-contact', precheck: 'unlock_contact_emails' },
  'phone-unlock': { credits: 150, basis: 'per-contact', precheck: 'unlock_contact_phones' },
  'people-by-name': { credits: 50, basis: 'if-found', precheck: 'search_personnel_events_by_name' },
  'exhibitor-events': { credits: 50, basis: 'if-found', precheck: 'search_exhibitor_events' },
  /** Not among the OpenAPI's precheck examples: an `unsupported_action` answer means "use the list price". */
  'exhibitor-search': { credits: 50, basis: 'if-found', precheck: 'search_exhibitors_by_company_name' },
  /** The credits page says only "no email-unlock charge"; the OpenAPI lists no 402 and no precheck code. */
  'linkedin-activity': { credits: null, basis: 'unpublished', precheck: null },
} as const satisfies Record<string, ListedPrice>;

export type PricedKind = keyof typeof PRICES;
