import { precheckParams } from './charge-quote.ts';
import { type ChargeEis, listPrice, PRECHECK_ACTION } from './charging.ts';
import { isServiceError, SERVICE_ERROR_CODE } from './ports/service.ts';

/**
 * What unlocking a show's contacts would cost, as the service's precheck says (compare and the plan
 * read it the same way): nothing (`unlocked`), a price (`estimated` when the precheck could not be
 * had and the list price stands in; `overBalance` when the balance does not cover it), or not offered
 * (the service's reason code: an unlock in progress, no contacts, not allowed).
 */
export type UnlockCost =
  | { state: 'unlocked' }
  | { state: 'locked'; credits: number; estimated: boolean; overBalance?: true }
  | { state: 'not-offered'; reason: string };

/** The precheck's answer as it is read here (the service's reason codes). */
export interface UnlockPrecheck {
  reason_code: string;
  credits: number;
}

/** The cost from a precheck (its reason code has the last word), or from the list price without one. */
export function unlockCostOf(precheck: UnlockPrecheck | null, listCredits: number): UnlockCost {
  if (!precheck || precheck.reason_code === 'unsupported_action')
    return { state: 'locked', credits: listCredits, estimated: true };
  if (precheck.reason_code === 'already_unlocked') return { state: 'unlocked' };
  if (precheck.reason_code === 'ok') return { state: 'locked', credits: precheck.credits, estimated: false };
  if (precheck.reason_code === 'insufficient_balance')
    return { state: 'locked', credits: precheck.credits, estimated: false, overBalance: true };
  return { state: 'not-offered', reason: precheck.reason_code };
}

/**
 * One show's unlock cost, from a free precheck. A revoked key is the user's to see, so it is thrown;
 * any other failure leaves the list price, marked estimated.
 */
export async function showUnlockCost(eis: Pick<ChargeEis, 'actions'>, eventId: string): Promise<UnlockCost> {
  const action = { kind: 'event-unlock', eventId } as const;
  const actionType = PRECHECK_ACTION[action.kind];
  const precheck = actionType
    ? await eis.actions.precheck({ actionType, params: precheckParams(action) }).catch((error: unknown) => {
        if (isServiceError(error, SERVICE_ERROR_CODE.unauthorized)) throw error;
        return null;
      })
    : null;
  return unlockCostOf(precheck, listPrice(action).credits);
}
