import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { EisUpstreamError } from '../eis/errors.ts';
import type { EisClient } from '../eis/index.ts';
import { balanceOrNull, chargeErrorMessage, plural } from './charging.ts';
import type { ConfirmationDeps, Requester } from './confirmations.ts';
import { capMessage, utcDay } from './confirmations.ts';
import type { Confirmation, Settlement } from './ports/index.ts';

/*
 * LinkedIn activity analysis may spend credits, but neither the spec nor the vendor gives a price or
 * a precheck action code (src/eis/operations.ts: `undocumented`). So it goes through a confirmation
 * like every charge — the same claim, the same write-ahead start guard, one service call, settled
 * once — with a card that says the price is not published. The credits it spent are read from the
 * balance before and after the call, since the answer does not say.
 */

export const LINKEDIN_ACTION_KIND = 'linkedin-activity';

/** The action as stored on its confirmation. */
export const LinkedinActionSchema = z.object({
  kind: z.literal(LINKEDIN_ACTION_KIND),
  personnelIds: z.array(z.string()).min(1).max(20),
  names: z.record(z.string(), z.string()).optional(),
  /** The unlock's thread, where the card is posted and the results go. */
  threadTs: z.string().optional(),
});
export type LinkedinAction = z.infer<typeof LinkedinActionSchema>;

/** No price is published: nothing is reserved under the daily cap, and the card says "not published". */
export const UNPUBLISHED_PRICE = { credits: 0, upTo: true };

export const isLinkedinConfirmation = (confirmation: Pick<Confirmation, 'action'>): boolean =>
  LinkedinActionSchema.safeParse(confirmation.action).success;

export function describeLinkedin(action: Pick<LinkedinAction, 'personnelIds' | 'names'>): string {
  const names = action.personnelIds.map((id) => action.names?.[id] ?? `person ${id}`);
  const shown = names.slice(0, 5).join(', ');
  const more = names.length > 5 ? ` and ${names.length - 5} more` : '';
  return `Analyse the LinkedIn activity of ${plural(names.length, 'person', 'people')}: ${shown}${more}`;
}

type LinkedinEis = Pick<EisClient, 'personnel' | 'credits'>;
export type LinkedinDeps = Omit<ConfirmationDeps, 'eis'> & { eis: LinkedinEis & ConfirmationDeps['eis'] };

/** Step 1: a pending confirmation (no precheck exists to quote or refuse it) and the balance. */
export async function requestLinkedinActivity(
  action: Omit<LinkedinAction, 'kind'>,
  requester: Requester,
  deps: Pick<LinkedinDeps, 'eis' | 'confirmations'>,
): Promise<{ confirmation: Confirmation; balance: number | null }> {
  const stored = LinkedinActionSchema.parse({ ...action, kind: LINKEDIN_ACTION_KIND });
  const [confirmation, balance] = await Promise.all([
    deps.confirmations.create({
      teamId: requester.teamId,
      channelId: requester.channelId,
      requestedBy: requester.userId,
      action: stored,
      price: UNPUBLISHED_PRICE,
    }),
    balanceOrNull(deps.eis),
  ]);
  return { confirmation, balance };
}

export type LinkedinChargeResult =
  | { kind: 'settled'; confirmation: Confirmation; taskId?: string }
  | { kind: 'duplicate' }
  | { kind: 'unsettled' };

/**
 * Step 3 (after the shared Confirm claim): the start guard and pending ledger entry in one write,
 * the one call, then the outcome, the ledger's amount and the task to follow in one more. A run that
 * dies in between leaves a started charge the reconciler settles as "outcome unknown".
 */
