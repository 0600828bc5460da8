import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../platform/errors.ts';
import type { PlanContent, PlanEdit, PlanRepository } from '../domain/ports/index.ts';
import { ITEM_TYPE, type ItemKey, keys } from './keys.ts';
import { type Plan, PlanSchema } from '../domain/ports/records.ts';
import { PlanBudgetWarningSchema } from './schemas.ts';
import {
  DAY_SECONDS,
  epochSeconds,
  getItem,
  parseItem,
  queryItems,
  type StoreContext,
  type StoreDeps,
  storeContext,
  unlessConditionFailed,
} from './support.ts';

/** A warning is remembered as long as the ledger keeps the charges it counted. */
const WARNING_RETENTION_SECONDS = 400 * DAY_SECONDS;
/** Concurrent changes to one plan are few (people in one channel): a change read again this often wins. */
const UPDATE_ATTEMPTS = 8;

const parsePlan = (item: Record<string, unknown>) => parseItem(PlanSchema, 'plan', item);

/** What a change decides from: the stored plan's shows, budgets, costs, currency and money. */
const contentOf = ({
  shows,
  budgets,
  costs,
  currency,
  removed,
  creditPrice,
  moneyBudgets,
}: Plan): PlanContent => ({
  shows,
  budgets,
  ...(costs ? { costs } : {}),
  ...(currency ? { currency } : {}),
  ...(removed ? { removed } : {}),
  ...(creditPrice ? { creditPrice } : {}),
  ...(moneyBudgets ? { moneyBudgets } : {}),
});

/** The plan's optional parts, each written when a change decided it and removed when absent. */
const OPTIONAL_PARTS = ['costs', 'currency', 'removed', 'creditPrice', 'moneyBudgets'] as const;

const isPresent = (value: unknown) =>
  Array.isArray(value)
    ? value.length > 0
    : value !== undefined && (typeof value !== 'object' || Object.keys(value as object).length > 0);

/** The costs, currency, removed shows, credit price and money budgets a change decided. */
function costsUpdate(content: PlanContent) {
  const present = OPTIONAL_PARTS.filter((part) => isPresent(content[part]));
  const absent = OPTIONAL_PARTS.filter((part) => !present.includes(part));
  return {
    set: present.map((part) => `, ${part} = :${part}`).join(''),
    remove: absent.length ? ` REMOVE ${absent.join(', ')}` : '',
    values: Object.fromEntries(present.map((part) => [`:${part}`, content[part]])),
  };
}

/** Each channel's plan, one item per channel in its workspace's partition (see keys.ts). */
export function createPlanRepository(deps: StoreDeps) {
  const context = storeContext(deps);
  const { client, tableName, now } = context;

  const get = (teamId: string, channelId: string) =>
    getItem(context, keys.plan(teamId, channelId), parsePlan);

  const write = (teamId: string, channelId: string, content: PlanContent, revision: number) =>
    writePlan(context, { teamId, channelId, content, revision });

  async function update<T>(
    teamId: string,
    channelId: string,
    edit: (current: PlanContent) => PlanEdit<T>,
  ): Promise<{ result: T; plan: Plan | null }> {
    for (let attempt = 1; attempt <= UPDATE_ATTEMPTS; attempt++) {
      const plan = await get(teamId, channelId);
      const { next, result } = edit(plan ? contentOf(plan) : { shows: [], budgets: {} });
      if (!next) return { result, plan };
      const written = await write(teamId, channelId, next, plan?.revision ?? 0);
      if (written) return { result, plan: written };
    }
    throw new ConflictError(`The plan of ${channelId} kept changing under ${UPDATE_ATTEMPTS} attempts`);
  }

  return {
    get,
    update,

    async forTeam(teamId: string): Promise<Plan[]> {
      const items = await queryItems(client, {
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :channel)',
        ExpressionAttributeValues: { ':pk': keys.planPartition(teamId), ':channel': keys.planChannelPrefix },
        ConsistentRead: true,
      });
      return items.map(parsePlan);
    },

    async claimCanvas(teamId: string, channelId: string, until: Date): Promise<boolean> {
      const at = now().toISOString();
      const claimed = await unlessConditionFailed(() =>
        client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.plan(teamId, channelId),
            UpdateExpression: 'SET canvasClaimUntil = :until',
            ConditionExpression:
              'attribute_exists(pk) AND attribute_not_exists(canvasId) AND ' +
              '(attribute_not_exists(canvasClaimUntil) OR canvasClaimUntil < :now)',
            ExpressionAttributeValues: { ':until': until.toISOString(), ':now': at },
          }),
        ),
      );
      return claimed !== null;
    },

    async releaseCanvasClaim(teamId: string, channelId: string): Promise<void> {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.plan(teamId, channelId),
          UpdateExpression: 'REMOVE canvasClaimUntil',
          ConditionExpression: 'attribute_exists(pk)',
        }),
      );
    },

    saveCanvas: (teamId: string, channelId: string, canvasId: string) =>
      saveCanvas(context, keys.plan(teamId, channelId), canvasId),
    forgetCanvas: (teamId: string, channelId: string, canvasId: string) =>
      forgetCanvas(context, keys.plan(teamId, channelId), canvasId),

    claimBudgetWarning: (teamId: string, channelId: string, quarterKey: string, budgetSetAt: string) =>
      claimBudgetWarning(context, { teamId, channelId, quarterKey, budgetSetAt }),
    releaseBudgetWarning: (teamId: string, channelId: string, quarterKey: string, budgetSetAt: string) =>
      releaseBudgetWarning(context, keys.planBudgetWarning(teamId, channelId, quarterKey, budgetSetAt)),
  } satisfies PlanRepository;
}

