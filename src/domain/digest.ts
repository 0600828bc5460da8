import type { EisClient, EventItem } from '../eis/index.ts';
import { type Logger, withCorrelationId } from '../platform/log.ts';
import type {
  DigestFilters,
  DigestSubscription,
  DigestSubscriptionRepository,
  LedgerEntry,
  LedgerRepository,
  Metrics,
  UnlockKind,
  UnlockTaskRepository,
} from './ports/index.ts';
import { ValidationError } from '../platform/errors.ts';
import { isValidTimeZone, LOCAL_TIME_PATTERN, localDate, nextOccurrence } from '../time/local-time.ts';
import { type DigestEventSources, type DigestFit, upcomingEvents } from './digest-events.ts';
import { PRICES } from './prices.ts';
import { createChannelPacer, isChannelGone, SlackDeliveryError, type Sleep } from './slack-delivery.ts';
import { type UnlockOutcome, UnlockOutcomeSchema } from './unlock-result.ts';

/** A digest more than this late (the schedule was down) is skipped: a morning digest at night is noise. */
export const MAX_LATENESS_MS = 3 * 60 * 60_000;
/** A subscription is started only with this much of the Lambda's time left. */
export const DIGEST_TIME_RESERVE_MS = 30_000;
const DAY_MS = 24 * 60 * 60_000;
/** How far back the ledger is read for unlocked events: as long as it keeps entries. */
export const LEDGER_LOOKBACK_MS = 400 * DAY_MS;
/** Ledger actions that give the workspace an event (each needs or includes the base unlock). */
export const EVENT_UNLOCK_ACTIONS = ['event-unlock', 'visitors-unlock', 'full-access-unlock'] as const;
export type EventUnlockAction = (typeof EVENT_UNLOCK_ACTIONS)[number];

export interface DigestEvent {
  event: EventItem;
  fit: DigestFit | null;
  /** This workspace already unlocked it (per its ledger): no Unlock button. */
  unlocked: boolean;
}

/** An event, visitors or full-access unlock charged in this channel. */
export interface DigestEventUnlock {
  action: EventUnlockAction;
  eventId: string;
  /** Null when the event is not among the digest's events. */
  eventName: string | null;
  credits: number;
  /** Who asked for it, and who confirmed it (the same person, or an approver). */
  requestedBy: string;
  confirmedBy: string;
  at: string;
}

export interface DigestUnlock {
  taskId: string;
  kind: UnlockKind;
  channelId: string;
  threadTs: string;
  requestedBy: string;
  people: number;
  finishedAt: string;
  /** Null when the stored outcome is not one the poller wrote. */
  outcome: UnlockOutcome | null;
}

/** Everything one digest message says, before it is rendered. */
export interface Digest {
  channelId: string;
  /** The subscriber's local date the digest is for (`YYYY-MM-DD`). */
  localDate: string;
  timeZone: string;
  /** Set when the channel has a digest: when it comes every day, and the next one (ISO). */
  schedule?: { time: string; timeZone: string; next: string };
  filters: DigestFilters;
  /** Null when the service could not say. */
  balance: number | null;
  spentLast24h: number;
  /** The balance would not cover one event unlock. */
  lowBalance: boolean;
  eventUnlockCredits: number;
  /** Null when the service could not list events. */
  events: DigestEvent[] | null;
  /** Matching events not shown. */
  moreEvents: number;
  unlocks: DigestUnlock[];
  eventUnlocks: DigestEventUnlock[];
}

export interface DigestSources extends DigestEventSources {
  /** Read-only calls: a digest cannot reach anything that charges. */
  eis: DigestEventSources['eis'] & { credits: Pick<EisClient['credits'], 'balance'> };
  ledger: Pick<LedgerRepository, 'listSince'>;
  unlockTasks: Pick<UnlockTaskRepository, 'listFinishedSince'>;
}

export interface DigestTarget {
  teamId: string;
  channelId: string;
  timeZone: string;
  filters: DigestFilters;
  /** The channel's active subscription, if any. */
  schedule?: { time: string; timeZone: string };
}

/**
 * When a daily digest at `time` (HH:MM) in `timeZone` next runs after `after`: the store keeps what
 * this says. A time or zone that is not one is refused here, before anything is stored.
 */
export function nextDigestRun({ time, timeZone }: { time: string; timeZone: string }, after: Date): Date {
  if (!LOCAL_TIME_PATTERN.test(time)) {
    throw new ValidationError(`Not a time of day (HH:MM): ${JSON.stringify(time)}`);
  }
  if (!isValidTimeZone(timeZone)) {
    throw new ValidationError(`Unknown time zone: ${JSON.stringify(timeZone)}`);
  }
  return nextOccurrence(time, timeZone, after);
}

