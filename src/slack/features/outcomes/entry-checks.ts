import { currencyProblem, type OutcomeInput, watchedCompanyOf } from '../../../domain/outcomes.ts';
import type { OutcomeEntry } from '../../../domain/ports/records.ts';
import { readShow } from '../../kit/show-ids.ts';
import type { WorkerDeps } from '../../kit/worker-deps.ts';
import type { OutcomeWords } from './outcome-reading.ts';

/** What an entry is checked against when it runs: the show (a free read), the plan's currency, the watch. */

export type OutcomeDeps = Pick<
  WorkerDeps,
  'eis' | 'slack' | 'logger' | 'now' | 'workspaceRoles' | 'policyIn'
> & {
  store: Pick<WorkerDeps['store'], 'outcomes' | 'plans' | 'watchLists'>;
};

/** The show as the service knows it now (a free read), under its public id; null when it knows none. */
export const showOf = (deps: OutcomeDeps, eventId: string) => readShow(deps.eis.events, eventId);

export type CheckedWords = OutcomeInput & { currency?: string; company?: OutcomeEntry['company'] };

/**
 * What the entry says, in the channel's plan currency and matched to its watch's company; or what is
 * wrong with its currency.
 */
export async function checkedWords(
  deps: OutcomeDeps,
  where: { teamId: string; channelId: string },
  words: OutcomeWords,
): Promise<CheckedWords | { refusal: string }> {
  const [plan, watched] = await Promise.all([
    deps.store.plans.get(where.teamId, where.channelId),
    deps.store.watchLists.allAccounts(where.teamId, where.channelId).catch(() => []),
  ]);
  const planCurrency = plan?.currency?.code;
  const typed = words.amount?.currency ?? '';
  const problem = currencyProblem(words.amount?.currency, planCurrency);
  if (problem === 'no-plan-currency')
    return {
      refusal: `This channel's plan has no currency, so ${typed} cannot be checked. Set it with /events plan currency ${typed}, or give the amount alone.`,
    };
  if (problem === 'other-currency')
    return {
      refusal: `The amount is in ${typed}, but this channel's plan is in ${planCurrency ?? ''}: give it in ${planCurrency ?? ''}.`,
    };
  const company = watchedCompanyOf(words.account, watched);
  return {
    kind: words.kind,
    ...(words.grade ? { grade: words.grade } : {}),
    ...(words.amount ? { hundredths: words.amount.hundredths } : {}),
    ...(planCurrency ? { currency: planCurrency } : {}),
    account: words.account,
    ...(company ? { company } : {}),
    ...(words.note ? { note: words.note } : {}),
  };
}