export async function runLinkedinCharge(
  confirmationId: string,
  deps: LinkedinDeps,
  cardTs?: string,
): Promise<LinkedinChargeResult> {
  const confirmation = await deps.confirmations.get(confirmationId);
  if (confirmation?.status !== 'running') return { kind: 'duplicate' };
  const action = LinkedinActionSchema.parse(confirmation.action);
  const { dailyCap } = deps.policy;
  const begun = await deps.charges.begin(confirmation, {
    attemptId: randomUUID(),
    accountId: deps.accountId,
    day: utcDay(deps.now()),
    ...(dailyCap !== undefined ? { cap: dailyCap } : {}),
    userId: confirmation.confirmedBy ?? confirmation.requestedBy,
    ledger: { action: action.kind, personnelIds: action.personnelIds },
  });
  if (begun.kind === 'duplicate') return { kind: 'duplicate' };
  if (begun.kind === 'capped') {
    const closed = await deps.confirmations.abandon(confirmationId, {
      reason: 'daily-cap',
      message: capMessage(dailyCap ?? 0, begun.remaining),
      creditsSpent: 0,
    });
    const current = await deps.confirmations.get(confirmationId);
    return closed && current ? { kind: 'settled', confirmation: current } : { kind: 'duplicate' };
  }
  const threadTs = action.threadTs ?? begun.confirmation.messageTs ?? cardTs;
  const settlement = await linkedinSettlement(action, begun.confirmation, threadTs, deps.eis);
  const settled = await deps.charges.settle(confirmationId, settlement).catch((error: unknown) => {
    deps.logger.error('could not store the outcome of a charge', { confirmationId, error });
    return undefined;
  });
  if (!settled) return { kind: 'unsettled' };
  const taskId = settlement.task?.taskId;
  return { kind: 'settled', confirmation: settled, ...(taskId ? { taskId } : {}) };
}

async function linkedinSettlement(
  action: LinkedinAction,
  confirmation: Confirmation,
  threadTs: string | undefined,
  eis: LinkedinEis,
): Promise<Settlement> {
  const before = await balanceOrNull(eis);
  let items;
  try {
    ({ items } = await eis.personnel.unlockLinkedinActivity(action.personnelIds));
  } catch (error) {
    const outcomeUnknown = error instanceof EisUpstreamError && error.outcomeUnknown;
    return {
      status: 'failed',
      outcome: {
        reason: 'service-error',
        message: chargeErrorMessage(error),
        outcomeUnknown,
        ...(outcomeUnknown ? {} : { creditsSpent: 0 }),
      },
      ledger: outcomeUnknown ? { status: 'unknown', credits: 0 } : { status: 'refused', credits: 0 },
    };
  }
  const after = await balanceOrNull(eis);
  // The answer has no amount: the balance's drop is the best figure (other spending at the same moment
  // would be counted too, so the card says where it comes from).
  const spent = before !== null && after !== null ? Math.max(0, before - after) : 0;
  const started = items.filter((item) => item.success).map((item) => item.personnel_id);
  const skipped = items
    .filter((item) => !item.success)
    .map((item) => ({ personnelId: item.personnel_id, reason: item.error ?? 'refused' }));
  const summary = [
    started.length > 0
      ? `Analysing ${plural(started.length, 'person', 'people')}… Results will arrive in this thread.`
      : 'Nothing to analyse: the service refused every person.',
    ...(skipped.length > 0
      ? [`${skipped.length} skipped (${skipped.map((s) => s.reason).join(', ')}).`]
      : []),
    before !== null && after !== null
      ? `Credits spent, from the balance before and after: ${spent.toLocaleString('en-US')}.`
      : 'The balance could not be read: the credits spent are not known.',
  ];
  return {
    status: 'succeeded',
    outcome: {
      creditsSpent: spent,
      balanceAfter: after,
      summary,
      ...(started.length > 0 ? { resultsPending: true } : {}),
    },
    ledger: { status: 'charged', credits: spent },
    ...(started.length > 0 && threadTs
      ? {
          task: {
            taskId: `linkedin-${confirmation.id}`,
            kind: 'email' as const,
            teamId: confirmation.teamId,
            channelId: confirmation.channelId,
            threadTs,
            requestedBy: confirmation.requestedBy,
            personnelIds: started,
            ...(action.names ? { names: action.names } : {}),
            skipped: [],
            confirmationId: confirmation.id,
            followUp: { kind: 'linkedin' as const },
          },
        }
      : {}),
  };
}