/** Stores the canvas made under the claim (see `PlanRepository.saveCanvas`). */
async function saveCanvas({ client, tableName }: StoreContext, key: ItemKey, canvasId: string) {
  const saved = await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: key,
      UpdateExpression: 'SET canvasId = :canvas REMOVE canvasClaimUntil, canvasDeletedAt',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':canvas': canvasId },
      ReturnValues: 'UPDATED_OLD',
    }),
  );
  return { replacesDeleted: saved.Attributes?.canvasDeletedAt !== undefined };
}

/** Forgets a canvas found deleted, only while the plan still holds it (see `PlanRepository.forgetCanvas`). */
async function forgetCanvas({ client, tableName, now }: StoreContext, key: ItemKey, canvasId: string) {
  await unlessConditionFailed(() =>
    client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: 'SET canvasDeletedAt = :now REMOVE canvasId',
        ConditionExpression: 'canvasId = :canvas',
        ExpressionAttributeValues: { ':canvas': canvasId, ':now': now().toISOString() },
      }),
    ),
  );
}

/** The channel's warning for one budget, written once (see `PlanRepository.claimBudgetWarning`). */
async function claimBudgetWarning(
  { client, tableName, now }: StoreContext,
  warning: { teamId: string; channelId: string; quarterKey: string; budgetSetAt: string },
): Promise<boolean> {
  const { teamId, channelId, quarterKey, budgetSetAt } = warning;
  const at = now();
  const item = PlanBudgetWarningSchema.parse({
    type: ITEM_TYPE.planBudgetWarning,
    teamId,
    channelId,
    quarter: quarterKey,
    budgetSetAt,
    warnedAt: at.toISOString(),
    expiresAt: epochSeconds(at) + WARNING_RETENTION_SECONDS,
  });
  const put = await unlessConditionFailed(() =>
    client.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.planBudgetWarning(teamId, channelId, quarterKey, budgetSetAt), ...item },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
  return put !== null;
}

/** Frees a warning claimed but not posted (see `PlanRepository.releaseBudgetWarning`). */
async function releaseBudgetWarning({ client, tableName }: StoreContext, key: ItemKey): Promise<void> {
  await client.send(new DeleteCommand({ TableName: tableName, Key: key }));
}

/** Writes the content decided from `revision` (0: no plan yet); false when another change came first. */
async function writePlan(
  { client, tableName, now }: StoreContext,
  {
    teamId,
    channelId,
    content,
    revision,
  }: { teamId: string; channelId: string; content: PlanContent; revision: number },
): Promise<Plan | null> {
  const at = now().toISOString();
  const costs = costsUpdate(content);
  const written = await unlessConditionFailed(() =>
    client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.plan(teamId, channelId),
        UpdateExpression:
          'SET #type = :type, teamId = :team, channelId = :channel, shows = :shows, budgets = :budgets, ' +
          `revision = :next, createdAt = if_not_exists(createdAt, :now), updatedAt = :now${costs.set}${costs.remove}`,
        ConditionExpression: revision === 0 ? 'attribute_not_exists(pk)' : 'revision = :revision',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: {
          ':type': ITEM_TYPE.plan,
          ':team': teamId,
          ':channel': channelId,
          ':shows': content.shows,
          ':budgets': content.budgets,
          ':next': revision + 1,
          ':now': at,
          ...(revision === 0 ? {} : { ':revision': revision }),
          ...costs.values,
        },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return written?.Attributes ? parsePlan(written.Attributes) : null;
}