/** An entry that stands for credits actually spent: settled as charged, or written whole. */
const isCharged = (entry: LedgerEntry) => entry.status === undefined || entry.status === 'charged';
const isEventUnlock = (
  entry: LedgerEntry,
): entry is LedgerEntry & { action: EventUnlockAction; eventId: string } =>
  entry.eventId !== undefined && (EVENT_UNLOCK_ACTIONS as readonly string[]).includes(entry.action);

/**
 * Gathers one digest: the balance and the last 24 h of spending, the best upcoming events for the
 * filters (marking those this workspace unlocked), and this channel's unlocks that finished in the
 * last 24 h. A part the service cannot give is shown as unavailable rather than holding back the rest.
 */
export async function composeDigest(
  target: DigestTarget,
  sources: DigestSources,
  at = sources.now(),
): Promise<Digest> {
  const now = sources.now();
  const since = new Date(now.getTime() - DAY_MS);
  const today = localDate(at, target.timeZone);
  const [balance, ledger, finished, listed] = await Promise.all([
    sources.eis.credits
      .balance()
      .then((b) => b.totalBalance)
      .catch((error: unknown) => {
        sources.logger.warn('credit balance unavailable for the digest', { error });
        return null;
      }),
    // The event list says nothing of access, so the ledger is read as far back as it keeps entries
    // (one query per digest); the last 24 h are taken from it too.
    sources.ledger.listSince(target.teamId, new Date(now.getTime() - LEDGER_LOOKBACK_MS)),
    sources.unlockTasks.listFinishedSince(target.teamId, since),
    upcomingEvents(target.filters, today, sources).catch((error: unknown) => {
      sources.logger.warn('events unavailable for the digest', { error });
      return null;
    }),
  ]);
  const unlocks = finished
    .filter((task) => task.channelId === target.channelId)
    .map((task) => {
      const outcome = UnlockOutcomeSchema.safeParse(task.outcome);
      return {
        taskId: task.taskId,
        kind: task.kind,
        channelId: task.channelId,
        threadTs: task.threadTs,
        requestedBy: task.requestedBy,
        people: task.personnelIds.length,
        finishedAt: task.finishedAt,
        outcome: outcome.success ? outcome.data : null,
      };
    });
  const unlockedEvents = new Set(
    ledger.filter((entry) => isEventUnlock(entry) && isCharged(entry)).map((entry) => entry.eventId),
  );
  const events = listed
    ? listed.events.map((shown) => ({ ...shown, unlocked: unlockedEvents.has(shown.event.eventId) }))
    : null;
  const lastDay = ledger.filter((entry) => Date.parse(entry.at) >= since.getTime());
  const names = new Map((events ?? []).map(({ event }) => [event.eventId, event.name?.trim() || null]));
  const eventUnlocks = lastDay
    .filter(isEventUnlock)
    .filter((entry) => isCharged(entry) && entry.channelId === target.channelId)
    .map(({ action, eventId, credits, requestedBy, confirmedBy, at }) => {
      const eventName = names.get(eventId) ?? null;
      return { action, eventId, eventName, credits, requestedBy, confirmedBy, at };
    });
  return {
    channelId: target.channelId,
    localDate: today,
    timeZone: target.timeZone,
    ...(target.schedule
      ? {
          schedule: {
            ...target.schedule,
            next: nextOccurrence(target.schedule.time, target.schedule.timeZone, at).toISOString(),
          },
        }
      : {}),
    filters: target.filters,
    balance,
    spentLast24h: lastDay.reduce((sum, entry) => sum + entry.credits, 0),
    // A balance that would not cover an event unlock gets a warning line.
    lowBalance: balance !== null && balance < PRICES['event-unlock'].credits,
    eventUnlockCredits: PRICES['event-unlock'].credits,
    events,
    moreEvents: listed?.moreEvents ?? 0,
    unlocks,
    eventUnlocks,
  };
}

export interface DigestRunDeps extends DigestSources {
  subscriptions: Pick<DigestSubscriptionRepository, 'due' | 'advance' | 'disable' | 'claimDay'>;
  /** Posts the digest as a channel message; failures are `SlackDeliveryError`s. */
  post(channelId: string, digest: Digest): Promise<void>;
  /** The Lambda's remaining time; unlimited when absent. */
  remainingMs?: () => number;
  sleep?: Sleep;
  metrics?: Metrics;
}

export interface DigestRunSummary {
  due: number;
  posted: number;
  /** Already posted today (a second fire, a retried run). */
  alreadyPosted: number;
  late: number;
  disabled: number;
  failed: number;
  outOfTime: boolean;
}

