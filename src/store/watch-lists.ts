import { randomUUID } from 'node:crypto';
import {
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type {
  AddAccountsResult,
  WatchAccountInput,
  WatchAccountPage,
  WatchLookupOutcome,
} from '../domain/ports/index.ts';
import { WATCH_LIMITS } from '../domain/ports/index.ts';
import { ValidationError } from '../platform/errors.ts';
import { DUE_KIND, ITEM_TYPE, keys } from './keys.ts';
import { registerScheduledWork } from './scheduled-work.ts';
import {
  type WatchAccount,
  WatchAccountSchema,
  WatchCheckClaimSchema,
  type WatchSettings,
  WatchSettingsSchema,
} from './schemas.ts';
import {
  DAY_SECONDS,
  epochSeconds,
  isConditionalCheckFailed,
  parseItem,
  queryDue,
  queryDueKind,
  queryItems,
  queryTeamDue,
  type StoreContext,
  storeContext,
  type StoreDeps,
} from './support.ts';
import { TABLE_KEYS } from './table.ts';

/** A check's claim outlives the re-deliveries of its queue message (SQS keeps a message up to days). */
export const WATCH_CHECK_CLAIM_RETENTION_SECONDS = 4 * DAY_SECONDS;

/** DynamoDB's batch write takes at most 25 items. */
const BATCH_SIZE = 25;

const parseSettings = (item: Record<string, unknown>) =>
  parseItem(WatchSettingsSchema, 'watch settings', item);
const parseAccount = (item: Record<string, unknown>) =>
  parseItem(WatchAccountSchema, 'watched account', item);

const accountSk = (key: string) => `${keys.watchAccountPrefix}${key}`;

async function conditional<T>(write: () => Promise<T>): Promise<T | null> {
  try {
    return await write();
  } catch (error) {
    if (isConditionalCheckFailed(error)) return null;
    throw error;
  }
}

async function settings(
  { client, tableName }: StoreContext,
  teamId: string,
  channelId: string,
): Promise<WatchSettings | null> {
  const { Item } = await client.send(
    new GetCommand({
      TableName: tableName,
      Key: keys.watchSettings(teamId, channelId),
      ConsistentRead: true,
    }),
  );
  return Item ? parseSettings(Item) : null;
}

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
async function touchSettings(
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
  return (await conditional(() => update(true))) ?? update(false);
}

async function allAccounts(
  context: StoreContext,
  teamId: string,
  channelId: string,
): Promise<WatchAccount[]> {
  const items = await queryItems(context.client, {
    TableName: context.tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': keys.watchChannel(teamId, channelId),
      ':prefix': keys.watchAccountPrefix,
    },
    ConsistentRead: true,
  });
  return items.map(parseAccount);
}

/** Puts items in batches of 25, retrying what DynamoDB leaves unprocessed (throttling) with a backoff. */
async function batchPut(
  { client, tableName }: StoreContext,
  items: Record<string, unknown>[],
): Promise<void> {
  for (let start = 0; start < items.length; start += BATCH_SIZE) {
    let requests = items.slice(start, start + BATCH_SIZE).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 1; requests.length > 0; attempt++) {
      if (attempt > 8) throw new Error(`DynamoDB left ${requests.length} watched accounts unwritten`);
      if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt * Math.random()));
      const { UnprocessedItems } = await client.send(
        new BatchWriteCommand({ RequestItems: { [tableName]: requests } }),
      );
      requests = (UnprocessedItems?.[tableName] ?? []).flatMap((request) =>
        request.PutRequest?.Item ? [{ PutRequest: { Item: request.PutRequest.Item } }] : [],
      );
    }
  }
}

function newAccount(
  context: StoreContext,
  teamId: string,
  channelId: string,
  input: WatchAccountInput,
  addedBy: string,
): WatchAccount {
  return WatchAccountSchema.parse({
    type: ITEM_TYPE.watchAccount,
    teamId,
    channelId,
    key: input.key,
    label: input.label,
    kind: input.kind,
    resolution: 'pending',
    exhibitorIds: [],
    muted: false,
    addedBy,
    addedAt: context.now().toISOString(),
  } satisfies WatchAccount);
}

