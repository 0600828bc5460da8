import { UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '../platform/errors.ts';
import { DUE_KIND, ITEM_TYPE, keys } from './keys.ts';
import { registerScheduledWork } from './scheduled-work.ts';
import { type WatchSettings, WatchSettingsSchema } from '../domain/ports/records.ts';
import { getItem, parseItem, queryTeamDueKind, type StoreContext, unlessConditionFailed } from './support.ts';
import { TABLE_KEYS } from './table.ts';

/**
 * A channel's watch settings (on/off, budget and month's spend, revision, next check) and the claims
 * of its checks; its accounts are in `watch-lists.ts`, which builds the repository from both.
 */

export const parseSettings = (item: Record<string, unknown>) =>
  parseItem(WatchSettingsSchema, 'watch settings', item);

export const settings = (context: StoreContext, teamId: string, channelId: string) =>
  getItem(context, keys.watchSettings(teamId, channelId), parseSettings);

/** One update of the channel's settings (`Key` and `TableName` filled in), answered with the new settings. */
async function updateSettings(
  { client, tableName }: StoreContext,
  teamId: string,
  channelId: string,
  update: Omit<UpdateCommandInput, 'TableName' | 'Key' | 'ReturnValues'>,
): Promise<WatchSettings> {
  const { Attributes } = await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.watchSettings(teamId, channelId),
      ...update,
      ReturnValues: 'ALL_NEW',
    }),
  );
  if (!Attributes) throw new Error('DynamoDB returned no attributes for an update with ALL_NEW');
  return parseSettings(Attributes);
}

/**
 * Creates the channel's settings (on, budget 0) or raises their revision, with `budget` set too. With
 * `checkNow`, a watch that is on is due at once (a changed watch is checked at once); one that is off
 * stays out of the due indexes. The workspace is registered for scheduled work first.
 */
export async function touchSettings(
  context: StoreContext,
  teamId: string,
  channelId: string,
  { checkNow, budget }: { checkNow: boolean; budget?: { credits: number; setBy: string } },
): Promise<WatchSettings> {
  await registerScheduledWork(context, teamId);
  const now = context.now().toISOString();
  const next = checkNow ? ':now' : 'if_not_exists(nextCheckAt, :now)';
  const base =
    'SET #type = :type, teamId = :team, channelId = :channel, #status = if_not_exists(#status, :on), ' +
    `budgetCredits = ${budget ? ':budget, budgetSetBy = :setBy' : 'if_not_exists(budgetCredits, :zero)'}, ` +
    'spentCredits = if_not_exists(spentCredits, :zero), createdAt = if_not_exists(createdAt, :now), updatedAt = :now, ' +
    `revision = if_not_exists(revision, :zero) + :one, nextCheckAt = ${next}`;
  const update = (due: boolean) =>
    updateSettings(context, teamId, channelId, {
      UpdateExpression: due ? `${base}, #kind = :kind, #at = ${next}` : base,
      ...(due ? { ConditionExpression: 'attribute_not_exists(#status) OR #status = :on' } : {}),
      ExpressionAttributeNames: {
        '#type': 'type',
        '#status': 'status',
        ...(due ? { '#kind': TABLE_KEYS.dueKind, '#at': TABLE_KEYS.dueAt } : {}),
      },
      ExpressionAttributeValues: {
        ':type': ITEM_TYPE.watchSettings,
        ':team': teamId,
        ':channel': channelId,
        ':on': 'on',
        ':zero': 0,
        ':one': 1,
        ':now': now,
        ...(due ? { ':kind': DUE_KIND.watch } : {}),
        ...(budget ? { ':budget': budget.credits, ':setBy': budget.setBy } : {}),
      },
    });
  // A watch that is off stays out of the due indexes.
  return (await unlessConditionFailed(() => update(true))) ?? update(false);
}

export async function setBudget(
  context: StoreContext,
  teamId: string,
  channelId: string,
  credits: number,
  setBy: string,
) {
  if (!Number.isInteger(credits) || credits < 0)
    throw new ValidationError(`A watch budget is a whole number of credits, 0 or more: ${credits}`);
  return touchSettings(context, teamId, channelId, {
    checkNow: false,
    budget: { credits, setBy },
  });
}

