import type { WebClient } from '@slack/web-api';
import { confirmRefusal, maySee, whoMayConfirm } from '../../../domain/approval.ts';
import { storedOutcome } from '../../../domain/confirmations.ts';
import type { Store } from '../../../store/index.ts';
import type { Confirmation, LedgerEntry } from '../../../domain/ports/index.ts';
import type { Job } from '../../kit/jobs.ts';
import { approvalRefusalWords } from '../../kit/approval-words.ts';
import { describeStoredAction } from '../../kit/charge-words.ts';
import { cardPrice, settledWords } from '../../kit/money-words.ts';
import { mentionChannel, mentionUser } from '../../views/format.ts';
import { failureWords } from '../../kit/recorded-card.ts';
import { type HomeInput, homeView } from './views.ts';
import { NEEDS_ATTENTION_DAYS, type UnknownCharge } from './needs-attention-views.ts';
import { UNKNOWN_OUTCOME } from '../../../domain/unknown-outcomes.ts';
import { isAdminOfTeam } from '../../kit/workspace-roles.ts';
import type { WorkerDeps } from '../../kit/worker-deps.ts';
import type { HomeSources } from '../../kit/outs.ts';
import { digestRefusal, mayManageDigest } from '../../kit/digest-access.ts';
import { HOME_WATCH_CHANNELS, type HomeWatches, homeWatchOf } from '../watch/index.ts';
import { HOME_PLAN_CHANNELS, type HomePlans, withPlanSpend } from '../plan/index.ts';
import { utcDate } from '../../../time/local-time.ts';
import { escapeMrkdwn, mk, type Mrkdwn, ownJobText } from '../../views/mrkdwn.ts';

/** The Home's sources over the store and a Slack client (`views.publish`). */
export function homeSourcesOf(
  store: Store,
  web: WebClient,
  options: { settings?: boolean } = {},
): HomeSources {
  return {
    ...(options.settings ? { settings: true } : {}),
    isAdmin: (teamId, userId, logger) => isAdminOfTeam(store, web, { teamId, userId }, logger),
    confirmations: store.confirmations,
    unlockTasks: store.unlockTasks,
    digests: store.digestSubscriptions,
    watches: store.watchLists,
    plans: store.plans,
    publish: async (userId, view) => {
      await web.views.publish({ user_id: userId, view });
    },
  };
}

type HomeJob = Extract<Job, { kind: 'home' }>;

/** A settled charge in one line, for the Home of the people it concerns. */
export function settledNotice(confirmation: Confirmation): Mrkdwn {
  const what = escapeMrkdwn(describeStoredAction(confirmation.action));
  const outcome = storedOutcome(confirmation);
  const where = mk` (card in ${mentionChannel(confirmation.channelId)})`;
  switch (confirmation.status) {
    case 'succeeded': {
      const settled = settledWords(
        cardPrice(confirmation),
        outcome.creditsSpent ?? confirmation.price.credits,
        outcome.balanceAfter,
      );
      const by = confirmation.confirmedBy ? mk` Confirmed by ${mentionUser(confirmation.confirmedBy)}.` : '';
      const pending = outcome.resultsPending ? ' Results will arrive in the card’s thread.' : '';
      return mk`Settled: ${what} — ${escapeMrkdwn(settled)}${where}.${by}${pending}`;
    }
    case 'failed':
      if (outcome.outcomeUnknown)
        return mk`Outcome unknown: ${what} — ${escapeMrkdwn(failureWords(confirmation) ?? 'the service did not confirm it')}${where}`;
      return mk`Not done: ${what} — ${escapeMrkdwn(failureWords(confirmation) ?? 'it did not work')}${where}`;
    default:
      return mk`${what}: ${confirmation.status}${where}.`;
  }
}

/**
 * The workspace's charges of the last days whose outcome is unknown, for an admin (none for anyone
 * else). Slack is asked who is an admin only when there is something to show.
 */
async function unknownChargesFor(
  { store, logger }: WorkerDeps,
  sources: HomeSources,
  teamId: string,
  userId: string,
  at: Date,
): Promise<UnknownCharge[]> {
  try {
    const since = new Date(at.getTime() - NEEDS_ATTENTION_DAYS * 86_400_000);
    const entries = await store.ledger.listSince(teamId, since);
    // One the reconciler still asks the service about is not listed yet: its card says so.
    const asked = (entry: LedgerEntry) =>
      entry.askUntil !== undefined && Date.parse(entry.askUntil) > at.getTime();
    const unknown = entries.filter(
      (entry) => (entry.status === 'unknown' || entry.outcomeUnknown) && !asked(entry),
    );
    if (unknown.length === 0 || !(await sources.isAdmin?.(teamId, userId, logger))) return [];
    const aDayAgo = at.getTime() - UNKNOWN_OUTCOME.askForSeconds * 1000;
    return unknown.map((entry) => ({ ...entry, stillUnknownAfterADay: Date.parse(entry.at) <= aDayAgo }));
  } catch (error) {
    logger.warn('could not read the charges that need attention', { error });
    return [];
  }
}

