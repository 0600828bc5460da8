import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DigestRun, DigestSchedule } from '../domain/ports/index.ts';
import { LOCAL_DATE_PATTERN } from '../time/local-time.ts';
import { ValidationError } from '../platform/errors.ts';
import { DUE_KIND, ITEM_TYPE, keys } from './keys.ts';
import { registerScheduledWork } from './scheduled-work.ts';
import {
  type DigestFilters,
  DigestFiltersSchema,
  type DigestSubscription,
  DigestSubscriptionSchema,
} from '../domain/ports/records.ts';
import { type DigestDayClaim, DigestDayClaimSchema } from './schemas.ts';
import {
  DAY_SECONDS,
  epochSeconds,
  getItem,
  isConditionalCheckFailed,
  parseItem,
  queryDue,
  queryTeamDue,
  queryDueKind,
  type StoreContext,
  storeContext,
  type StoreDeps,
} from './support.ts';
import { TABLE_KEYS } from './table.ts';

/** A day claim only has to outlive the day it is for, in every zone, plus the retries of later runs. */
export const DIGEST_DAY_CLAIM_RETENTION_SECONDS = 4 * DAY_SECONDS;

export interface DigestSubscriptionInput {
  teamId: string;
  channelId: string;
  /** Local time of day, `HH:MM`. */
  time: string;
  /** IANA zone, e.g. `Europe/Berlin`. */
  timeZone: string;
  filters: DigestFilters;
  createdBy: string;
  /** The first run, as the domain computes it from `time` and `timeZone`. */
  nextRunAt: Date;
}

const parse = (item: Record<string, unknown>) =>
  parseItem(DigestSubscriptionSchema, 'digest subscription', item);

const get = (context: StoreContext, teamId: string, channelId: string) =>
  getItem(context, keys.digestSubscription(teamId, channelId), parse);

/**
 * Creates or replaces the channel's subscription (one per channel), active, first due at
 * `nextRunAt`. `createdAt` survives a replacement.
 */
