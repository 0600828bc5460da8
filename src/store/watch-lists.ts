import { BatchWriteCommand, DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type {
  AddAccountsResult,
  PaidLookupClaim,
  WatchCandidate,
  WatchAccountInput,
  WatchAccountPage,
  WatchChoice,
  WatchLookupOutcome,
} from '../domain/ports/index.ts';
import { WATCH_LIMITS } from '../domain/ports/index.ts';
import { ValidationError } from '../platform/errors.ts';
import { DUE_KIND, ITEM_TYPE, keys } from './keys.ts';
import { type WatchAccount, WatchAccountSchema, type WatchSettings } from '../domain/ports/records.ts';
import {
  parseItem,
  queryDue,
  queryItems,
  queryTeamDue,
  getItem,
  type StoreContext,
  storeContext,
  unlessConditionFailed,
  type StoreDeps,
} from './support.ts';
import {
  checked,
  onForTeam,
  parseSettings,
  releaseSpend,
  reserveSpend,
  setBudget,
  setStatus,
  settings,
  touchSettings,
} from './watch-settings.ts';
import { claimPaidLookup, paidLookup, paidLookupFound, releasePaidLookup } from './watch-paid-lookups.ts';
import { claimCheck, endSlice, releaseCheck } from './watch-check-claims.ts';

/** DynamoDB's batch write takes at most 25 items. */
const BATCH_SIZE = 25;

const parseAccount = (item: Record<string, unknown>) =>
  parseItem(WatchAccountSchema, 'watched account', item);

const accountSk = (key: string) => `${keys.watchAccountPrefix}${key}`;

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
  condition?: string,
): Promise<WatchAccount | null> {
  return unlessConditionFailed(async () => {
    const { Attributes } = await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.watchAccount(account.teamId, account.channelId, account.key),
        ConditionExpression: condition ? `attribute_exists(pk) AND ${condition}` : 'attribute_exists(pk)',
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

const account = (context: StoreContext, teamId: string, channelId: string, key: string) =>
  getItem(context, keys.watchAccount(teamId, channelId, key), parseAccount);

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

/**
 * The candidates part of saving a look-up: an ambiguous account's candidates, or a not-found one's
 * near matches, kept (set when found, dropped once resolved); a resolved one's company name set.
 * `remove` names the attribute to drop, if any.
 */
function candidatesUpdate(outcome: WatchLookupOutcome): { set: string; remove: string; values: object } {
  if (outcome.resolution === 'resolved') {
    const { companyName } = outcome;
    if (!companyName) return { set: '', remove: 'candidates', values: {} };
    return {
      set: ', companyName = :companyName',
      remove: 'candidates',
      values: { ':companyName': companyName },
    };
  }
  if (!outcome.candidates) return { set: '', remove: '', values: {} };
  const candidates = WatchAccountSchema.shape.candidates.parse(outcome.candidates);
  return { set: ', candidates = :candidates', remove: '', values: { ':candidates': candidates } };
}

/**
 * Stores what a look-up found (the told state replaced whole); false when the account was removed
 * meanwhile, or when a user chose its exhibitor meanwhile and this outcome would undo that.
 */
async function saveLookup(
  context: StoreContext,
  teamId: string,
  channelId: string,
  key: string,
  outcome: WatchLookupOutcome,
): Promise<boolean> {
  const told = WatchAccountSchema.shape.told.parse(outcome.told);
  const candidates = candidatesUpdate(outcome);
  const nameSearch = outcome.nameSearch && WatchAccountSchema.shape.nameSearch.parse(outcome.nameSearch);
  const removed = [candidates.remove, nameSearch ? '' : 'nameSearch'].filter(Boolean).join(', ');
  const checkedIn = outcome.checkedIn ? { ':checkedIn': outcome.checkedIn } : {};
  const updated = await updateAccount(
    context,
    { teamId, channelId, key },
    `SET resolution = :resolution, exhibitorIds = :ids, told = :told, toldAt = :now${candidates.set}` +
      (nameSearch ? ', nameSearch = :nameSearch' : '') +
      (outcome.checkedIn ? ', checkedIn = :checkedIn' : '') +
      (removed ? ` REMOVE ${removed}` : ''),
    {
      ':resolution': outcome.resolution,
      ':ids': outcome.exhibitorIds,
      ':told': told,
      ':now': context.now().toISOString(),
      ...candidates.values,
      ...(nameSearch ? { ':nameSearch': nameSearch } : {}),
      ...checkedIn,
    },
    outcome.resolution === 'resolved' ? undefined : 'attribute_not_exists(chosenBy)',
  );
  return updated !== null;
}

/** A user's choice among an ambiguous account's candidates (only while it is ambiguous with that one), or a not-found one's near matches. */
async function chooseExhibitor(
  context: StoreContext,
  teamId: string,
  channelId: string,
  key: string,
  choice: WatchChoice,
): Promise<WatchAccount | null> {
  const now = context.now().toISOString();
  return updateAccount(
    context,
    { teamId, channelId, key },
    'SET resolution = :resolved, exhibitorIds = :ids, told = :told, toldAt = :now, chosenBy = :user, chosenAt = :now' +
      (choice.companyName ? ', companyName = :companyName' : '') +
      ' REMOVE candidates',
    {
      ':resolved': 'resolved',
      ':ambiguous': 'ambiguous',
      ':notFound': 'not-found',
      ':id': choice.exhibitorId,
      ...(choice.companyName ? { ':companyName': choice.companyName } : {}),
      ':ids': [choice.exhibitorId],
      ':told': WatchAccountSchema.shape.told.parse(choice.told),
      ':user': choice.chosenBy,
      ':now': now,
    },
    // A near match is offered only to an account still not found (the job checks it is one it keeps).
    '((resolution = :ambiguous AND contains(exhibitorIds, :id)) OR (resolution = :notFound AND attribute_exists(candidates)))',
  );
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
    chooseExhibitor: (teamId: string, channelId: string, key: string, choice: WatchChoice) =>
      chooseExhibitor(context, teamId, channelId, key, choice),
    setMuted: (teamId: string, channelId: string, key: string, muted: boolean) =>
      setMuted(context, teamId, channelId, key, muted),
    paidLookup: (teamId: string, key: string, month: string) => paidLookup(context, teamId, key, month),
    claimPaidLookup: (claim: PaidLookupClaim) => claimPaidLookup(context, claim),
    paidLookupFound: (claim: Omit<PaidLookupClaim, 'channelId'>, found: WatchCandidate[]) =>
      paidLookupFound(context, claim, found),
    releasePaidLookup: (claim: Omit<PaidLookupClaim, 'channelId'>) => releasePaidLookup(context, claim),
    setBudget: (teamId: string, channelId: string, credits: number, setBy: string) =>
      setBudget(context, teamId, channelId, credits, setBy),
    setStatus: (teamId: string, channelId: string, status: 'on' | 'off') =>
      setStatus(context, teamId, channelId, status),
    checked: (
      watch: Pick<WatchSettings, 'teamId' | 'channelId' | 'revision'>,
      run: { checkedAt: Date; nextCheckAt: Date },
    ) => checked(context, watch, run),
    claimCheck: (teamId: string, channelId: string, checkId: string, slice: number | null = null) =>
      claimCheck(context, teamId, channelId, checkId, slice),
    releaseCheck: (teamId: string, channelId: string, checkId: string, owner: string) =>
      releaseCheck(context, teamId, channelId, checkId, owner),
    endSlice: (
      teamId: string,
      channelId: string,
      checkId: string,
      owner: string,
      end: { next: 'more' | 'done'; paidLookups: number },
    ) => endSlice(context, teamId, channelId, checkId, owner, end),
    markChecked: async (teamId: string, channelId: string, key: string, checkId: string) => {
      await updateAccount(context, { teamId, channelId, key }, 'SET checkedIn = :checkId', {
        ':checkId': checkId,
      });
    },
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
