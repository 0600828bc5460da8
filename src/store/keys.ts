import { createHash } from 'node:crypto';
import { RECORD_TYPE } from '../domain/ports/record-types.ts';
import type { Unlock } from '../domain/ports/records.ts';
import { ValidationError } from '../platform/errors.ts';

/**
 * Every key of the single table, in one place.
 *
 * | item                   | pk                                  | sk                      | due index (dueKind / dueAt)  |
 * |------------------------|-------------------------------------|-------------------------|------------------------------|
 * | confirmation           | `CONFIRMATION#<id>`                 | `CONFIRMATION`          | `confirmation` / when the reconciler should look; removed once its card is final |
 * | ledger entry           | `LEDGER#<teamId>`                   | `AT#<iso time>#<id>`    | –                            |
 * | ledger guard           | `LEDGER_CONFIRMATION#<confId>`      | `LEDGER_CONFIRMATION`   | –                            |
 * | unlock task            | `UNLOCK_TASK#<taskId>`              | `UNLOCK_TASK`           | `task` / next poll (or lease end); removed once posted |
 * | finished unlock task   | `UNLOCKS_FINISHED#<teamId>`         | `AT#<iso time>#<taskId>`| –                            |
 * | digest subscription    | `DIGEST#<teamId>#<channelId>`       | `SUBSCRIPTION`          | `digest` / next run; removed when disabled |
 * | digest day claim       | `DIGEST#<teamId>#<channelId>`       | `DAY#<YYYY-MM-DD>`      | –                            |
 * | fit score cache        | `FIT_SCORE#<accountId>#<eventId>`   | `DAY#<YYYY-MM-DD>`      | –                            |
 * | show's public id       | `SHOW_ID#<accountId>#<id as given>` | `SHOW_ID`               | –                            |
 * | daily spend            | `SPEND#<accountId>`                 | `DAY#<YYYY-MM-DD>`      | –                            |
 * | charged unlock         | `UNLOCKED#<accountId>#<action>#<eventId or sha256 of the sorted contacts>` | `UNLOCKED` | – |
 * | delivery (idempotency) | `DELIVERY#<key>`                    | `DELIVERY`              | –                            |
 * | Slack installation     | `INSTALLATION#<enterpriseId or ->#<teamId or ->` | `INSTALLATION` | –                  |
 * | OAuth state (one use)  | `OAUTH_STATE#<state>`               | `OAUTH_STATE`           | –                            |
 * | workspace service key  | `WORKSPACE#<teamId>`                | `SERVICE_KEY`           | –                            |
 * | workspace policy       | `WORKSPACE#<teamId>`                | `POLICY`                | –                            |
 * | workspace with scheduled work | `SCHEDULED_WORK`             | `TEAM#<teamId>`         | –                            |
 * | registry filled (once) | `SCHEDULED_WORK`                    | `FILLED`                | –                            |
 * | watch settings         | `WATCH#<teamId>#<channelId>`        | `SETTINGS`              | `watch` / next check; removed while off |
 * | watched account        | `WATCH#<teamId>#<channelId>`        | `ACCOUNT#<key>`         | –                            |
 * | watch check claim      | `WATCH#<teamId>#<channelId>`        | `CHECK#<checkId>`       | –                            |
 * | watch paid look-up     | `WATCH_PAID_LOOKUP#<teamId>#<key>`  | `MONTH#<YYYY-MM>`       | –                            |
 * | channel's plan         | `PLAN#<teamId>`                     | `CHANNEL#<channelId>`   | –                            |
 * | plan budget warning    | `PLAN#<teamId>`                     | `WARNED#<channelId>#<quarter>#<budget set at>` | – |
 * | logged outcome         | `OUTCOME#<teamId>`                  | `ENTRY#<id>`            | –                            |
 *
 * Due items (confirmation, unlock task, digest subscription, watch settings) are also in the team due index
 * (`teamId` / `dueAt`), every kind together: a scheduled run reads one workspace's due work there.
 *
 * Time-ordered sort keys use `toISOString()` (fixed width, UTC), so string order is time order.
 */

export interface ItemKey {
  pk: string;
  sk: string;
}

/** The `dueKind` partitions of the due index. */
export const DUE_KIND = {
  unlockTask: 'task',
  digest: 'digest',
  confirmation: 'confirmation',
  watch: 'watch',
} as const;

