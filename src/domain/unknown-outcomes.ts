import { type ChargeAction, ChargeActionSchema, PRECHECK_ACTION, unlockOf } from './charging.ts';
import type { Confirmation } from './ports/index.ts';

/*
 * A charge whose outcome is unknown (the service's answer was lost, or the bot was interrupted) is not
 * left unknown: the scheduled reconciler asks the service again, within its usual slice of due
 * confirmations, until it can book the charge as charged or not, for a day at most. What stays unknown
 * after that is listed for the workspace's admins on Home.
 */
export const UNKNOWN_OUTCOME = {
  /** How often the reconciler asks the service again about one charge. */
  askEverySeconds: 30 * 60,
  /** How long after the charge started it keeps asking. */
  askForSeconds: 24 * 60 * 60,
};

/**
 * Whether the service can show what came of the charge: only an unlock's precheck can ("already
 * unlocked", or still its full price). Searches and LinkedIn analysis are charged each time they
 * run, and no free read shows them (src/eis/ASSUMPTIONS.md).
 */
export function canAskAbout(action: ChargeAction | undefined): boolean {
  return action !== undefined && PRECHECK_ACTION[action.kind] !== null && unlockOf(action) !== null;
}

/** Until when the reconciler asks about a charge started at `startedAt`; undefined when it cannot ask. */
export function askUntilOf(action: unknown, startedAt: string | undefined): string | undefined {
  const parsed = ChargeActionSchema.safeParse(action);
  if (!startedAt || !canAskAbout(parsed.data)) return undefined;
  return new Date(Date.parse(startedAt) + UNKNOWN_OUTCOME.askForSeconds * 1000).toISOString();
}

/** When the reconciler next asks about a charge it just asked about at `now`. */
export function nextAskAt(now: Date, askUntil: string): Date {
  return new Date(Math.min(now.getTime() + UNKNOWN_OUTCOME.askEverySeconds * 1000, Date.parse(askUntil)));
}

/** Whether the reconciler asked about this charge too recently to ask again. */
export function askedRecently(confirmation: Pick<Confirmation, 'askedAt'>, now: Date): boolean {
  return (
    confirmation.askedAt !== undefined &&
    now.getTime() - Date.parse(confirmation.askedAt) < UNKNOWN_OUTCOME.askEverySeconds * 1000
  );
}
