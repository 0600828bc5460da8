import { chargeActionOf, type Command, parseCommand } from '../commands/index.ts';
import type { JobContext } from '../kit/jobs.ts';
import { eventCard } from '../features/events/event-card.ts';
import { fitCard } from '../features/events/fit-card.ts';
import { creditsCard, errorMessage } from '../views/messages.ts';
import type { Answer } from '../kit/answer.ts';
import type { AskToConfirm } from '../features/charges/jobs.ts';
import type { WorkerDeps } from '../kit/worker-deps.ts';
import { mayManageDigest } from '../kit/digest-access.ts';
import { type DigestCommandDeps, isDigestCommand, runDigestCommand } from '../features/digests/jobs.ts';
import { renderList } from '../features/lists/index.ts';
import { accountAnswer, isAccountCommand } from '../features/account/jobs.ts';
import { isWatchCommand, runWatchCommand, type WatchCommandDeps } from '../features/watch/command-jobs.ts';
import { eisWatchLookups } from '../features/watch/lookups.ts';
import { type SpendDeps, spendAnswer } from '../features/charges/spend-jobs.ts';
import { isCompareCommand } from '../features/compare/commands.ts';
import { compareJobs } from '../features/compare/jobs.ts';
import { isPlanCommand, type PlanCommandDeps, runPlanCommand } from '../features/plan/jobs.ts';
import type { ListKind } from '../kit/job-values.ts';

export type RunCommand = (command: Command, context: JobContext, text: string) => Promise<void>;

/** The list a command shows, and the query its Previous / Next buttons carry. */
function listOf(command: Command): { list: ListKind; query: Record<string, unknown> } | undefined {
  switch (command.name) {
    case 'search':
      return { list: 'events', query: { ...command.filters } };
    case 'exhibitors':
      return {
        list: 'exhibitors',
        query: { eventId: command.eventId, keyword: command.keyword, ...command.filters },
      };
    case 'people':
      return {
        list: 'people',
        query: { eventId: command.eventId, query: command.query, ...command.filters },
      };
    case 'recommend':
      return { list: 'recommend', query: { eventId: command.eventId, ...command.filters } };
    case 'shows-for':
      return {
        list: 'shows-for',
        query: { companyUrl: command.companyUrl, targetAudience: command.targetAudience, ...command.filters },
      };
    case 'similar':
      return {
        list: 'similar',
        query: { companyUrl: command.companyUrl, targetAudience: command.targetAudience },
      };
    case 'person-events':
      return { list: 'person-events', query: { personnelId: command.personnelId } };
    default:
      return undefined;
  }
}

const dropUndefined = (query: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined));

/** The free look-ups that answer with one card: a fit score, an event, the balance. */
async function lookUp(
  command: Command,
  context: JobContext,
  text: string,
  { eis }: WorkerDeps,
  answer: Answer,
): Promise<void> {
  switch (command.name) {
    case 'fit': {
      const [fit, detail] = await Promise.all([
        eis.events.fitScore(command.eventId),
        eis.events.detail(command.eventId).catch(() => null),
      ]);
      const name = detail?.name ?? undefined;
      const card = fitCard(fit, {
        hasVisitors: detail?.hasVisitors ?? null,
        ...(name ? { name } : {}),
      });
      return answer(context, card, { text });
    }
    case 'show':
      return answer(context, eventCard(await eis.events.detail(command.eventId)), { text });
    case 'credits':
      return answer(context, creditsCard(await eis.credits.balance()));
    default:
      // Help is answered by the listener; every other word is handled before this.
      return answer(context, errorMessage('Try `/events help` for the list of commands.'));
  }
}

/** `/events` commands: lists and look-ups answered for free, charges asked for, digests set up. */
export function commandJobs(deps: WorkerDeps, answer: Answer, askToConfirm: AskToConfirm) {
  const { eis, store, slack } = deps;
  const digestDeps: DigestCommandDeps = {
    subscriptions: store.digestSubscriptions,
    slack,
    userTimeZone: deps.userTimeZone,
    mayManage: (manager) =>
      mayManageDigest({ access: deps.digestAccess, policy: deps.policy, logger: deps.logger }, manager),
    digestDefaults: deps.digestDefaults,
    eis,
    ledger: store.ledger,
    unlockTasks: store.unlockTasks,
    fitScores: store.fitScores(deps.accountId),
    logger: deps.logger,
    now: deps.now,
  };

  const watchDeps: WatchCommandDeps = {
    watchLists: store.watchLists,
    lookups: eisWatchLookups(eis),
    slack,
    policy: deps.policy,
    roles: deps.workspaceRoles,
    logger: deps.logger,
    now: deps.now,
  };

  const spendDeps: SpendDeps = {
    ledger: store.ledger,
    eis,
    slack,
    dailyCap: deps.policy.dailyCap,
    logger: deps.logger,
    now: deps.now,
  };
  const compare = compareJobs(deps, answer);
  const planDeps: PlanCommandDeps = {
    plans: store.plans,
    eis,
    watchLists: store.watchLists,
    ledger: store.ledger,
    fitScores: store.fitScores(deps.accountId),
    canvas: deps.planCanvas,
    slack,
    roles: deps.workspaceRoles,
    logger: deps.logger,
    now: deps.now,
  };

  const runCommand: RunCommand = async (command, context, text) => {
    const list = listOf(command);
    if (list) {
      const message = await renderList(list.list, dropUndefined(list.query), 1, eis);
      return answer(context, message, { text });
    }
    const action = chargeActionOf(command);
    if (action) {
      // A decision for the channel: the card is public, and the "working…" line goes.
      await askToConfirm(action, context);
      if (context.placeholder) await slack.deleteOriginal(context);
      return;
    }
    if (isDigestCommand(command)) {
      await runDigestCommand(command, context, digestDeps);
      if (context.placeholder) await slack.deleteOriginal(context);
      return;
    }
    if (isWatchCommand(command)) return runWatchCommand(command, context, watchDeps);
    if (command.name === 'spend') return answer(context, await spendAnswer(command, context, spendDeps));
    if (isCompareCommand(command)) return compare.runCompare(command, context);
    if (isPlanCommand(command)) return runPlanCommand(command, context, planDeps, answer);
    if (isAccountCommand(command)) {
      const message = await accountAnswer(command, eis, deps.now);
      if (message) return answer(context, message, { text });
    }
    return lookUp(command, context, text, deps, answer);
  };

  /** An `/events` command (or a button standing for one), parsed again here. */
  async function commandJob({ text, context }: { text: string; context: JobContext }): Promise<void> {
    const parsed = parseCommand(text);
    if (!parsed.ok) return answer(context, errorMessage(parsed.problem));
    return runCommand(parsed.command, context, text);
  }

  return { runCommand, commandJob };
}