/** The `type` attribute every item carries: the domain's records' and the store's own. */
export const ITEM_TYPE = {
  ...RECORD_TYPE,
  ledgerGuard: 'ledger-guard',
  digestDayClaim: 'digest-day-claim',
  dailySpend: 'daily-spend',
  delivery: 'delivery',
  installation: 'installation',
  oauthState: 'oauth-state',
  workspaceServiceKey: 'workspace-service-key',
  workspacePolicy: 'workspace-policy',
  scheduledWorkspace: 'scheduled-workspace',
  scheduledWorkFilled: 'scheduled-work-filled',
  watchCheckClaim: 'watch-check-claim',
  planBudgetWarning: 'plan-budget-warning',
  showId: 'show-id',
} as const;

/** A key part: non-empty, and without `#` when other parts follow it, so keys cannot collide. */
function part(name: string, value: string, { last = false } = {}): string {
  if (value.length === 0) throw new ValidationError(`${name} is empty`);
  if (!last && value.includes('#')) throw new ValidationError(`${name} must not contain '#'`);
  return value;
}

const AT = 'AT#';

export const keys = {
  confirmation: (id: string): ItemKey => ({
    pk: `CONFIRMATION#${part('confirmation id', id, { last: true })}`,
    sk: 'CONFIRMATION',
  }),

  ledgerPartition: (teamId: string): string => `LEDGER#${part('teamId', teamId, { last: true })}`,
  ledgerEntry: (teamId: string, at: string, id: string): ItemKey => ({
    pk: keys.ledgerPartition(teamId),
    sk: `${AT}${at}#${part('ledger entry id', id, { last: true })}`,
  }),
  ledgerGuard: (confirmationId: string): ItemKey => ({
    pk: `LEDGER_CONFIRMATION#${part('confirmationId', confirmationId, { last: true })}`,
    sk: 'LEDGER_CONFIRMATION',
  }),

  unlockTask: (taskId: string): ItemKey => ({
    pk: `UNLOCK_TASK#${part('taskId', taskId, { last: true })}`,
    sk: 'UNLOCK_TASK',
  }),
  finishedUnlockPartition: (teamId: string): string =>
    `UNLOCKS_FINISHED#${part('teamId', teamId, { last: true })}`,
  finishedUnlockTask: (teamId: string, finishedAt: string, taskId: string): ItemKey => ({
    pk: keys.finishedUnlockPartition(teamId),
    sk: `${AT}${finishedAt}#${part('taskId', taskId, { last: true })}`,
  }),

  digestChannel: (teamId: string, channelId: string): string =>
    `DIGEST#${part('teamId', teamId)}#${part('channelId', channelId, { last: true })}`,
  digestSubscription: (teamId: string, channelId: string): ItemKey => ({
    pk: keys.digestChannel(teamId, channelId),
    sk: 'SUBSCRIPTION',
  }),
  digestDayClaim: (teamId: string, channelId: string, localDate: string): ItemKey => ({
    pk: keys.digestChannel(teamId, channelId),
    sk: `DAY#${part('localDate', localDate, { last: true })}`,
  }),

  fitScore: (accountId: string, eventId: string, day: string): ItemKey => ({
    pk: `FIT_SCORE#${part('accountId', accountId)}#${part('eventId', eventId, { last: true })}`,
    sk: `DAY#${part('day', day, { last: true })}`,
  }),

  /** Per service account, as everything read with its key (`src/domain/show-ids.ts`). */
  showId: (accountId: string, id: string): ItemKey => ({
    pk: `SHOW_ID#${part('accountId', accountId)}#${part('show id', id, { last: true })}`,
    sk: 'SHOW_ID',
  }),

  /** Per service account (the cap is the account's, whichever workspace spends it). */
  dailySpend: (accountId: string, day: string): ItemKey => ({
    pk: `SPEND#${part('accountId', accountId, { last: true })}`,
    sk: `DAY#${part('day', day, { last: true })}`,
  }),

  /**
   * Per service account and unlock (the service charges an unlock once per account). Contacts are
   * hashed: a list of people would make a long key, and sorted first, so their order does not count.
   */
  chargedUnlock: (accountId: string, unlock: Unlock): ItemKey => {
    const subject = unlock.personnelIds
      ? createHash('sha256')
          .update([...unlock.personnelIds].sort().join(','))
          .digest('hex')
      : part('eventId', unlock.eventId ?? '', { last: true });
    return {
      pk: `UNLOCKED#${part('accountId', accountId)}#${part('action', unlock.action)}#${subject}`,
      sk: 'UNLOCKED',
    };
  },

  delivery: (key: string): ItemKey => ({
    pk: `DELIVERY#${part('delivery key', key, { last: true })}`,
    sk: 'DELIVERY',
  }),

  /** A workspace's install (org-wide installs: the enterprise id and `-`; plain ones: `-` and the team id). */
  installation: (enterpriseId: string | undefined, teamId: string | undefined): ItemKey => ({
    pk: `INSTALLATION#${part('enterpriseId', enterpriseId ?? '-')}#${part('teamId', teamId ?? '-', { last: true })}`,
    sk: 'INSTALLATION',
  }),
  oauthState: (state: string): ItemKey => ({
    pk: `OAUTH_STATE#${part('state', state, { last: true })}`,
    sk: 'OAUTH_STATE',
  }),
  workspace: (teamId: string): string => `WORKSPACE#${part('teamId', teamId, { last: true })}`,
  workspaceServiceKey: (teamId: string): ItemKey => ({ pk: keys.workspace(teamId), sk: 'SERVICE_KEY' }),
  workspacePolicy: (teamId: string): ItemKey => ({ pk: keys.workspace(teamId), sk: 'POLICY' }),

  /** The registry of workspaces with scheduled work: one partition, read whole by each scheduled run. */
  scheduledWorkPartition: 'SCHEDULED_WORK',
  scheduledWorkspace: (teamId: string): ItemKey => ({
    pk: keys.scheduledWorkPartition,
    sk: `TEAM#${part('teamId', teamId, { last: true })}`,
  }),
  scheduledWorkFilled: (): ItemKey => ({ pk: keys.scheduledWorkPartition, sk: 'FILLED' }),

  watchChannel: (teamId: string, channelId: string): string =>
    `WATCH#${part('teamId', teamId)}#${part('channelId', channelId, { last: true })}`,
  watchSettings: (teamId: string, channelId: string): ItemKey => ({
    pk: keys.watchChannel(teamId, channelId),
    sk: 'SETTINGS',
  }),
  watchAccountPrefix: 'ACCOUNT#',
  watchAccount: (teamId: string, channelId: string, key: string): ItemKey => ({
    pk: keys.watchChannel(teamId, channelId),
    sk: `ACCOUNT#${part('account key', key, { last: true })}`,
  }),
  watchCheckClaim: (teamId: string, channelId: string, checkId: string): ItemKey => ({
    pk: keys.watchChannel(teamId, channelId),
    sk: `CHECK#${part('checkId', checkId, { last: true })}`,
  }),
  /** Per workspace and account, not per channel: a workspace looks an account up paid once a month. */
  watchPaidLookup: (teamId: string, key: string, month: string): ItemKey => ({
    pk: `WATCH_PAID_LOOKUP#${part('teamId', teamId)}#${part('account key', key, { last: true })}`,
    sk: `MONTH#${part('month', month, { last: true })}`,
  }),

  /** A workspace's plans share one partition: Home reads them in one query. */
  planPartition: (teamId: string): string => `PLAN#${part('teamId', teamId, { last: true })}`,
  planChannelPrefix: 'CHANNEL#',
  plan: (teamId: string, channelId: string): ItemKey => ({
    pk: keys.planPartition(teamId),
    sk: `CHANNEL#${part('channelId', channelId, { last: true })}`,
  }),
  planBudgetWarning: (teamId: string, channelId: string, quarterKey: string, budgetSetAt: string): ItemKey => ({
    pk: keys.planPartition(teamId),
    sk: `WARNED#${part('channelId', channelId)}#${part('quarter', quarterKey)}#${part('budgetSetAt', budgetSetAt, { last: true })}`,
  }),

  /** A workspace's logged outcomes share one partition: a return reads them in one query. */
  outcomePartition: (teamId: string): string => `OUTCOME#${part('teamId', teamId, { last: true })}`,
  outcomeEntryPrefix: 'ENTRY#',
  outcome: (teamId: string, id: string): ItemKey => ({
    pk: keys.outcomePartition(teamId),
    sk: `ENTRY#${part('outcome id', id, { last: true })}`,
  }),

  /** Sort-key bounds for `AT#<iso>#…` keys. */
  atOrAfter: (iso: string): string => `${AT}${iso}`,
  /** Inclusive bounds of a UTC day (`YYYY-MM-DD`) among `AT#<iso>#…` keys; `~` sorts after every ISO character. */
  utcDayBounds: (day: string): [string, string] => [`${AT}${day}T`, `${AT}${day}T~`],
};
