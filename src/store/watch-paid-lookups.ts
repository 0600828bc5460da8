import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PaidLookupClaim, WatchCandidate } from '../domain/ports/index.ts';
import { ITEM_TYPE, keys } from './keys.ts';
import { type WatchPaidLookup, WatchPaidLookupSchema } from '../domain/ports/records.ts';
import {
  DAY_SECONDS,
  epochSeconds,
  getItem,
  parseItem,
  type StoreContext,
  unlessConditionFailed,
} from './support.ts';

/**
 * The guards of the watch's paid name look-ups: one item per workspace, account key and month. Kept
 * 400 days, far past the month it guards (a guard that went at the month's end, or with the
 * confirmation a week after its deadline, would let the same month look the account up again): long
 * enough for any month it guards, and for a year of "why was this looked up?" questions after.
 */
const PAID_LOOKUP_RETENTION_SECONDS = 400 * DAY_SECONDS;

const parse = (item: Record<string, unknown>) => parseItem(WatchPaidLookupSchema, 'watch paid look-up', item);

export const paidLookup = (context: StoreContext, teamId: string, key: string, month: string) =>
  getItem(context, keys.watchPaidLookup(teamId, key, month), parse);

/**
 * Takes the month's look-up of the account for `claim.confirmationId` in one conditional put, and
 * answers the guard that holds: the caller's own (its put retried by the SDK included) or the one
 * another channel or check wrote first.
 */
export async function claimPaidLookup(
  context: StoreContext,
  claim: PaidLookupClaim,
): Promise<WatchPaidLookup> {
  const at = context.now();
  const guard = WatchPaidLookupSchema.parse({
    type: ITEM_TYPE.watchPaidLookup,
    ...claim,
    claimedAt: at.toISOString(),
    expiresAt: epochSeconds(at) + PAID_LOOKUP_RETENTION_SECONDS,
  } satisfies WatchPaidLookup);
  const key = keys.watchPaidLookup(claim.teamId, claim.key, claim.month);
  const put = await unlessConditionFailed(() =>
    context.client.send(
      new PutCommand({
        TableName: context.tableName,
        Item: { ...key, ...guard },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
  if (put) return guard;
  const held = await paidLookup(context, claim.teamId, claim.key, claim.month);
  if (!held) throw new Error('A watch paid look-up guard failed its condition but is not there');
  return held;
}

/** Keeps what the look-up found on its guard, for the workspace's other channels (its own claim only). */
export async function paidLookupFound(
  context: StoreContext,
  claim: Omit<PaidLookupClaim, 'channelId'>,
  found: WatchCandidate[],
): Promise<void> {
  await unlessConditionFailed(() =>
    context.client.send(
      new UpdateCommand({
        TableName: context.tableName,
        Key: keys.watchPaidLookup(claim.teamId, claim.key, claim.month),
        ConditionExpression: 'confirmationId = :id',
        UpdateExpression: 'SET #found = :found',
        ExpressionAttributeNames: { '#found': 'found' },
        ExpressionAttributeValues: {
          ':id': claim.confirmationId,
          ':found': WatchPaidLookupSchema.shape.found.parse(found),
        },
      }),
    ),
  );
}

/**
 * Gives the month's look-up back when the service was never called (refused by the daily cap, say),
 * so a later check may run it: only the caller's own claim, and never one that found something.
 */
export async function releasePaidLookup(
  context: StoreContext,
  claim: Omit<PaidLookupClaim, 'channelId'>,
): Promise<void> {
  await unlessConditionFailed(() =>
    context.client.send(
      new DeleteCommand({
        TableName: context.tableName,
        Key: keys.watchPaidLookup(claim.teamId, claim.key, claim.month),
        ConditionExpression: 'confirmationId = :id AND attribute_not_exists(#found)',
        ExpressionAttributeNames: { '#found': 'found' },
        ExpressionAttributeValues: { ':id': claim.confirmationId },
      }),
    ),
  );
}