async function put(context: StoreContext, input: DigestSubscriptionInput): Promise<DigestSubscription> {
  const { client, tableName, now } = context;
  const next = input.nextRunAt.toISOString();
  await registerScheduledWork(context, input.teamId);
  const { Attributes } = await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.digestSubscription(input.teamId, input.channelId),
      UpdateExpression:
        'SET #type = :type, teamId = :teamId, channelId = :channelId, #time = :time, #zone = :zone, ' +
        'filters = :filters, createdBy = :createdBy, createdAt = if_not_exists(createdAt, :now), ' +
        'updatedAt = :now, #status = :active, nextRunAt = :next, #kind = :kind, #at = :next ' +
        'REMOVE disabledReason, disabledAt',
      ExpressionAttributeNames: {
        '#type': 'type',
        '#time': 'time',
        '#zone': 'timeZone',
        '#status': 'status',
        '#kind': TABLE_KEYS.dueKind,
        '#at': TABLE_KEYS.dueAt,
      },
      ExpressionAttributeValues: {
        ':type': ITEM_TYPE.digestSubscription,
        ':teamId': input.teamId,
        ':channelId': input.channelId,
        ':time': input.time,
        ':zone': input.timeZone,
        ':filters': DigestFiltersSchema.parse(input.filters),
        ':createdBy': input.createdBy,
        ':now': now().toISOString(),
        ':active': 'active',
        ':next': next,
        ':kind': DUE_KIND.digest,
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  if (!Attributes) throw new Error('DynamoDB returned no attributes for an update with ALL_NEW');
  return parse(Attributes);
}

/** Removes the subscription; true when there was one. */
async function remove(
  { client, tableName }: StoreContext,
  teamId: string,
  channelId: string,
): Promise<boolean> {
  const { Attributes } = await client.send(
    new DeleteCommand({
      TableName: tableName,
      Key: keys.digestSubscription(teamId, channelId),
      ReturnValues: 'ALL_OLD',
    }),
  );
  return Attributes !== undefined;
}

/**
 * One conditional write, on the status and on the time and zone `nextRunAt` was computed from: when
 * a concurrent `put` changed them, its `nextRunAt` stands.
 */
async function advance(
  context: StoreContext,
  { teamId, channelId, time, timeZone }: DigestSchedule,
  { ranAt, nextRunAt }: DigestRun,
): Promise<DigestSubscription | null> {
  const { client, tableName } = context;
  const next = nextRunAt.toISOString();
  try {
    const { Attributes } = await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.digestSubscription(teamId, channelId),
        ConditionExpression: '#status = :active AND #time = :time AND #zone = :zone',
        UpdateExpression: 'SET nextRunAt = :next, #at = :next, lastRunAt = :ran',
        ExpressionAttributeNames: {
          '#status': 'status',
          '#time': 'time',
          '#zone': 'timeZone',
          '#at': TABLE_KEYS.dueAt,
        },
        ExpressionAttributeValues: {
          ':active': 'active',
          ':time': time,
          ':zone': timeZone,
          ':next': next,
          ':ran': ranAt.toISOString(),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes ? parse(Attributes) : null;
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
  const latest = await get(context, teamId, channelId);
  return latest?.status === 'active' ? latest : null;
}

/** Stops the subscription (e.g. the bot left the channel): kept for the record, never due again. */
async function disable(
  { client, tableName, now }: StoreContext,
  teamId: string,
  channelId: string,
  reason: string,
): Promise<boolean> {
  try {
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.digestSubscription(teamId, channelId),
        ConditionExpression: 'attribute_exists(pk)',
        UpdateExpression:
          'SET #status = :disabled, disabledReason = :reason, disabledAt = :now REMOVE #kind, #at',
        ExpressionAttributeNames: {
          '#status': 'status',
          '#kind': TABLE_KEYS.dueKind,
          '#at': TABLE_KEYS.dueAt,
        },
        ExpressionAttributeValues: {
          ':disabled': 'disabled',
          ':reason': reason,
          ':now': now().toISOString(),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/** A conditional put of the day's claim, kept (TTL) until the day is over in every zone. */
async function claimDay(
  { client, tableName, now }: StoreContext,
  teamId: string,
  channelId: string,
  localDate: string,
): Promise<boolean> {
  if (!LOCAL_DATE_PATTERN.test(localDate)) {
    throw new ValidationError(`Not a date (YYYY-MM-DD): ${JSON.stringify(localDate)}`);
  }
  const at = now();
  const claim = DigestDayClaimSchema.parse({
    type: ITEM_TYPE.digestDayClaim,
    teamId,
    channelId,
    localDate,
    claimedAt: at.toISOString(),
    expiresAt: epochSeconds(at) + DIGEST_DAY_CLAIM_RETENTION_SECONDS,
  } satisfies DigestDayClaim);
  try {
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.digestDayClaim(teamId, channelId, localDate), ...claim },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/** A team's active digests (a disabled one leaves the due index), in no particular order. */
async function activeForTeam(context: StoreContext, teamId: string): Promise<DigestSubscription[]> {
  const items = await queryDueKind(context, DUE_KIND.digest, {
    filter: 'teamId = :team AND #status = :active',
    names: { '#status': 'status' },
    values: { ':team': teamId, ':active': 'active' },
  });
  return items.map(parse);
}

export function createDigestSubscriptionRepository(deps: StoreDeps) {
  const context = storeContext(deps);
  return {
    put: (input: DigestSubscriptionInput) => put(context, input),
    get: (teamId: string, channelId: string) => get(context, teamId, channelId),
    delete: (teamId: string, channelId: string) => remove(context, teamId, channelId),
    due: async (query: { now: Date; limit: number }) =>
      (await queryDue(context, DUE_KIND.digest, query)).map(parse),
    /** One workspace's due items, earliest first (the scheduled runs read each workspace apart). */
    dueIn: async (teamId: string, query: { now: Date; limit: number }) =>
      (await queryTeamDue(context, DUE_KIND.digest, teamId, query)).map(parse),
    advance: (subscription: DigestSchedule, run: DigestRun) => advance(context, subscription, run),
    disable: (teamId: string, channelId: string, reason: string) =>
      disable(context, teamId, channelId, reason),
    claimDay: (teamId: string, channelId: string, localDate: string) =>
      claimDay(context, teamId, channelId, localDate),
    activeForTeam: (teamId: string) => activeForTeam(context, teamId),
  };
}