const valueOf = <T>(result: PromiseSettledResult<T>): T | null =>
  result.status === 'fulfilled' ? result.value : null;

/** The channels `userId` is in, asked of Slack once per Home and only when something needs it. */
function memberChannelsFor(deps: WorkerDeps, userId: string) {
  let asked: Promise<ReadonlySet<string>> | undefined;
  return () => {
    const access = deps.digestAccess;
    if (!access) throw new Error('channel membership is not wired: per-channel sections cannot be shown');
    asked ??= access.memberChannels(userId);
    return asked;
  };
}

type MemberChannels = ReturnType<typeof memberChannelsFor>;

/** The workspace's digests of the channels `userId` is in: no other channel's filters are shown. */
async function digestsOf(sources: HomeSources, teamId: string, memberChannels: MemberChannels) {
  const digests = await sources.digests.activeForTeam(teamId);
  if (digests.length === 0) return digests;
  const channels = await memberChannels();
  return digests.filter((digest) => channels.has(digest.channelId));
}

/** The watches of the channels `userId` is in (no other channel's accounts are shown), a few read whole. */
async function watchesOf(
  watches: NonNullable<HomeSources['watches']>,
  teamId: string,
  memberChannels: MemberChannels,
  today: string,
): Promise<HomeWatches> {
  const on = await watches.onForTeam(teamId);
  if (on.length === 0) return { channels: [], more: 0 };
  const channels = await memberChannels();
  const visible = on
    .map((watch) => watch.channelId)
    .filter((channelId) => channels.has(channelId))
    .sort();
  const read = await Promise.all(
    visible
      .slice(0, HOME_WATCH_CHANNELS)
      .map(async (channelId) => homeWatchOf(channelId, await watches.allAccounts(teamId, channelId), today)),
  );
  const watched = read.filter((watch) => watch.count > 0);
  return { channels: watched, more: Math.max(0, visible.length - HOME_WATCH_CHANNELS) };
}

/** The plans of the channels `userId` is in (no other channel's plan is shown). */
async function plansOf(
  plans: NonNullable<HomeSources['plans']>,
  ledger: WorkerDeps['store']['ledger'],
  teamId: string,
  memberChannels: MemberChannels,
  today: string,
): Promise<HomePlans> {
  const all = await plans.forTeam(teamId);
  if (all.length === 0) return { plans: [], more: 0, today };
  const channels = await memberChannels();
  const visible = all.filter((plan) => channels.has(plan.channelId) && plan.shows.length > 0);
  const shown = {
    plans: visible.slice(0, HOME_PLAN_CHANNELS),
    more: Math.max(0, visible.length - HOME_PLAN_CHANNELS),
    today,
  };
  // The ledger unread, the plans show their budgets without the spend rather than no plans at all.
  return withPlanSpend(ledger, teamId, shown).catch(() => shown);
}

/**
 * The pending confirmations the Home's user sees (as requester or approver), each with who may confirm
 * it: the approvers of its own channel. Shown on the viewer's own Home of the workspace; a click is
 * checked again, membership included.
 */
async function pendingFor(
  deps: WorkerDeps,
  pending: readonly Confirmation[] | null | undefined,
  { userId, teamId }: { userId: string; teamId: string },
) {
  if (!pending) return null;
  const actor = { userId, teamId, membership: 'member' } as const;
  // One read of the rules per channel, however many of its confirmations wait.
  const rules = new Map<string, ReturnType<WorkerDeps['policyIn']>>();
  const policyIn = (channelId: string) => {
    const read = rules.get(channelId) ?? deps.policyIn(channelId);
    rules.set(channelId, read);
    return read;
  };
  const shown = await Promise.all(
    pending.map(async (c) => {
      const policy = await policyIn(c.channelId);
      if (!maySee(c, userId, policy)) return [];
      const refusal = confirmRefusal(c, actor, policy);
      return [
        {
          id: c.id,
          description: describeStoredAction(c.action),
          price: cardPrice(c),
          requestedBy: c.requestedBy,
          channelId: c.channelId,
          deadline: c.deadline,
          ...(refusal
            ? { confirmRefusal: approvalRefusalWords(refusal) }
            : { mayConfirm: whoMayConfirm(c.price, c.requestedBy, policy) }),
        },
      ];
    }),
  );
  return shown.flat();
}

