import {
  CHARGE_BASIS,
  type ChargeAction,
  ChargeActionSchema,
  type Price as QuotedPrice,
} from '../../domain/charging.ts';
import { type PricedKind, PRICES } from '../../domain/prices.ts';
import { GIVE_UP_AFTER_HOURS } from '../../domain/poll-cadence.ts';
import type { UnlockOutcome } from '../../domain/unlock-result.ts';
import type { Confirmation } from '../../domain/ports/index.ts';
import { formatCredits, formatNumber, plural } from '../views/format.ts';
import type { Price } from '../views/types.ts';

/*
 * Every word about money on a card, the Home tab and a thread reply: the price before confirming, what
 * is charged when nothing is found, the credits spent and the balance after. The prices and the rule
 * of each kind of charge are the domain's (`PRICES` in prices.ts); how they are
 * said is here, once.
 */

/** The price table's figure for a kind of charge, as the help shows it: `2,000`. */
export function listedCredits(kind: Exclude<PricedKind, 'linkedin-activity'>): string {
  return formatNumber(PRICES[kind].credits);
}

/** A quoted price as the cards show it: the kind of charge says how it is charged. */
export const quotedPrice = (action: ChargeAction, price: QuotedPrice): Price => ({
  ...price,
  kind: action.kind,
});

/** The price of a stored confirmation as its cards show it (a price whose action cannot be read is shown bare). */
export function cardPrice(confirmation: Pick<Confirmation, 'action' | 'price'>): Price {
  const action = ChargeActionSchema.safeParse(confirmation.action);
  return action.success ? quotedPrice(action.data, confirmation.price) : confirmation.price;
}

const basisOf = (price: Price) => (price.kind ? CHARGE_BASIS[price.kind] : undefined);

const isUnpublished = (price: Price) => basisOf(price) === 'unpublished';

const UNPUBLISHED = 'The service publishes no price for this';

/** `2,000 credits` or `up to 300 credits`: the amount alone. */
function amountWords(price: Price): string {
  return `${price.upTo ? 'up to ' : ''}${formatCredits(price.credits)}`;
}

/** What a contact unlock is charged per contact, and what it looks for. */
const CONTACT: Partial<Record<ChargeAction['kind'], { unit: number; what: string }>> = {
  'email-unlock': { unit: PRICES['email-unlock'].credits, what: 'email address' },
  'phone-unlock': { unit: PRICES['phone-unlock'].credits, what: 'phone number' },
};

/** What is charged when nothing (or less than asked for) is found, by the rule of the kind of charge. */
function chargeRuleWords(price: Price): string | undefined {
  switch (basisOf(price)) {
    case 'if-found':
      return 'charged only if something matches';
    case 'per-contact': {
      const contact = price.kind ? CONTACT[price.kind] : undefined;
      if (!contact) return undefined;
      return `${formatCredits(contact.unit)} per contact, charged even if no ${contact.what} is found; contacts already unlocked are free`;
    }
    case 'missing-layers':
      return price.upTo ? 'only the layers not yet unlocked are charged' : undefined;
    default:
      return undefined;
  }
}

/**
 * The price before confirming: `2,000 credits`; `up to 50 credits (charged only if something
 * matches)`; `up to 300 credits (150 credits per contact, charged even if no phone number is found;
 * …)`; or that the service publishes none.
 */
export function priceWords(price: Price): string {
  if (isUnpublished(price)) return `${UNPUBLISHED}: the card will show what was spent`;
  const rule = chargeRuleWords(price);
  return rule ? `${amountWords(price)} (${rule})` : amountWords(price);
}

/** The Confirm dialog's button: `Spend 2,000 credits`, `Spend up to 50 credits`, or `Spend credits`. */
export function spendWords(price: Price): string {
  return isUnpublished(price) ? 'Spend credits' : `Spend ${amountWords(price)}`;
}

/** The Confirm dialog's text, price first so that a cut gives way on the description. */
export function confirmDialogWords(price: Price, description: string): string {
  return isUnpublished(price)
    ? `${UNPUBLISHED}: it may spend credits. ${description}`
    : `This spends ${priceWords(price)}: ${description}`;
}