/** A run that posted nothing. */
export function emptyDigestRun(): DigestRunSummary {
  return { due: 0, posted: 0, alreadyPosted: 0, late: 0, disabled: 0, failed: 0, outOfTime: false };
}

/**
 * One run of the digest job (every 5 minutes): every active subscription whose local time has come. Each channel
 * gets at most one digest per local day (a conditional claim on channel + date, taken just before
 * posting); a channel that is gone or removed the bot has its subscription disabled; one failing
 * subscription never stops the others.
 */
export async function runDueDigests(deps: DigestRunDeps): Promise<DigestRunSummary> {
  const remainingMs = deps.remainingMs ?? (() => Number.POSITIVE_INFINITY);
  const paced = createChannelPacer({
    budgetMs: () => remainingMs() - 5_000,
    ...(deps.sleep ? { sleep: deps.sleep } : {}),
  });
  const now = deps.now();
  const summary = emptyDigestRun();
  // Page by page while time is left: a run reached only the first 200 of 500 channels due at once.
  // The index is eventually consistent: a subscription seen once in this run is not taken again.
  const seen = new Set<string>();
  while (!summary.outOfTime) {
    const due = await deps.subscriptions.due({ now, limit: DIGEST_PAGE_SIZE });
    const fresh = due.filter((s) => !seen.has(`${s.teamId}/${s.channelId}`));
    if (fresh.length === 0) break;
    for (const s of fresh) seen.add(`${s.teamId}/${s.channelId}`);
    summary.due += fresh.length;
    await runPage(fresh, deps, summary, paced, remainingMs);
  }
  deps.logger.info('digests run', { ...summary });
  // Skipped: too late, or the channel is gone (a second fire is not a skip: the digest was posted).
  deps.metrics?.add('DigestsPosted', summary.posted);
  deps.metrics?.add('DigestsSkipped', summary.late + summary.disabled);
  return summary;
}

const DIGEST_PAGE_SIZE = 200;

async function runPage(
  due: DigestSubscription[],
  deps: DigestRunDeps,
  summary: DigestRunSummary,
  paced: ReturnType<typeof createChannelPacer>,
  remainingMs: () => number,
): Promise<void> {
  for (const subscription of due) {
    if (remainingMs() < DIGEST_TIME_RESERVE_MS) {
      summary.outOfTime = true;
      return;
    }
    const log = deps.logger.child({ team: subscription.teamId, channel: subscription.channelId });
    // A digest's lines (the service's included) share one id: its channel and the run it is due for.
    const id = `digest:${subscription.teamId}:${subscription.channelId}:${subscription.nextRunAt}`;
    await withCorrelationId(id, async () => {
      try {
        await runOne(subscription, deps, summary, log, paced);
      } catch (error) {
        summary.failed += 1;
        log.error('digest failed', { error });
      }
    });
  }
}

async function runOne(
  subscription: DigestSubscription,
  deps: DigestRunDeps,
  summary: DigestRunSummary,
  log: Logger,
  paced: ReturnType<typeof createChannelPacer>,
): Promise<void> {
  const { teamId, channelId, timeZone } = subscription;
  const now = deps.now();
  const scheduledAt = new Date(subscription.nextRunAt);
  const advance = () =>
    deps.subscriptions.advance(subscription, { ranAt: now, nextRunAt: nextDigestRun(subscription, now) });

  if (now.getTime() - scheduledAt.getTime() > MAX_LATENESS_MS) {
    summary.late += 1;
    log.warn('digest skipped: too late', { scheduledAt: subscription.nextRunAt });
    await advance();
    return;
  }
  const digest = await composeDigest(
    {
      teamId,
      channelId,
      timeZone,
      filters: subscription.filters,
      schedule: { time: subscription.time, timeZone },
    },
    deps,
    scheduledAt,
  );
  // The day is the one the digest was scheduled for, so a retry after midnight still finds the claim.
  if (!(await deps.subscriptions.claimDay(teamId, channelId, digest.localDate))) {
    summary.alreadyPosted += 1;
    await advance();
    return;
  }
  try {
    await paced(channelId, () => deps.post(channelId, digest));
    summary.posted += 1;
  } catch (error) {
    if (isChannelGone(error)) {
      await deps.subscriptions.disable(teamId, channelId, error.slackError);
      summary.disabled += 1;
      log.warn('digest subscription disabled: the bot cannot post in the channel', {
        slackError: error.slackError,
      });
      return;
    }
    summary.failed += 1;
    const slackError = error instanceof SlackDeliveryError ? error.slackError : undefined;
    // The day is claimed: today's digest is lost rather than risking two. Tomorrow's comes as usual.
    log.error('digest could not be posted', { error, slackError });
  }
  await advance();
}