/** Sets an already watched account's kind as now given (`competitor:` added or dropped). */
async function setKind(context: StoreContext, account: WatchAccount, kind: WatchAccount['kind']) {
  const updated = await updateAccount(context, account, 'SET kind = :kind', { ':kind': kind });
  return updated ?? account;
}

/**
 * Adds accounts (a command's few or an import's up to 1,000): refused whole when the channel would
 * watch more than it may; new ones in batches, those already watched keep their look-ups and told
 * state (only their kind follows the input). Then the watch is due at once.
 */
async function addAccounts(
  context: StoreContext,
  teamId: string,
  channelId: string,
  inputs: WatchAccountInput[],
  addedBy: string,
): Promise<AddAccountsResult> {
  const existing = new Map(
    (await allAccounts(context, teamId, channelId)).map((account) => [account.key, account]),
  );
  const unique = new Map(inputs.map((input) => [input.key, input]));
  const fresh = [...unique.values()].filter((input) => !existing.has(input.key));
  if (existing.size + fresh.length > WATCH_LIMITS.accountsPerChannel)
    return { ok: false, reason: 'too-many', watched: existing.size, adding: fresh.length };
  const added = fresh.map((input) => newAccount(context, teamId, channelId, input, addedBy));
  await batchPut(
    context,
    added.map((account) => ({ ...keys.watchAccount(teamId, channelId, account.key), ...account })),
  );
  const alreadyWatched = await Promise.all(
    [...unique.values()].flatMap((input) => {
      const account = existing.get(input.key);
      if (!account) return [];
      return [account.kind === input.kind ? Promise.resolve(account) : setKind(context, account, input.kind)];
    }),
  );
  if (added.length > 0 || alreadyWatched.length > 0)
    await touchSettings(context, teamId, channelId, { checkNow: added.length > 0 });
  return { ok: true, added, alreadyWatched };
}

/** One update of a watched account, only while it is watched; null when it is not (nothing written). */
async function updateAccount(
  { client, tableName }: StoreContext,
  account: Pick<WatchAccount, 'teamId' | 'channelId' | 'key'>,
  expression: string,
  values: Record<string, unknown>,
): Promise<WatchAccount | null> {
  return conditional(async () => {
    const { Attributes } = await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.watchAccount(account.teamId, account.channelId, account.key),
        ConditionExpression: 'attribute_exists(pk)',
        UpdateExpression: expression,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    if (!Attributes) throw new Error('DynamoDB returned no attributes for an update with ALL_NEW');
    return parseAccount(Attributes);
  });
}

async function removeAccount(context: StoreContext, teamId: string, channelId: string, key: string) {
  const { Attributes } = await context.client.send(
    new DeleteCommand({
      TableName: context.tableName,
      Key: keys.watchAccount(teamId, channelId, key),
      ReturnValues: 'ALL_OLD',
    }),
  );
  if (!Attributes) return false;
  await touchSettings(context, teamId, channelId, { checkNow: false });
  return true;
}

async function account(
  { client, tableName }: StoreContext,
  teamId: string,
  channelId: string,
  key: string,
): Promise<WatchAccount | null> {
  const { Item } = await client.send(
    new GetCommand({
      TableName: tableName,
      Key: keys.watchAccount(teamId, channelId, key),
      ConsistentRead: true,
    }),
  );
  return Item ? parseAccount(Item) : null;
}

