import { PRICES, type PricedKind } from '../platform/prices.ts';

/*
 * What calling an operation can cost, as the operation table (`operations.ts`) states it per row, read
 * from the one price table (src/platform/prices.ts).
 */

/** What calling an operation can cost. `precheck` is the action code to ask first, where there is one. */
export type Charging =
  /** Never spends credits. */
  | { kind: 'free'; note?: string }
  /** A fixed price for the first success; repeating it once done is free. */
  | { kind: 'flat'; credits: number; precheck: string; note: string }
  /** Anywhere from `min` to `max`, depending on what is still locked: quote the precheck's figure. */
  | { kind: 'range'; min: number; max: number; precheck: string; note: string }
  /** `credits` per chargeable contact: "up to", since contacts already unlocked or skipped cost nothing. */
  | { kind: 'per-contact'; credits: number; precheck: string; note: string }
  /** `credits` when the answer is non-empty, nothing when empty: "up to". Every page asked for is a new search. */
  | { kind: 'on-match'; credits: number; precheck: string; note: string }
  /** May spend credits, but neither the spec nor the vendor gives a price or an action code. */
  | { kind: 'undocumented'; note: string };

export const FREE: Charging = { kind: 'free' };

/** How a kind of charge is charged, from the one price table (src/platform/prices.ts). */
export function priced(kind: PricedKind, note: string): Charging {
  const { credits, basis, precheck } = PRICES[kind];
  if (credits === null || precheck === null) return { kind: 'undocumented', note };
  switch (basis) {
    case 'fixed':
      return { kind: 'flat', credits, precheck, note };
    case 'missing-layers':
      return { kind: 'range', min: 0, max: credits, precheck, note };
    case 'per-contact':
      return { kind: 'per-contact', credits, precheck, note };
    case 'if-found':
      return { kind: 'on-match', credits, precheck, note };
  }
}

/**
 * Whether a call can spend credits. A charging call is retried only when the service provably did not
 * run it (429, the 200 concurrency envelope, a connection that was never made); the row decides, nowhere else.
 */
export const isCharging = (charging: Charging): boolean => charging.kind !== 'free';

export interface ListPrice {
  /** Credits at most; null when no price is documented. */
  credits: number | null;
  /** The real charge may be lower (a search that finds nothing, contacts already unlocked, layers owned). */
  upTo: boolean;
  /** The precheck action code that quotes the real figure, when the service has one. */
  precheck: string | null;
}

/** The documented price of one call; `contacts` counts the people of a per-contact unlock. */
export function listPriceOf(charging: Charging, contacts = 1): ListPrice {
  switch (charging.kind) {
    case 'free':
      return { credits: 0, upTo: false, precheck: null };
    case 'flat':
      return { credits: charging.credits, upTo: false, precheck: charging.precheck };
    case 'range':
      return { credits: charging.max, upTo: true, precheck: charging.precheck };
    case 'per-contact':
      return { credits: charging.credits * contacts, upTo: true, precheck: charging.precheck };
    case 'on-match':
      return { credits: charging.credits, upTo: true, precheck: charging.precheck };
    case 'undocumented':
      return { credits: null, upTo: true, precheck: null };
  }
}
