import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  type CancelResult,
  type ClaimResult,
  type NewConfirmation,
  RECONCILE_AFTER_SECONDS,
} from '../domain/ports/index.ts';
import { ConflictError, ValidationError } from '../platform/errors.ts';
import { DUE_KIND, ITEM_TYPE, keys } from './keys.ts';
import { registerScheduledWork } from './scheduled-work.ts';
import {
  type Confirmation,
  ConfirmationActionSchema,
  ConfirmationSchema,
  type ConfirmationStatus,
  type Json,
  JsonSchema,
  PriceSchema,
} from '../domain/ports/records.ts';
import {
  addSeconds,
  DAY_SECONDS,
  epochSeconds,
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

/** How long a confirmation can be claimed, unless the caller says otherwise. */
export const DEFAULT_CONFIRMATION_SECONDS = 900;
/**
 * How long the record is kept after its deadline (TTL). The claim never relies on TTL deletion
 * (which can lag by days): it checks `deadline`, an ISO time, in its condition.
 */
export const CONFIRMATION_RETENTION_SECONDS = 7 * DAY_SECONDS;

const NAMES = {
  '#status': 'status',
  '#deadline': 'deadline',
  '#dueKind': TABLE_KEYS.dueKind,
  '#dueAt': TABLE_KEYS.dueAt,
};

const parse = (item: Record<string, unknown>) => parseItem(ConfirmationSchema, 'confirmation', item);
const dueIn = ({ now }: StoreContext, seconds: number) => addSeconds(now(), seconds).toISOString();

/** The confirmation as stored (a consistent read), or null. */
export async function getConfirmation(
  { client, tableName }: StoreContext,
  id: string,
): Promise<Confirmation | null> {
  const { Item } = await client.send(
    new GetCommand({ TableName: tableName, Key: keys.confirmation(id), ConsistentRead: true }),
  );
  return Item ? parse(Item) : null;
}

/**
 * One conditional update of an existing confirmation: the record as it is now, or null when the
 * condition failed (someone else got there first, or it does not exist).
 */
async function updateIf(
  { client, tableName }: StoreContext,
  id: string,
  condition: string,
  update: string,
  values: Record<string, unknown>,
): Promise<Confirmation | null> {
  const expressions = `${condition} ${update}`;
  // DynamoDB refuses attribute names an expression does not use.
  const names = Object.fromEntries(Object.entries(NAMES).filter(([name]) => expressions.includes(name)));
  try {
    const { Attributes } = await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.confirmation(id),
        ConditionExpression: condition ? `attribute_exists(pk) AND ${condition}` : 'attribute_exists(pk)',
        UpdateExpression: update,
        ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
        ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
        ReturnValues: 'ALL_NEW',
      }),
    );
    if (!Attributes) throw new ConflictError(`Confirmation ${id} returned nothing`);
    return parse(Attributes);
  } catch (error) {
    if (isConditionalCheckFailed(error)) return null;
    throw error;
  }
}

/** A final status, due for the reconciler shortly in case the caller dies before showing the card. */
const decided = (context: StoreContext, status: ConfirmationStatus) => ({
  ':status': status,
  ':now': context.now().toISOString(),
  ':due': dueIn(context, RECONCILE_AFTER_SECONDS.decided),
});