/** A page of accounts in key order; the cursor is the last key read (one more is read to know if more follow). */
async function accounts(
  context: StoreContext,
  teamId: string,
  channelId: string,
  { limit, cursor = null }: { limit: number; cursor?: string | null },
): Promise<WatchAccountPage> {
  if (!Number.isInteger(limit) || limit < 1) throw new ValidationError('limit must be a positive integer');
  const pk = keys.watchChannel(teamId, channelId);
  const items = await queryItems(
    context.client,
    {
      TableName: context.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': keys.watchAccountPrefix },
      ConsistentRead: true,
      ...(cursor ? { ExclusiveStartKey: { pk, sk: accountSk(cursor) } } : {}),
    },
    limit + 1,
  );
  const page = items.slice(0, limit).map(parseAccount);
  return { accounts: page, cursor: items.length > limit ? (page[page.length - 1]?.key ?? null) : null };
}

/** Stores what a look-up found (the told state replaced whole); false when the account was removed meanwhile. */
async function saveLookup(
  context: StoreContext,
  teamId: string,
  channelId: string,
  key: string,
  outcome: WatchLookupOutcome,
): Promise<boolean> {
  const told = WatchAccountSchema.shape.told.parse(outcome.told);
  const updated = await updateAccount(
    context,
    { teamId, channelId, key },
    'SET resolution = :resolution, exhibitorIds = :ids, told = :told, toldAt = :now',
    {
      ':resolution': outcome.resolution,
      ':ids': outcome.exhibitorIds,
      ':told': told,
      ':now': context.now().toISOString(),
    },
  );
  return updated !== null;
}

async function setMuted(
  context: StoreContext,
  teamId: string,
  channelId: string,
  key: string,
  muted: boolean,
) {
  return (
    (await updateAccount(context, { teamId, channelId, key }, 'SET muted = :muted', { ':muted': muted })) !==
    null
  );
}