/** Turns the watch on (checked at once) or off (out of the due indexes); null when the channel has none. */
export async function setStatus(
  context: StoreContext,
  teamId: string,
  channelId: string,
  status: 'on' | 'off',
) {
  const now = context.now().toISOString();
  return unlessConditionFailed(() =>
    updateSettings(context, teamId, channelId, {
      ConditionExpression: 'attribute_exists(pk)',
      UpdateExpression:
        status === 'on'
          ? 'SET #status = :status, updatedAt = :now, nextCheckAt = :now, #kind = :kind, #at = :now ADD revision :one'
          : 'SET #status = :status, updatedAt = :now REMOVE #kind, #at ADD revision :one',
      ExpressionAttributeNames: { '#status': 'status', '#kind': TABLE_KEYS.dueKind, '#at': TABLE_KEYS.dueAt },
      ExpressionAttributeValues: {
        ':status': status,
        ':now': now,
        ':one': 1,
        ...(status === 'on' ? { ':kind': DUE_KIND.watch } : {}),
      },
    }),
  );
}

/**
 * Records a check: its next one is `nextCheckAt` only while the watch is on at the revision the check
 * read (a change meanwhile keeps it due at once); otherwise only `lastCheckAt` is written.
 */
export async function checked(
  context: StoreContext,
  { teamId, channelId, revision }: Pick<WatchSettings, 'teamId' | 'channelId' | 'revision'>,
  { checkedAt, nextCheckAt }: { checkedAt: Date; nextCheckAt: Date },
): Promise<WatchSettings | null> {
  const next = nextCheckAt.toISOString();
  const rescheduled = await unlessConditionFailed(() =>
    updateSettings(context, teamId, channelId, {
      ConditionExpression: 'revision = :revision AND #status = :on',
      UpdateExpression: 'SET lastCheckAt = :checked, nextCheckAt = :next, #at = :next',
      ExpressionAttributeNames: { '#status': 'status', '#at': TABLE_KEYS.dueAt },
      ExpressionAttributeValues: {
        ':revision': revision,
        ':on': 'on',
        ':checked': checkedAt.toISOString(),
        ':next': next,
      },
    }),
  );
  return (
    rescheduled ??
    unlessConditionFailed(() =>
      updateSettings(context, teamId, channelId, {
        ConditionExpression: 'attribute_exists(pk)',
        UpdateExpression: 'SET lastCheckAt = :checked',
        ExpressionAttributeValues: { ':checked': checkedAt.toISOString() },
      }),
    )
  );
}

/**
 * Takes `credits` from the month's budget in one conditional write, so two checks never spend past
 * it: added to this month's spend while it stays within `budget` (the budget the caller read, still
 * set), or the month's first spend.
 */
export async function reserveSpend(
  context: StoreContext,
  teamId: string,
  channelId: string,
  { month, credits, budget }: { month: string; credits: number; budget: number },
): Promise<boolean> {
  if (!Number.isInteger(credits) || credits <= 0 || credits > budget) return false;
  const names = { '#month': 'spentMonth' };
  const addToMonth = () =>
    unlessConditionFailed(() =>
      updateSettings(context, teamId, channelId, {
        ConditionExpression: '#month = :month AND budgetCredits = :budget AND spentCredits <= :most',
        UpdateExpression: 'SET spentCredits = spentCredits + :credits',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: {
          ':month': month,
          ':budget': budget,
          ':most': budget - credits,
          ':credits': credits,
        },
      }),
    );
  if ((await addToMonth()) !== null) return true;
  const startMonth = () =>
    unlessConditionFailed(() =>
      updateSettings(context, teamId, channelId, {
        ConditionExpression: '(attribute_not_exists(#month) OR #month < :month) AND budgetCredits = :budget',
        UpdateExpression: 'SET #month = :month, spentCredits = :credits',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':month': month, ':budget': budget, ':credits': credits },
      }),
    );
  if ((await startMonth()) !== null) return true;
  // Another check started the month first: add to its spend.
  return (await addToMonth()) !== null;
}

/** Gives back reserved credits the look-up did not spend (it found nothing), within the same month. */
export async function releaseSpend(
  context: StoreContext,
  teamId: string,
  channelId: string,
  { month, credits }: { month: string; credits: number },
): Promise<void> {
  await unlessConditionFailed(() =>
    updateSettings(context, teamId, channelId, {
      ConditionExpression: 'spentMonth = :month AND spentCredits >= :credits',
      UpdateExpression: 'SET spentCredits = spentCredits - :credits',
      ExpressionAttributeValues: { ':month': month, ':credits': credits },
    }),
  );
}

/**
 * A team's watches that are on (the Home's list, forgetting a workspace): its own part of the team-due
 * index, where only watches that are on are.
 */
export async function onForTeam(context: StoreContext, teamId: string): Promise<WatchSettings[]> {
  return (await queryTeamDueKind(context, DUE_KIND.watch, teamId)).map(parseSettings);
}