/** A pending confirmation, due for the reconciler at its deadline (then swept). */
async function createConfirmation(context: StoreContext, input: NewConfirmation): Promise<Confirmation> {
  const { client, tableName, now } = context;
  const seconds = input.expiresInSeconds ?? DEFAULT_CONFIRMATION_SECONDS;
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new ValidationError('expiresInSeconds must be a positive number');
  }
  const createdAt = now();
  const deadline = addSeconds(createdAt, seconds);
  const confirmation = ConfirmationSchema.parse({
    type: ITEM_TYPE.confirmation,
    id: input.id ?? randomUUID(),
    teamId: input.teamId,
    channelId: input.channelId,
    requestedBy: input.requestedBy,
    action: ConfirmationActionSchema.parse(input.action),
    price: PriceSchema.parse(input.price),
    messageTs: input.messageTs,
    status: 'pending',
    createdAt: createdAt.toISOString(),
    deadline: deadline.toISOString(),
    expiresAt: epochSeconds(deadline) + CONFIRMATION_RETENTION_SECONDS,
    preApproval: input.preApproval,
  } satisfies Confirmation);
  await registerScheduledWork(context, confirmation.teamId);
  try {
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.confirmation(confirmation.id),
          [TABLE_KEYS.dueKind]: DUE_KIND.confirmation,
          [TABLE_KEYS.dueAt]: confirmation.deadline,
          ...confirmation,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if (isConditionalCheckFailed(error)) {
      throw new ConflictError(`Confirmation ${confirmation.id} already exists`, { cause: error });
    }
    throw error;
  }
  return confirmation;
}

/** Records the `ts` of the card that shows the confirmation. */
async function attachMessage(context: StoreContext, id: string, messageTs: string): Promise<Confirmation> {
  const updated = await updateIf(context, id, '', 'SET messageTs = :ts', { ':ts': messageTs });
  if (!updated) throw new ConflictError(`Confirmation ${id} not found`);
  return updated;
}

/**
 * Moves a pending, unexpired confirmation to `running` in one conditional write: among any
 * number of concurrent callers exactly one gets `claimed`. Who may confirm is the domain's call.
 */
async function claim(context: StoreContext, id: string, { by }: { by: string }): Promise<ClaimResult> {
  const at = context.now().toISOString();
  // Our own claim, applied but answered with an error and retried by the SDK, is still ours.
  const token = randomUUID();
  const claimed = await updateIf(
    context,
    id,
    '#status = :pending AND #deadline > :now',
    'SET #status = :running, confirmedBy = :by, claimedAt = :now, claimToken = :token, #dueAt = :due',
    {
      ':pending': 'pending',
      ':running': 'running',
      ':by': by,
      ':now': at,
      ':token': token,
      ':due': dueIn(context, RECONCILE_AFTER_SECONDS.claimed),
    },
  );
  if (claimed) return { kind: 'claimed', confirmation: claimed };
  const current = await getConfirmation(context, id);
  if (!current) return { kind: 'not-found' };
  return current.claimToken === token
    ? { kind: 'claimed', confirmation: current }
    : { kind: 'lost', confirmation: current };
}

/**
 * Pending and past its deadline → expired, in one conditional write: the record when this write
 * won (only then may anyone say "expired"), null when it was claimed, cancelled or not yet due.
 */
function expire(context: StoreContext, id: string): Promise<Confirmation | null> {
  return updateIf(
    context,
    id,
    '#status = :pending AND #deadline <= :now',
    'SET #status = :status, finishedAt = :now, #dueAt = :due',
    { ':pending': 'pending', ...decided(context, 'expired') },
  );
}

/**
 * Running → failed, but only while no worker has started the charge: `true` when it was closed
 * (nothing can be charged any more), `false` when a worker got there first.
 */
async function abandon(context: StoreContext, id: string, outcome: Json): Promise<boolean> {
  const abandoned = await updateIf(
    context,
    id,
    '#status = :running AND attribute_not_exists(chargeStartedAt)',
    'SET #status = :status, outcome = :outcome, finishedAt = :now, #dueAt = :due',
    { ':running': 'running', ':outcome': JsonSchema.parse(outcome), ...decided(context, 'failed') },
  );
  return abandoned !== null;
}

/** One conditional write; when it fails, the record says why (or that there is none). */
async function cancel(context: StoreContext, id: string, { by }: { by: string }): Promise<CancelResult> {
  const cancelled = await updateIf(
    context,
    id,
    '#status = :pending',
    'SET #status = :status, cancelledBy = :by, cancelledAt = :now, finishedAt = :now, #dueAt = :due',
    { ':pending': 'pending', ':by': by, ...decided(context, 'cancelled') },
  );
  if (cancelled) return { kind: 'cancelled', confirmation: cancelled };
  const current = await getConfirmation(context, id);
  if (!current) return { kind: 'not-found' };
  return { kind: 'already-handled', status: current.status, confirmation: current };
}