async function setBudget(
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
async function setStatus(context: StoreContext, teamId: string, channelId: string, status: 'on' | 'off') {
  const now = context.now().toISOString();
  return conditional(() =>
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
async function checked(
  context: StoreContext,
  { teamId, channelId, revision }: Pick<WatchSettings, 'teamId' | 'channelId' | 'revision'>,
  { checkedAt, nextCheckAt }: { checkedAt: Date; nextCheckAt: Date },
): Promise<WatchSettings | null> {
  const next = nextCheckAt.toISOString();
  const rescheduled = await conditional(() =>
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
    conditional(() =>
      updateSettings(context, teamId, channelId, {
        ConditionExpression: 'attribute_exists(pk)',
        UpdateExpression: 'SET lastCheckAt = :checked',
        ExpressionAttributeValues: { ':checked': checkedAt.toISOString() },
      }),
    )
  );
}

/** The first caller of a check id gets true, every later one false (its own write retried by the SDK is still its). */
async function claimCheck(context: StoreContext, teamId: string, channelId: string, checkId: string) {
  const { client, tableName } = context;
  const at = context.now();
  const owner = randomUUID();
  const key = keys.watchCheckClaim(teamId, channelId, checkId);
  const claim = WatchCheckClaimSchema.parse({
    type: ITEM_TYPE.watchCheckClaim,
    teamId,
    channelId,
    checkId,
    owner,
    claimedAt: at.toISOString(),
    expiresAt: epochSeconds(at) + WATCH_CHECK_CLAIM_RETENTION_SECONDS,
  });
  const put = await conditional(() =>
    client.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...key, ...claim },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
  if (put) return true;
  const { Item } = await client.send(
    new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }),
  );
  return Item !== undefined && parseItem(WatchCheckClaimSchema, 'watch check claim', Item).owner === owner;
}

/**
 * Takes `credits` from the month's budget in one conditional write, so two checks never spend past
 * it: added to this month's spend while it stays within `budget` (the budget the caller read, still
 * set), or the month's first spend.
 */
async function reserveSpend(
  context: StoreContext,
  teamId: string,
  channelId: string,
  { month, credits, budget }: { month: string; credits: number; budget: number },
): Promise<boolean> {
  if (!Number.isInteger(credits) || credits <= 0 || credits > budget) return false;
  const names = { '#month': 'spentMonth' };
  const sameMonth = await conditional(() =>
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
  if (sameMonth) return true;
  const newMonth = await conditional(() =>
    updateSettings(context, teamId, channelId, {
      ConditionExpression: '(attribute_not_exists(#month) OR #month < :month) AND budgetCredits = :budget',
      UpdateExpression: 'SET #month = :month, spentCredits = :credits',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':month': month, ':budget': budget, ':credits': credits },
    }),
  );
  return newMonth !== null;
}

/** Gives back reserved credits the look-up did not spend (it found nothing), within the same month. */
async function releaseSpend(
  context: StoreContext,
  teamId: string,
  channelId: string,
  { month, credits }: { month: string; credits: number },
): Promise<void> {
  await conditional(() =>
    updateSettings(context, teamId, channelId, {
      ConditionExpression: 'spentMonth = :month AND spentCredits >= :credits',
      UpdateExpression: 'SET spentCredits = spentCredits - :credits',
      ExpressionAttributeValues: { ':month': month, ':credits': credits },
    }),
  );
}

/** A team's watches that are on (for forgetting a workspace), from the due index. */
async function onForTeam(context: StoreContext, teamId: string): Promise<WatchSettings[]> {
  const items = await queryDueKind(context, DUE_KIND.watch, {
    filter: 'teamId = :team',
    values: { ':team': teamId },
  });
  return items.map(parseSettings);
}

export function createWatchListRepository(deps: StoreDeps) {
  const context = storeContext(deps);
  return {
    settings: (teamId: string, channelId: string) => settings(context, teamId, channelId),
    addAccounts: (teamId: string, channelId: string, inputs: WatchAccountInput[], addedBy: string) =>
      addAccounts(context, teamId, channelId, inputs, addedBy),
    removeAccount: (teamId: string, channelId: string, key: string) =>
      removeAccount(context, teamId, channelId, key),
    account: (teamId: string, channelId: string, key: string) => account(context, teamId, channelId, key),
    accounts: (
      teamId: string,
      channelId: string,
      page: { limit: number; cursor?: string | null } = { limit: 50 },
    ) => accounts(context, teamId, channelId, page),
    /** Every account of the channel (a check reads them all; at most 1,000). */
    allAccounts: (teamId: string, channelId: string) => allAccounts(context, teamId, channelId),
    saveLookup: (teamId: string, channelId: string, key: string, outcome: WatchLookupOutcome) =>
      saveLookup(context, teamId, channelId, key, outcome),
    setMuted: (teamId: string, channelId: string, key: string, muted: boolean) =>
      setMuted(context, teamId, channelId, key, muted),
    setBudget: (teamId: string, channelId: string, credits: number, setBy: string) =>
      setBudget(context, teamId, channelId, credits, setBy),
    setStatus: (teamId: string, channelId: string, status: 'on' | 'off') =>
      setStatus(context, teamId, channelId, status),
    checked: (
      watch: Pick<WatchSettings, 'teamId' | 'channelId' | 'revision'>,
      run: { checkedAt: Date; nextCheckAt: Date },
    ) => checked(context, watch, run),
    claimCheck: (teamId: string, channelId: string, checkId: string) =>
      claimCheck(context, teamId, channelId, checkId),
    reserveSpend: (
      teamId: string,
      channelId: string,
      spend: { month: string; credits: number; budget: number },
    ) => reserveSpend(context, teamId, channelId, spend),
    releaseSpend: (teamId: string, channelId: string, spend: { month: string; credits: number }) =>
      releaseSpend(context, teamId, channelId, spend),
    due: async (query: { now: Date; limit: number }) =>
      (await queryDue(context, DUE_KIND.watch, query)).map(parseSettings),
    /** One workspace's due watches, earliest first (the scheduled runs read each workspace apart). */
    dueIn: async (teamId: string, query: { now: Date; limit: number }) =>
      (await queryTeamDue(context, DUE_KIND.watch, teamId, query)).map(parseSettings),
    onForTeam: (teamId: string) => onForTeam(context, teamId),
  };
}
