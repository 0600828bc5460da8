import type { WebClient } from '@slack/web-api';
import { describeStoredAction } from '../../domain/charging.ts';
import { confirmRefusal, storedOutcome, utcDay } from '../../domain/confirmations.ts';
import type { Confirmation, Store } from '../../store/index.ts';
import type { Job } from '../jobs.ts';
import { cardPrice, settledWords } from '../views/money-words.ts';
import { mentionChannel, mentionUser } from '../views/format.ts';
import { type HomeInput, type HomeView, homeView } from '../views/home.ts';
import { escapeMrkdwn } from '../views/limits.ts';
import type { WorkerDeps } from './deps.ts';

/** What the Home reads beyond the worker's usual store, and where it is published. */
export interface HomeSources {
  confirmations: Pick<Store['confirmations'], 'pendingForTeam'>;
  unlockTasks: Pick<Store['unlockTasks'], 'unfinishedForTeam'>;
  digests: Pick<Store['digestSubscriptions'], 'activeForTeam' | 'delete'>;
  publish(userId: string, view: HomeView): Promise<void>;
  /** The app is distributed: the Home offers the workspace settings. */
  distributed?: boolean;
}

/** The Home's sources over the store and a Slack client (`views.publish`). */
export function homeSourcesOf(
  store: Store,
  web: Pick<WebClient, 'views'>,
  options: { distributed?: boolean } = {},
): HomeSources {
  return {
    ...(options.distributed ? { distributed: true } : {}),
    confirmations: store.confirmations,
    unlockTasks: store.unlockTasks,
    digests: store.digestSubscriptions,
    publish: async (userId, view) => {
      await web.views.publish({ user_id: userId, view });
    },
  };
}

type HomeJob = Extract<Job, { kind: 'home' }>;

/** A settled charge in one line, for the Home of the people it concerns. */
export function settledNotice(confirmation: Confirmation): string {
  const what = escapeMrkdwn(describeStoredAction(confirmation.action));
  const outcome = storedOutcome(confirmation);
  const where = ` (card in ${mentionChannel(confirmation.channelId)})`;
  switch (confirmation.status) {
    case 'succeeded': {
      const settled = settledWords(
        cardPrice(confirmation),
        outcome.creditsSpent ?? confirmation.price.credits,
        outcome.balanceAfter,
      );
      const by = confirmation.confirmedBy ? ` Confirmed by ${mentionUser(confirmation.confirmedBy)}.` : '';
      const pending = outcome.resultsPending ? ' Results will arrive in the card’s thread.' : '';
      return `Settled: ${what} — ${settled}${where}.${by}${pending}`;
    }
    case 'failed':
      return `Not done: ${what} — ${escapeMrkdwn(outcome.message ?? 'it did not work')}${where}`;
    default:
      return `${what}: ${confirmation.status}${where}.`;
  }
}

const valueOf = <T>(result: PromiseSettledResult<T>): T | null =>
  result.status === 'fulfilled' ? result.value : null;

async function readHome(
  { store, eis, policy, logger, now }: WorkerDeps,
  sources: HomeSources,
  teamId: string,
  userId: string,
): Promise<HomeInput> {
  const at = now();
  const results = await Promise.allSettled([
    eis.credits.balance(),
    store.ledger.listForDay(teamId, utcDay(at)),
    sources.confirmations.pendingForTeam(teamId),
    sources.unlockTasks.unfinishedForTeam(teamId),
    sources.digests.activeForTeam(teamId),
  ] as const);
  const failed = results.filter((result) => result.status === 'rejected');
  for (const { reason } of failed) logger.warn('a Home source could not be read', { error: reason });
  const [balance, ledger, pending, tasks, digests] = results;
  const entries = valueOf(ledger);
  const actor = { userId, teamId };
  return {
    userId,
    now: at,
    balance: valueOf(balance)?.totalBalance ?? null,
    spentToday: entries
      ? entries.filter((entry) => entry.status !== 'refused').reduce((sum, entry) => sum + entry.credits, 0)
      : null,
    ...(policy.dailyCap !== undefined ? { dailyCap: policy.dailyCap } : {}),
    confirmations:
      valueOf(pending)
        ?.filter((c) => c.requestedBy === userId || policy.approvers.includes(userId))
        .map((c) => {
          const refusal = confirmRefusal(c, actor, policy);
          return {
            id: c.id,
            description: describeStoredAction(c.action),
            price: cardPrice(c),
            requestedBy: c.requestedBy,
            channelId: c.channelId,
            deadline: c.deadline,
            ...(refusal ? { confirmRefusal: refusal } : {}),
          };
        }) ?? null,
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
    charges: entries?.filter((entry) => entry.userId === userId) ?? null,
    ...(sources.distributed ? { settingsButton: true } : {}),
  };
}

/**
 * The App Home: built from the service (balance) and the store (spend, confirmations, unlocks,
 * digests), each read on its own so one that fails shows "could not be read" and the rest still shows.
 */
export function homeJobs(deps: WorkerDeps) {
  const { logger } = deps;

  /** Builds and publishes `userId`'s Home, with `notice` at its top. */
  async function publishHome(teamId: string, userId: string, notice?: string): Promise<void> {
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

  async function homeJob({ context, notice, digestOff }: HomeJob): Promise<void> {
    let said = notice;
    if (digestOff && deps.home) {
      // As `/events digest off` in that channel: anyone may turn a channel's digest off.
      const existed = await deps.home.digests.delete(context.teamId, digestOff);
      logger.info('digest turned off from the App Home', { digestChannel: digestOff, existed });
      said = existed
        ? `The daily digest of ${mentionChannel(digestOff)} is off. Turn it on again there with \`/events digest on\`.`
        : `${mentionChannel(digestOff)} had no digest to turn off.`;
    }
    await publishHome(context.teamId, context.userId, said);
  }

  return { homeJob, publishHome, publishAfterCharge };
}
