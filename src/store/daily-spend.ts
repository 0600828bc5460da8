import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '../errors.ts';
import { ITEM_TYPE, keys } from './keys.ts';
import { DailySpendSchema } from './schemas.ts';
import {
  DAY_SECONDS,
  epochSeconds,
  isConditionalCheckFailed,
  parseItem,
  type StoreDeps,
  systemClock,
} from './support.ts';

export type ReserveResult = { ok: true } | { ok: false; remaining: number };

export type DailySpendRepository = ReturnType<typeof createDailySpendRepository>;

/**
 * Credits committed per workspace and UTC day, for the daily cap. A reservation is one conditional
 * update, so two confirmations racing for the last credits under the cap cannot both pass.
 */
export function createDailySpendRepository({ client, tableName, now = systemClock }: StoreDeps) {
  const spent = async (teamId: string, day: string): Promise<number> => {
    const { Item } = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.dailySpend(teamId, day) }),
    );
    return Item ? parseItem(DailySpendSchema, 'daily spend', Item).credits : 0;
  };

  const add = (teamId: string, day: string, credits: number, condition?: { limit: number }) =>
    client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.dailySpend(teamId, day),
        UpdateExpression:
          'SET #type = :type, teamId = :team, #day = :day, expiresAt = :ttl ADD credits :credits',
        ...(condition ? { ConditionExpression: 'attribute_not_exists(credits) OR credits <= :limit' } : {}),
        ExpressionAttributeNames: { '#type': 'type', '#day': 'day' },
        ExpressionAttributeValues: {
          ':type': ITEM_TYPE.dailySpend,
          ':team': teamId,
          ':day': day,
          ':ttl': epochSeconds(now()) + 3 * DAY_SECONDS,
          ':credits': credits,
          ...(condition ? { ':limit': condition.limit } : {}),
        },
      }),
    );

  return {
    spent,

    /** Commits `credits` under `cap` for the day, or says how much is left. */
    async reserve(teamId: string, day: string, credits: number, cap: number): Promise<ReserveResult> {
      if (credits < 0 || cap < 0) throw new ValidationError('credits and cap must not be negative');
      if (credits > cap) return { ok: false, remaining: Math.max(0, cap - (await spent(teamId, day))) };
      try {
        await add(teamId, day, credits, { limit: cap - credits });
        return { ok: true };
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        return { ok: false, remaining: Math.max(0, cap - (await spent(teamId, day))) };
      }
    },

    /** Corrects a reservation once the real charge is known (negative to give credits back). */
    async adjust(teamId: string, day: string, delta: number): Promise<void> {
      if (delta !== 0) await add(teamId, day, delta);
    },
  };
}
