import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { WORKER_TIMEOUT_SECONDS } from '../config/timeouts.ts';
import { ConflictError, ValidationError } from '../errors.ts';
import { DUE_KIND, ITEM_TYPE, keys } from './keys.ts';
import {
  type Confirmation,
  type ConfirmationAction,
  ConfirmationActionSchema,
  ConfirmationSchema,
  type ConfirmationStatus,
  type Json,
  JsonSchema,
  type Price,
  PriceSchema,
} from './schemas.ts';
import {
  addSeconds,
  DAY_SECONDS,
  epochSeconds,
  assertLimit,
  isConditionalCheckFailed,
  parseItem,
  queryDue,
  type StoreDeps,
  systemClock,
} from './support.ts';
import { TABLE_KEYS } from './table.ts';

export type { Confirmation, ConfirmationAction, ConfirmationStatus, Price } from './schemas.ts';

/** How long a confirmation can be claimed, unless the caller says otherwise. */
export const DEFAULT_CONFIRMATION_SECONDS = 900;
/**
 * How long the record is kept after its deadline (TTL). The claim never relies on TTL deletion
 * (which can lag by days): it checks `deadline`, an ISO time, in its condition.
 */
export const CONFIRMATION_RETENTION_SECONDS = 7 * DAY_SECONDS;

/**
 * When the reconciler looks at a confirmation that has not reached a final card (the due index).
 * A claim whose worker never started the charge; a charge whose worker must have died (it cannot run
 * longer than its timeout); a decision whose card the deciding process should already have shown.
 */
export const RECONCILE_AFTER_SECONDS = {
  claimed: 120,
  charging: WORKER_TIMEOUT_SECONDS + 30,
  decided: 30,
};

export interface NewConfirmation {
  id?: string;
  teamId: string;
  channelId: string;
  requestedBy: string;
  action: ConfirmationAction;
  price: Price;
  messageTs?: string;
  expiresInSeconds?: number;
}

/** The record that now belongs to the caller, or the record as it is when the caller lost. */
export type ClaimResult =
  | { kind: 'claimed'; confirmation: Confirmation }
  | { kind: 'lost'; confirmation: Confirmation }
  | { kind: 'not-found' };

export type CancelResult =
  | { kind: 'cancelled'; confirmation: Confirmation }
  | { kind: 'already-handled'; status: ConfirmationStatus; confirmation: Confirmation }
  | { kind: 'not-found' };

export type ConfirmationRepository = ReturnType<typeof createConfirmationRepository>;

const NAMES = {
  '#status': 'status',
  '#deadline': 'deadline',
  '#dueKind': TABLE_KEYS.dueKind,
  '#dueAt': TABLE_KEYS.dueAt,
};

export function createConfirmationRepository({ client, tableName, now = systemClock }: StoreDeps) {
  const parse = (item: Record<string, unknown>) => parseItem(ConfirmationSchema, 'confirmation', item);
  const dueIn = (seconds: number) => addSeconds(now(), seconds).toISOString();

  async function get(id: string): Promise<Confirmation | null> {
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
  const decided = (status: ConfirmationStatus) => ({
    ':status': status,
    ':now': now().toISOString(),
    ':due': dueIn(RECONCILE_AFTER_SECONDS.decided),
  });

  return {
    /** Stores a pending confirmation; claimable until `now + expiresInSeconds`, then swept. */
    async create(input: NewConfirmation): Promise<Confirmation> {
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
      } satisfies Confirmation);
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
    },

    get,

    /** Records the `ts` of the card that shows the confirmation. */
    async attachMessage(id: string, messageTs: string): Promise<Confirmation> {
      const updated = await updateIf(id, '', 'SET messageTs = :ts', { ':ts': messageTs });
      if (!updated) throw new ConflictError(`Confirmation ${id} not found`);
      return updated;
    },

    /**
     * Moves a pending, unexpired confirmation to `running` in one conditional write: among any
     * number of concurrent callers exactly one gets `claimed`. Who may confirm is the domain's call.
     */
    async claim(id: string, { by }: { by: string }): Promise<ClaimResult> {
      const at = now().toISOString();
      // Our own claim, applied but answered with an error and retried by the SDK, is still ours.
      const token = randomUUID();
      const claimed = await updateIf(
        id,
        '#status = :pending AND #deadline > :now',
        'SET #status = :running, confirmedBy = :by, claimedAt = :now, claimToken = :token, #dueAt = :due',
        {
          ':pending': 'pending',
          ':running': 'running',
          ':by': by,
          ':now': at,
          ':token': token,
          ':due': dueIn(RECONCILE_AFTER_SECONDS.claimed),
        },
      );
      if (claimed) return { kind: 'claimed', confirmation: claimed };
      const current = await get(id);
      if (!current) return { kind: 'not-found' };
      return current.claimToken === token
        ? { kind: 'claimed', confirmation: current }
        : { kind: 'lost', confirmation: current };
    },

    /**
     * Pending and past its deadline → expired, in one conditional write: the record when this write
     * won (only then may anyone say "expired"), null when it was claimed, cancelled or not yet due.
     */
    expire(id: string): Promise<Confirmation | null> {
      return updateIf(
        id,
        '#status = :pending AND #deadline <= :now',
        'SET #status = :status, finishedAt = :now, #dueAt = :due',
        { ':pending': 'pending', ...decided('expired') },
      );
    },

    /**
     * Running → failed, but only while no worker has started the charge: `true` when it was closed
     * (nothing can be charged any more), `false` when a worker got there first.
     */
    async abandon(id: string, outcome: Json): Promise<boolean> {
      const abandoned = await updateIf(
        id,
        '#status = :running AND attribute_not_exists(chargeStartedAt)',
        'SET #status = :status, outcome = :outcome, finishedAt = :now, #dueAt = :due',
        { ':running': 'running', ':outcome': JsonSchema.parse(outcome), ...decided('failed') },
      );
      return abandoned !== null;
    },

    /** Pending → cancelled (even past its deadline); anything else is left alone. */
    async cancel(id: string, { by }: { by: string }): Promise<CancelResult> {
      const cancelled = await updateIf(
        id,
        '#status = :pending',
        'SET #status = :status, cancelledBy = :by, cancelledAt = :now, finishedAt = :now, #dueAt = :due',
        { ':pending': 'pending', ':by': by, ...decided('cancelled') },
      );
      if (cancelled) return { kind: 'cancelled', confirmation: cancelled };
      const current = await get(id);
      if (!current) return { kind: 'not-found' };
      return { kind: 'already-handled', status: current.status, confirmation: current };
    },

    /** The card now shows the final `status`: the confirmation leaves the reconciler's index. */
    async cardShown(id: string, status: ConfirmationStatus): Promise<void> {
      await updateIf(id, '#status = :status', 'REMOVE #dueKind, #dueAt', { ':status': status });
    },

    /** Confirmations the reconciler should look at, earliest first (eventually consistent). */
    async due({ now: at, limit }: { now: Date; limit: number }): Promise<Confirmation[]> {
      assertLimit(limit);
      const items = await queryDue(client, tableName, DUE_KIND.confirmation, at, limit);
      return items.map(parse);
    },
  };
}
