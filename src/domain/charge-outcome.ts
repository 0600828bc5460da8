import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import type {
  ContactUnlockSubmission,
  EventPage,
  EventSearchPage,
  EventUnlockResult,
  ExhibitorPage,
  FullAccessUnlockResult,
} from '../eis/index.ts';
import { UnlockKindSchema } from './ports/record-types.ts';
import { PRICES } from './prices.ts';

/*
 * What a charge did, read from the service's answer: the credits, the balance after, what to follow
 * or post next, and the facts its card states (Slack words them: src/slack/kit/charge-words.ts).
 */

/** How many people of a contact unlock the service skipped, by reason, in the order first seen. */
const SkipCountsSchema = z.array(z.object({ reason: z.string(), count: z.number().int().positive() }));

/**
 * What came of a succeeded charge, as facts: stored on its confirmation's outcome (`facts`) and worded
 * on its card. A new kind or field is added alongside, never in place of one stored records hold.
 */
export const ChargeFactsSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('event-unlocked'),
    layer: z.enum(['event', 'visitors', 'full-access']),
    eventId: z.string(),
    /** Null when the service gave no name. */
    eventName: z.string().nullable(),
    alreadyUnlocked: z.boolean(),
  }),
  /** A contact unlock the service accepted: `count` contacts are being looked for. */
  z.object({
    kind: z.literal('contacts-unlocking'),
    contact: UnlockKindSchema,
    count: z.number().int().nonnegative(),
    skipped: SkipCountsSchema,
  }),
  /** A contact unlock the service gave no task for. */
  z.object({ kind: z.literal('nothing-to-unlock'), skipped: SkipCountsSchema }),
  z.object({
    kind: z.literal('search'),
    search: z.enum(['people-by-name', 'exhibitor-events', 'exhibitor-search']),
    /** The name searched for. */
    query: z.string(),
    found: z.boolean(),
    /** The service's total of matches. */
    total: z.number().int().nonnegative(),
  }),
  z.object({
    kind: z.literal('linkedin-analysis'),
    started: z.number().int().nonnegative(),
    /** Each person the service refused: its error code, null when it gave none. */
    refused: z.array(z.string().nullable()),
    /** The balance's drop, null when the balance could not be read before and after. */
    measuredSpend: z.number().nonnegative().nullable(),
  }),
]);
export type ChargeFacts = z.infer<typeof ChargeFactsSchema>;

/** What a finished charge did, ready to be shown and recorded. */
export interface ChargeOutcome {
  creditsSpent: number;
  /** The service's trace id of the charging call, for the ledger and support questions. */
  traceId?: string;
  balanceAfter: number | null;
  /** What the card says came of it. */
  facts: ChargeFacts;
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

/** An event, visitors or full-access unlock. */
export function eventUnlocked(
  layer: 'event' | 'visitors' | 'full-access',
  result: EventUnlockResult | FullAccessUnlockResult,
  eventId: string,
): ChargeOutcome {
  return {
    creditsSpent: result.creditsSpent,
    balanceAfter: balanceOf(result.balanceAfter),
    facts: {
      kind: 'event-unlocked',
      layer,
      eventId,
      eventName: result.event.name ?? null,
      alreadyUnlocked: result.alreadyUnlocked,
    },
  };
}

/** Why the service skipped a person, kept on the task (the thread reply shows it). */
const SKIP_REASONS: Record<string, string> = {
  already_unlocked_personnel_ids: 'already unlocked',
  unlocking_personnel_ids: 'already unlocking',
  unlinked_personnel_ids: 'not linked to a contact',
  invalid_personnel_ids: 'invalid id',
  missing_personnel_ids: 'not found',
};

function skipCounts(skipped: { reason: string }[]): z.infer<typeof SkipCountsSchema> {
  const counts = new Map<string, number>();
  for (const { reason } of skipped) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts].map(([reason, count]) => ({ reason, count }));
}

/** An email or phone unlock submission: a task for the poller, or nothing to unlock. */
export function contactsUnlocking(
  kind: 'email' | 'phone',
  submission: ContactUnlockSubmission,
  personnelIds: readonly string[],
): ChargeOutcome {
  const skipped = Object.entries(SKIP_REASONS).flatMap(([field, reason]) => {
    const ids = submission.skipped_detail?.[field];
    return Array.isArray(ids) ? ids.map((personnelId) => ({ personnelId: String(personnelId), reason })) : [];
  });
  const asked = personnelIds.length - skipped.length;
  if (!submission.taskId) {
    return {
      creditsSpent: submission.creditsSpent ?? 0,
      balanceAfter: null,
      facts: { kind: 'nothing-to-unlock', skipped: skipCounts(skipped) },
    };
  }
  // When the service does not report the amount, the list price of the contacts it accepted is recorded.
  const unitPrice = PRICES[kind === 'email' ? 'email-unlock' : 'phone-unlock'].credits;
  return {
    creditsSpent: submission.creditsSpent ?? asked * unitPrice,
    balanceAfter: null,
    facts: { kind: 'contacts-unlocking', contact: kind, count: asked, skipped: skipCounts(skipped) },
    task: { taskId: submission.taskId, kind, skipped },
  };
}

/** A LinkedIn analysis: who is being analysed, who was refused, and the balance's drop as the amount. */
export function linkedinOutcome(answer: {
  items: { personnel_id: string; success: boolean; error?: string | null | undefined }[];
  before: number | null;
  after: number | null;
}): ChargeOutcome {
  const { items, before, after } = answer;
  // Other spending at the same moment would be counted too, so the card says where the figure comes from.
  const measuredSpend = before !== null && after !== null ? Math.max(0, before - after) : null;
  const started = items.filter((item) => item.success).map((item) => item.personnel_id);
  const refused = items.filter((item) => !item.success).map((item) => item.error ?? null);
  return {
    creditsSpent: measuredSpend ?? 0,
    balanceAfter: after,
    facts: { kind: 'linkedin-analysis', started: started.length, refused, measuredSpend },
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

/** A paid search's page: the spec's rule is its price for a non-empty result, nothing for an empty one. */
export function searchOutcome(
  search: 'people-by-name' | 'exhibitor-events' | 'exhibitor-search',
  query: string,
  { total, items }: { total: number; items: unknown[] },
  results: NonNullable<ChargeOutcome['results']>,
): ChargeOutcome {
  const found = total > 0 || items.length > 0;
  return {
    creditsSpent: found ? PRICES[search].credits : 0,
    balanceAfter: null,
    facts: { kind: 'search', search, query, found, total },
    results,
  };
}