async function readHome(
  deps: WorkerDeps,
  sources: HomeSources,
  teamId: string,
  userId: string,
): Promise<HomeInput> {
  const { store, eis, logger, now } = deps;
  const at = now();
  const memberChannels = memberChannelsFor(deps, userId);
  const { watches, plans } = sources;
  const results = await Promise.allSettled([
    eis.credits.balance(),
    store.ledger.listForDay(teamId, utcDate(at)),
    sources.confirmations.pendingForTeam(teamId),
    sources.unlockTasks.unfinishedForTeam(teamId),
    digestsOf(sources, teamId, memberChannels),
    watches ? watchesOf(watches, teamId, memberChannels, utcDate(at)) : Promise.resolve(undefined),
    plans ? plansOf(plans, store.ledger, teamId, memberChannels, utcDate(at)) : Promise.resolve(undefined),
  ] as const);
  const failed = results.filter((result) => result.status === 'rejected');
  for (const { reason } of failed) logger.warn('a Home source could not be read', { error: reason });
  const [balance, ledger, pending, tasks, digests, watched, planned] = results;
  const needsAttention = await unknownChargesFor(deps, sources, teamId, userId, at);
  const entries = valueOf(ledger);
  const { dailyCap } = await deps.policyIn(undefined);
  const pendingShown = await pendingFor(deps, valueOf(pending), { userId, teamId });
  return {
    userId,
    now: at,
    balance: valueOf(balance)?.totalBalance ?? null,
    spentToday: entries
      ? entries.filter((entry) => entry.status !== 'refused').reduce((sum, entry) => sum + entry.credits, 0)
      : null,
    ...(dailyCap !== undefined ? { dailyCap } : {}),
    confirmations: pendingShown,
    tasks:
      valueOf(tasks)
        ?.filter((task) => task.requestedBy === userId)
        .map((task) => ({
          kind: task.kind,
          people: task.personnelIds.length,
          channelId: task.channelId,
          threadTs: task.threadTs,
          createdAt: task.createdAt,
        })) ?? null,
    digests: valueOf(digests),
    ...(watches ? { watches: valueOf(watched) ?? null } : {}),
    ...(plans ? { plans: valueOf(planned) ?? null } : {}),
    charges: entries?.filter((entry) => entry.requestedBy === userId) ?? null,
    ...(sources.settings ? { settingsButton: true } : {}),
    ...(needsAttention.length > 0 ? { needsAttention } : {}),
  };
}

/**
 * The App Home: built from the service (balance) and the store (spend, confirmations, unlocks,
 * digests), each read on its own so one that fails shows "could not be read" and the rest still shows.
 */
export function homeJobs(deps: WorkerDeps) {
  const { logger } = deps;

  /** Builds and publishes `userId`'s Home, with `notice` at its top. */
  async function publishHome(teamId: string, userId: string, notice?: Mrkdwn): Promise<void> {
    const sources = deps.home;
    if (!sources) {
      logger.warn('App Home is not wired into this worker; nothing published');
      return;
    }
    const input = await readHome(deps, sources, teamId, userId);
    await sources.publish(userId, homeView(notice ? { ...input, notice } : input));
  }

  /** The Home of everyone a settled charge concerns (who asked, who confirmed), saying how it ended. */
  async function publishAfterCharge(confirmation: Confirmation): Promise<void> {
    if (!deps.home) return;
    const people = new Set([confirmation.requestedBy, confirmation.confirmedBy ?? confirmation.requestedBy]);
    const notice = settledNotice(confirmation);
    await Promise.all(
      [...people].map((userId) =>
        publishHome(confirmation.teamId, userId, notice).catch((error: unknown) =>
          logger.warn('could not republish a Home after a charge', {
            confirmationId: confirmation.id,
            error,
          }),
        ),
      ),
    );
  }

  /** Turn off on the Home, as `/events digest off` in that channel: for those who may manage it. */
  async function turnOff(digests: HomeSources['digests'], context: HomeJob['context'], channelId: string) {
    const manager = { ...context, channelId };
    const access = { access: deps.digestAccess, policy: await deps.policyIn(channelId), logger };
    if (!(await mayManageDigest(access, manager))) {
      logger.info('digest turn-off refused on the App Home', { digestChannel: channelId });
      return digestRefusal(channelId, 'turn off');
    }
    const existed = await digests.delete(context.teamId, channelId);
    logger.info('digest turned off from the App Home', { digestChannel: channelId, existed });
    return existed
      ? mk`The daily digest of ${mentionChannel(channelId)} is off. Turn it on again there with \`/events digest on\`.`
      : mk`${mentionChannel(channelId)} had no digest to turn off.`;
  }

  async function homeJob({ context, notice, digestOff }: HomeJob): Promise<void> {
    const said =
      digestOff && deps.home
        ? await turnOff(deps.home.digests, context, digestOff)
        : notice
          ? ownJobText(notice)
          : undefined;
    await publishHome(context.teamId, context.userId, said);
  }

  return { homeJob, publishHome, publishAfterCharge };
}