/** The price in the small print while charging: `Price: up to 300 credits`. */
export function chargingPriceWords(price: Price): string {
  return isUnpublished(price) ? UNPUBLISHED : `Price: ${amountWords(price)}`;
}

/** A card closed before any charge (cancelled, expired): nothing was charged, and what it would have cost. */
export function unchargedPriceWords(price: Price): string {
  return `Nothing was charged · ${isUnpublished(price) ? UNPUBLISHED : `Price was ${amountWords(price)}`}`;
}

/** A balance (or today's spend) read from the service: `12,500 credits`, or that it cannot be read right now. */
export function creditsWords(credits: number | null): string {
  return credits === null ? 'not available right now' : formatCredits(credits);
}

/**
 * The balance after a charge as its own clause: `Balance now 10,500 credits`, or `Balance not
 * available right now` when it could not be read; undefined when there is none to tell.
 */
export function balanceAfterWords(balance: number | null | undefined): string | undefined {
  if (balance === undefined) return undefined;
  return balance === null ? 'Balance not available right now' : `Balance now ${formatCredits(balance)}`;
}

/**
 * What a charge the service never confirmed may have spent, at most its reserved `price`: `up to 2,000
 * credits may have been spent`, or that the service publishes no price for it.
 */
export function mayHaveSpentWords(price: Price): string {
  return isUnpublished(price)
    ? 'credits may have been spent (the service publishes no price for this)'
    : `up to ${formatCredits(price.credits)} may have been spent`;
}

/** What a settled charge spent: `Spent 50 credits`, or `Nothing was charged`. */
export function spentWords(credits: number): string {
  return credits === 0 ? 'Nothing was charged' : `Spent ${formatCredits(credits)}`;
}

/**
 * The spend after a charge, then the balance after, as one line of small print. A charge with no
 * published price is measured by the balance's drop: when the balance could not be read, the spend is
 * not known either, and the card does not claim "nothing".
 */
export function settledWords(price: Price, credits: number, balanceAfter: number | null | undefined): string {
  if (isUnpublished(price) && balanceAfter === null)
    return 'Credits spent not known: the balance could not be read right now';
  const balance = balanceAfterWords(balanceAfter);
  return balance ? `${spentWords(credits)} · ${balance}` : spentWords(credits);
}

/**
 * A paid search's other pages, on its card and under its results: each is a search of its own,
 * confirmed and charged again; `credits` is the page's quoted price.
 */
export const otherPagesWords = (credits: number): string =>
  `Any other page is a new search: confirmed first, and charged up to ${formatCredits(credits)} again ` +
  '(nothing if that page is empty).';

const UNLOCKED: Record<'email' | 'phone', { one: string; many: string; unlock: string }> = {
  email: { one: 'email', many: 'emails', unlock: 'email unlock' },
  phone: { one: 'phone number', many: 'phone numbers', unlock: 'phone unlock' },
};

/**
 * A contact unlock's card line once its task is over: `1 phone number found, 1 charged but not found
 * (1 skipped, not charged).` The service charges per contact it tried, so every contact it found
 * nothing for is said to be charged, as the price before confirming said it would be.
 */
export function unlockOutcomeWords(kind: 'email' | 'phone', outcome: UnlockOutcome): string {
  const what = UNLOCKED[kind];
  const skipped = outcome.skipped > 0 ? ` (${outcome.skipped} skipped, not charged)` : '';
  if (outcome.status === 'timed-out')
    return `The ${what.unlock} did not finish within ${GIVE_UP_AFTER_HOURS} hours${skipped}. See the thread.`;
  const found =
    outcome.unlocked === 0
      ? `No ${what.one} found`
      : `${plural(outcome.unlocked, what.one, what.many)} found`;
  const missing = outcome.notUnlocked > 0 ? `, ${outcome.notUnlocked} charged but not found` : '';
  return `${found}${missing}${skipped}. Results are in the thread.`;
}

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const withCents = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Money in hundredths, as the plan's costs and the outcomes show it: `12,000 EUR`, `12,000.50 EUR`; without a code, the number alone. */
export function moneyWords(hundredths: number, code: string | undefined): string {
  const number = (hundredths % 100 === 0 ? grouped : withCents).format(hundredths / 100);
  return code ? `${number} ${code}` : number;
}
