import type { EisClient } from '../eis/index.ts';
import { balanceOrNull, type ChargeAction, ChargeActionSchema, linkedinActivityPrice } from './charging.ts';
import type { ConfirmationDeps, Requester } from './confirmations.ts';
import type { Confirmation } from './ports/index.ts';

/*
 * LinkedIn activity analysis may spend credits, but neither the spec nor the vendor gives a price or
 * a precheck action code (src/eis/operations.ts: `undocumented`). It is a charge kind like any other
 * (`linkedin-activity` in charging.ts and charge-run.ts: its unpublished price and service call), run by
 * the shared confirmation flow — the same claim, write-ahead start guard, one call, one settlement,
 * and the same reconciler. Only how it is asked for differs: a button under email results, with no
 * precheck to quote or refuse it. The credits it spent are read from the balance before and after.
 */

export type LinkedinAction = Extract<ChargeAction, { kind: 'linkedin-activity' }>;

/** Step 1: a pending confirmation (no precheck exists to quote or refuse it) and the balance. */
export async function requestLinkedinActivity(
  action: Omit<LinkedinAction, 'kind'>,
  requester: Requester,
  deps: Pick<ConfirmationDeps, 'confirmations'> & { eis: Pick<EisClient, 'credits'> },
): Promise<{ confirmation: Confirmation; action: LinkedinAction; balance: number | null }> {
  const stored = ChargeActionSchema.parse({ ...action, kind: 'linkedin-activity' }) as LinkedinAction;
  const [confirmation, balance] = await Promise.all([
    deps.confirmations.create({
      teamId: requester.teamId,
      channelId: requester.channelId,
      requestedBy: requester.userId,
      action: stored,
      // Reserved under the daily cap on Confirm; the cards still say the price is not published.
      price: linkedinActivityPrice(stored.personnelIds.length),
    }),
    balanceOrNull(deps.eis),
  ]);
  return { confirmation, action: stored, balance };
}
