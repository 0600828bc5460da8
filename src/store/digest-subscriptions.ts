import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  isValidTimeZone,
  LOCAL_DATE_PATTERN,
  LOCAL_TIME_PATTERN,
  nextOccurrence,
} from '../domain/local-time.ts';
import { ValidationError } from '../errors.ts';
import { DUE_KIND, ITEM_TYPE, keys } from './keys.ts';
import {
  type DigestDayClaim,
  DigestDayClaimSchema,
  type DigestFilters,
  DigestFiltersSchema,
  type DigestSubscription,
  DigestSubscriptionSchema,
} from './schemas.ts';
import {
  assertLimit,
  DAY_SECONDS,
  epochSeconds,
  isConditionalCheckFailed,
  parseItem,
  queryDue,
  type StoreDeps,
  systemClock,
} from './support.ts';
import { TABLE_KEYS } from './table.ts';

export type { DigestDayClaim, DigestFilters, DigestSubscription } from './schemas.ts';

/** A day claim only has to outlive the day it is for, in every zone, plus the hourly retries. */
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
}

export type DigestSubscriptionRepository = ReturnType<typeof createDigestSubscriptionRepository>;

export function createDigestSubscriptionRepository({ client, tableName, now = systemClock }: StoreDeps) {
  const parse = (item: Record<string, unknown>) =>
    parseItem(DigestSubscriptionSchema, 'digest subscription', item);

  async function get(teamId: string, channelId: string): Promise<DigestSubscription | null> {
    const { Item } = await client.send(
      new GetCommand({
        TableName: tableName,
        Key: keys.digestSubscription(teamId, channelId),
        ConsistentRead: true,
      }),
    );
    return Item ? parse(Item) : null;
  }

  return {
    /**
     * Creates or replaces the channel's subscription (one per channel), active, first due at the
     * next occurrence of `time` in `timeZone`. `createdAt` survives a replacement.
     */
    async put(input: DigestSubscriptionInput): Promise<DigestSubscription> {
      if (!LOCAL_TIME_PATTERN.test(input.time)) {
        throw new ValidationError(`Not a time of day (HH:MM): ${JSON.stringify(input.time)}`);
      }
      if (!isValidTimeZone(input.timeZone)) {
        throw new ValidationError(`Unknown time zone: ${JSON.stringify(input.timeZone)}`);
      }
      const filters = DigestFiltersSchema.parse(input.filters);
      const at = now();
      const nextRunAt = nextOccurrence(input.time, input.timeZone, at).toISOString();
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
            ':filters': filters,
            ':createdBy': input.createdBy,
            ':now': at.toISOString(),
            ':active': 'active',
            ':next': nextRunAt,
            ':kind': DUE_KIND.digest,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      if (!Attributes) throw new Error('DynamoDB returned no attributes for an update with ALL_NEW');
      return parse(Attributes);
    },

    get,

    /** Removes the subscription; true when there was one. */
    async delete(teamId: string, channelId: string): Promise<boolean> {
      const { Attributes } = await client.send(
        new DeleteCommand({
          TableName: tableName,
          Key: keys.digestSubscription(teamId, channelId),
          ReturnValues: 'ALL_OLD',
        }),
      );
      return Attributes !== undefined;
    },

    /** Active subscriptions whose next run is at or before `now`, earliest first (eventually consistent). */
    async due({ now: at, limit }: { now: Date; limit: number }): Promise<DigestSubscription[]> {
      assertLimit(limit);
      const items = await queryDue(client, tableName, DUE_KIND.digest, at, limit);
      return items.map(parse);
    },

    /**
     * Moves an active subscription to its next local occurrence strictly after `at`, and records the
     * run. Returns null when it is gone or disabled. Guarded on the time and zone it was computed
     * from, so a concurrent `put` that changed them wins.
     */
    async advance(teamId: string, channelId: string, at: Date): Promise<DigestSubscription | null> {
      const current = await get(teamId, channelId);
      if (current?.status !== 'active') return null;
      const next = nextOccurrence(current.time, current.timeZone, at).toISOString();
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
              ':time': current.time,
              ':zone': current.timeZone,
              ':next': next,
              ':ran': at.toISOString(),
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return Attributes ? parse(Attributes) : null;
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
      }
      const latest = await get(teamId, channelId);
      return latest?.status === 'active' ? latest : null;
    },

    /** Stops the subscription (e.g. the bot left the channel): kept for the record, never due again. */
    async disable(teamId: string, channelId: string, reason: string): Promise<boolean> {
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
    },

    /** One digest per channel per local day: true for exactly one caller per `localDate`. */
    async claimDay(teamId: string, channelId: string, localDate: string): Promise<boolean> {
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
    },
  };
}
