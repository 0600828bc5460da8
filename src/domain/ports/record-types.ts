import * as z from 'zod';
import { LOCAL_DATE_PATTERN } from '../../time/local-time.ts';

/**
 * The records' `type`s and the few schemas every side reads without the records themselves: the
 * store's keys, the workspace-admin form and the unlock outcome sit on the Slack function's ack path,
 * and `records.ts` builds its ~65 schemas when it is imported. Re-exported by `records.ts`.
 */

export const Id = z.string().min(1);
export const IsoTime = z.iso.datetime();
export const LocalDate = z.string().regex(LOCAL_DATE_PATTERN, 'expected YYYY-MM-DD');
export const EpochSeconds = z.number().int().positive();

/** The `type` of each record. */
export const RECORD_TYPE = {
  confirmation: 'confirmation',
  ledgerEntry: 'ledger-entry',
  unlockTask: 'unlock-task',
  finishedUnlockTask: 'unlock-task-finished',
  digestSubscription: 'digest-subscription',
  fitScore: 'fit-score',
  watchSettings: 'watch-settings',
  watchAccount: 'watch-account',
  watchPaidLookup: 'watch-paid-lookup',
  plan: 'plan',
  chargedUnlock: 'charged-unlock',
  outcome: 'outcome',
} as const;

export const UnlockKindSchema = z.enum(['email', 'phone']);
export type UnlockKind = z.infer<typeof UnlockKindSchema>;
