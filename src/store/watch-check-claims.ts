import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { WATCH_SLICE, type WatchSliceClaim } from '../domain/ports/watch.ts';
import { ITEM_TYPE, keys } from './keys.ts';
import { WatchCheckClaimSchema } from './schemas.ts';
import { DAY_SECONDS, epochSeconds, parseItem, type StoreContext, unlessConditionFailed } from './support.ts';

/**
 * The claims of a channel's watch checks, one item per check id, run a slice at a time: a slice is
 * claimed by one caller, held for `WATCH_SLICE.leaseMs`, then handed on (the next number may start)
 * or done (nothing starts again). A claim past its lease belongs to a slice that died: the queue's
 * re-delivery of that slice, or the hourly run, takes the check over; the accounts the dead slice
 * stored are skipped (their `checkedIn`).
 */

/** A check's claim outlives the re-deliveries of its queue message (SQS keeps a message up to days). */
export const WATCH_CHECK_CLAIM_RETENTION_SECONDS = 4 * DAY_SECONDS;

const NAMES = { '#owner': 'owner', '#state': 'state', '#lease': 'leaseUntil' };

/** Who may take slice `slice` (null: the hourly run's, whichever is next). */
const takeOverCondition = (slice: number | null) =>
  slice === null
    ? 'attribute_not_exists(pk) OR (#state IN (:running, :handed) AND #lease < :now)'
    : 'attribute_not_exists(pk) OR (#state = :handed AND #slice = :previous) OR ' +
      '(#state = :running AND #slice = :slice AND #lease < :now)';

export async function claimCheck(
  context: StoreContext,
  teamId: string,
  channelId: string,
  checkId: string,
  slice: number | null,
): Promise<WatchSliceClaim | null> {
  const { client, tableName } = context;
  const at = context.now();
  const owner = randomUUID();
  const key = keys.watchCheckClaim(teamId, channelId, checkId);
  const claimed = await unlessConditionFailed(() =>
    client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: key,
        ConditionExpression: takeOverCondition(slice),
        UpdateExpression:
          'SET #type = :type, teamId = :team, channelId = :channel, checkId = :check, #owner = :owner, ' +
          'claimedAt = :at, expiresAt = :expires, #state = :running, #lease = :lease, ' +
          (slice === null ? '#slice = if_not_exists(#slice, :minusOne) + :one' : '#slice = :slice'),
        ExpressionAttributeNames: { ...NAMES, '#slice': 'slice', '#type': 'type' },
        ExpressionAttributeValues: {
          ':type': ITEM_TYPE.watchCheckClaim,
          ':team': teamId,
          ':channel': channelId,
          ':check': checkId,
          ':owner': owner,
          ':at': at.toISOString(),
          ':expires': epochSeconds(at) + WATCH_CHECK_CLAIM_RETENTION_SECONDS,
          ':running': 'running',
          ':now': at.toISOString(),
          ':lease': new Date(at.getTime() + WATCH_SLICE.leaseMs).toISOString(),
          ...(slice === null
            ? { ':handed': 'handed-on', ':minusOne': -1, ':one': 1 }
            : { ':handed': 'handed-on', ':slice': slice, ':previous': slice - 1 }),
        },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  const claimOf = (item: Record<string, unknown>) => {
    const held = parseItem(WatchCheckClaimSchema, 'watch check claim', item);
    return { owner: held.owner, slice: held.slice, paidLookups: held.paidLookups };
  };
  if (claimed?.Attributes) return claimOf(claimed.Attributes);
  // Its own write retried by the SDK is still its.
  const { Item } = await client.send(
    new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }),
  );
  const held = Item && claimOf(Item);
  return held && held.owner === owner ? held : null;
}

/** One conditional update of a claim `owner` holds (nothing when another holds it now). */
async function updateOwned(
  { client, tableName }: StoreContext,
  claim: { teamId: string; channelId: string; checkId: string; owner: string },
  update: string,
  values: Record<string, unknown>,
  condition = '#owner = :owner',
) {
  await unlessConditionFailed(() =>
    client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.watchCheckClaim(claim.teamId, claim.channelId, claim.checkId),
        ConditionExpression: condition,
        UpdateExpression: update,
        ExpressionAttributeNames: NAMES,
        ExpressionAttributeValues: { ':owner': claim.owner, ...values },
      }),
    ),
  );
}

/**
 * Gives a running slice back (its lease ended now), so the retry of that slice, or the hourly run,
 * takes it at once; only its owner's, never another caller's.
 */
export const releaseCheck = (
  context: StoreContext,
  teamId: string,
  channelId: string,
  checkId: string,
  owner: string,
) =>
  updateOwned(
    context,
    { teamId, channelId, checkId, owner },
    'SET #lease = :past',
    { ':past': new Date(0).toISOString(), ':running': 'running' },
    '#owner = :owner AND #state = :running',
  );

/**
 * A slice is over, its paid look-ups added to the check's. `more`: handed on; its continuation takes
 * it, or, if none came within the lease (a lost message, an inline run out of time), the hourly run.
 * `done`: the check is complete.
 */
export const endSlice = (
  context: StoreContext,
  teamId: string,
  channelId: string,
  checkId: string,
  owner: string,
  { next, paidLookups }: { next: 'more' | 'done'; paidLookups: number },
) =>
  updateOwned(
    context,
    { teamId, channelId, checkId, owner },
    'SET #state = :state, #lease = :lease, paidLookups = if_not_exists(paidLookups, :zero) + :paid',
    {
      ':state': next === 'more' ? 'handed-on' : 'done',
      ':lease': new Date(context.now().getTime() + WATCH_SLICE.leaseMs).toISOString(),
      ':zero': 0,
      ':paid': paidLookups,
    },
  );
