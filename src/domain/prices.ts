// The vendor's price list lives below the domain and the service client, which both read it.
export { type ChargeBasis, type ListedPrice, PRICES, type PricedKind } from '../platform/prices.ts';

/**
 * The page size the bot asks of the three paid searches. The price is per non-empty page, not per row,
 * so a page holds as many rows as one Slack message shows in full (50 blocks: title, rows, buttons);
 * the service allows up to 100.
 */
export const PAID_SEARCH_PAGE_SIZE = 40;
