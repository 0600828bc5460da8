import type { KnownBlock } from '@slack/types';
import type { ChargeAction } from '../../domain/charging.ts';
import type { LedgerEntry as StoredLedgerEntry } from '../../domain/ports/index.ts';
import type { Mrkdwn } from './mrkdwn.ts';

/**
 * What the views read, as structural types with the service's own field names. Parsed service objects
 * (which carry more members) can be passed in directly; only the members a view reads are listed.
 */

/** Every builder's output: `text` is the fallback for notifications and screen readers (mrkdwn). */
export interface SlackMessage {
  text: Mrkdwn;
  blocks: KnownBlock[];
}

/** Event summary (EventItem); `matchedExhibitors` appears on company → events search results. */
export interface EventSummary {
  eventId: string;
  name?: string | null;
  url?: string | null;
  dateStart?: string | null;
  dateEnd?: string | null;
  venue?: string | null;
  city?: string | null;
  region?: string | null;
  country?: string | null;
  exhibitorCount?: number | null;
  hasVisitors?: boolean;
  matchedExhibitors?: readonly { companyName: string }[];
}

/** Event fit score result. */
export interface FitScoreResult {
  event: EventSummary;
  score: number;
  /** recommended, consider or not_recommended; the score bands decide when absent or unknown. */
  recommendation?: string | null;
  breakdown?: {
    profile_match?: number | null;
    matched_exhibitor_density?: number | null;
    event_scale?: number | null;
  } | null;
}

/** Exhibitor summary (event exhibitors, company-name search, company-context search). */
export interface ExhibitorSummary {
  id: string;
  companyName: string;
  industry?: string | null;
  country?: string | null;
  employeeCount?: number | null;
  website?: string | null;
  domain?: string | null;
  isRecommended?: boolean;
}

/** Recommended exhibitor item (profile matching). */
export interface RecommendedExhibitor {
  id: string;
  companyName: string;
  industry?: string | null;
  country?: string | null;
  employeeCount?: number | null;
  companySize?: string | null;
  website?: string | null;
  categories?: readonly string[];
  reason?: string | null;
  /** `processing` while the service is still matching (no reason yet); not typed in the spec. */
  matchStatus?: unknown;
}

/** Personnel item. `sourceType` is an array since 0.24.0 (a nullable string before). */
export interface PersonnelItem {
  id: string;
  fullName: string;
  title?: string | null;
  companyName?: string | null;
  sourceType?: readonly string[] | string | null;
  email?: string | null;
  /** locked, unlocking, unlocked or failed. */
  contactUnlockStatus?: string;
}

/** Semantics of event-scoped exhibitor and personnel lists: the preview truth. */
export interface Semantics {
  accessMode?: string;
  previewLimit?: number | null;
  counts?: { actualTotal?: number; visibleTotal?: number; remainingLockedCount?: number };
  pageState?: { requestedPage?: number; accessible?: boolean; maxAccessiblePage?: number };
  unlock?: { requiredForMoreResults?: boolean; actionType?: string | null; credits?: number | null };
  guidance?: { code?: string; message?: string };
}

/** The pagination envelope, with the semantics that event-scoped lists add. */
export interface ListPage<T> {
  items: readonly T[];
  total?: number;
  page: number;
  totalPages?: number;
  hasMore: boolean;
  semantics?: Semantics;
}

/** Credit balance. Times are Unix timestamps (the service's examples use milliseconds). */
export interface CreditBalance {
  totalBalance: number;
  totalAmount?: number;
  subscriptionBalance?: number;
  subscriptionAmount?: number;
  addonBalance?: number;
  addonAmount?: number;
  addonExpireAt?: number | null;
  giftBalance?: number;
  giftAmount?: number;
  resetAt?: number | null;
}

/** One charge in this workspace's ledger. */
/** What a ledger line shows: the stored entry's shape, the one source of it. */
export type LedgerEntry = Pick<
  StoredLedgerEntry,
  | 'at'
  | 'requestedBy'
  | 'confirmedBy'
  | 'action'
  | 'credits'
  | 'eventId'
  | 'personnelIds'
  | 'status'
  | 'outcomeUnknown'
  | 'preApproval'
>;

/** A price to confirm, worded by money-words.ts: `upTo` when the service may charge less. */
export interface Price {
  credits: number;
  upTo: boolean;
  /**
   * The kind of charge, which says how it is charged (a search only on a match, a contact unlock even
   * for a contact not found, LinkedIn activity at no published price); absent when it cannot be read.
   */
  kind?: ChargeAction['kind'];
}

/** The Home tab as `views.publish` takes it. */
export interface HomeView {
  type: 'home';
  blocks: KnownBlock[];
}