/**
 * Pending → cancelled for a workspace that removed the app: nobody can confirm it any more, and there
 * is no token to update its card with, so it leaves the reconciler's index at once. `true` when this
 * write closed it, `false` when it was no longer pending.
 */
async function withdraw(context: StoreContext, id: string): Promise<boolean> {
  const withdrawn = await updateIf(
    context,
    id,
    '#status = :pending',
    'SET #status = :status, cancelledAt = :now, finishedAt = :now REMOVE #dueKind, #dueAt',
    { ':pending': 'pending', ':status': 'cancelled', ':now': context.now().toISOString() },
  );
  return withdrawn !== null;
}

/** The card now shows the final `status`: the confirmation leaves the reconciler's index. */
async function cardShown(context: StoreContext, id: string, status: ConfirmationStatus): Promise<void> {
  await updateIf(context, id, '#status = :status', 'REMOVE #dueKind, #dueAt', { ':status': status });
}

/** A charge of unknown outcome, asked about at `askedAt`: back in the reconciler's index at `dueAt`. */
async function askAgain(
  context: StoreContext,
  id: string,
  at: { askedAt: Date; dueAt: Date },
): Promise<void> {
  await updateIf(context, id, '#status = :failed', 'SET askedAt = :asked, #dueKind = :kind, #dueAt = :due', {
    ':failed': 'failed',
    ':asked': at.askedAt.toISOString(),
    ':kind': DUE_KIND.confirmation,
    ':due': at.dueAt.toISOString(),
  });
}

/**
 * A team's confirmations that can still be confirmed: pending, before their deadline (a pending one
 * is due at its deadline). From the due index, so a just-created one may take a moment to appear.
 */
async function pendingForTeam(context: StoreContext, teamId: string): Promise<Confirmation[]> {
  const now = context.now();
  const items = await queryDueKind(context, DUE_KIND.confirmation, {
    after: now,
    filter: '#status = :pending AND teamId = :team',
    names: { '#status': 'status' },
    values: { ':pending': 'pending', ':team': teamId },
  });
  return items.map(parse).filter((confirmation) => new Date(confirmation.deadline) > now);
}

/** Every confirmation of a team the reconciler still has to visit (any status). */
async function dueForTeam(context: StoreContext, teamId: string): Promise<Confirmation[]> {
  const items = await queryDueKind(context, DUE_KIND.confirmation, {
    filter: 'teamId = :team',
    values: { ':team': teamId },
  });
  return items.map(parse);
}

export function createConfirmationRepository(deps: StoreDeps) {
  const context = storeContext(deps);
  return {
    create: (input: NewConfirmation) => createConfirmation(context, input),
    get: (id: string) => getConfirmation(context, id),
    attachMessage: (id: string, messageTs: string) => attachMessage(context, id, messageTs),
    claim: (id: string, by: { by: string }) => claim(context, id, by),
    expire: (id: string) => expire(context, id),
    abandon: (id: string, outcome: Json) => abandon(context, id, outcome),
    cancel: (id: string, by: { by: string }) => cancel(context, id, by),
    withdraw: (id: string) => withdraw(context, id),
    cardShown: (id: string, status: ConfirmationStatus) => cardShown(context, id, status),
    askAgain: (id: string, at: { askedAt: Date; dueAt: Date }) => askAgain(context, id, at),
    due: async (query: { now: Date; limit: number }) =>
      (await queryDue(context, DUE_KIND.confirmation, query)).map(parse),
    /** One workspace's due items, earliest first (the scheduled runs read each workspace apart). */
    dueIn: async (teamId: string, query: { now: Date; limit: number }) =>
      (await queryTeamDue(context, DUE_KIND.confirmation, teamId, query)).map(parse),
    pendingForTeam: (teamId: string) => pendingForTeam(context, teamId),
    dueForTeam: (teamId: string) => dueForTeam(context, teamId),
  };
}
