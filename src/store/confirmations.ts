import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, ValidationError } from '../errors.ts';
import { ITEM_TYPE, keys } from './keys.ts';
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
  isConditionalCheckFailed,
  parseItem,
  type StoreDeps,
  systemClock,
} from './support.ts';

export type { Confirmation, ConfirmationAction, ConfirmationStatus, Price } from './schemas.ts';

/** How long a confirmation can be claimed, unless the caller says otherwise. */
export const DEFAULT_CONFIRMATION_SECONDS = 900;
/**
 * How long the record is kept after its deadline (TTL). The claim never relies on TTL deletion
 * (which can lag by days): it checks `deadline`, an ISO time, in its condition.
 */
export const CONFIRMATION_RETENTION_SECONDS = 7 * DAY_SECONDS;

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

/** Why a confirmation could not be claimed or cancelled, or the record that now belongs to the caller. */
export type ClaimResult =
  | { kind: 'claimed'; confirmation: Confirmation }
  | { kind: 'already-handled'; status: ConfirmationStatus; confirmation: Confirmation }
  | { kind: 'expired'; confirmation: Confirmation }
  | { kind: 'not-found' };

export type CancelResult =
  | { kind: 'cancelled'; confirmation: Confirmation }
  | { kind: 'already-handled'; status: ConfirmationStatus; confirmation: Confirmation }
  | { kind: 'not-found' };

export type ConfirmationOutcome = { status: 'succeeded' | 'failed'; outcome: Json };

export type ConfirmationRepository = ReturnType<typeof createConfirmationRepository>;

const NAMES = { '#status': 'status', '#deadline': 'deadline' };

export function createConfirmationRepository({ client, tableName, now = systemClock }: StoreDeps) {
  const parse = (item: Record<string, unknown>) => parseItem(ConfirmationSchema, 'confirmation', item);

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
          ExpressionAttributeValues: values,
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

  return {
    /** Stores a pending confirmation; claimable until `now + expiresInSeconds`. */
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
            Item: { ...keys.confirmation(confirmation.id), ...confirmation },
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
      const claimed = await updateIf(
        id,
        '#status = :pending AND #deadline > :now',
        'SET #status = :running, confirmedBy = :by, claimedAt = :now',
        { ':pending': 'pending', ':running': 'running', ':by': by, ':now': at },
      );
      if (claimed) return { kind: 'claimed', confirmation: claimed };
      // Lost: read why. The record can only have moved on from what made the condition fail.
      const current = await get(id);
      if (!current) return { kind: 'not-found' };
      if (current.status !== 'pending') {
        return { kind: 'already-handled', status: current.status, confirmation: current };
      }
      return { kind: 'expired', confirmation: current };
    },

    /**
     * Marks the start of the charge on a running confirmation, once: `true` for the one caller that
     * may now call the service. A worker run retried after a crash gets `false` and charges nothing.
     */
    async beginCharge(id: string): Promise<boolean> {
      const started = await updateIf(
        id,
        '#status = :running AND attribute_not_exists(chargeStartedAt)',
        'SET chargeStartedAt = :now',
        { ':running': 'running', ':now': now().toISOString() },
      );
      return started !== null;
    },

    /** Running → succeeded | failed, with what happened. Throws `ConflictError` if it was not running. */
    async finish(id: string, { status, outcome }: ConfirmationOutcome): Promise<Confirmation> {
      const finished = await updateIf(
        id,
        '#status = :running',
        'SET #status = :status, outcome = :outcome, finishedAt = :now',
        {
          ':running': 'running',
          ':status': status,
          ':outcome': JsonSchema.parse(outcome),
          ':now': now().toISOString(),
        },
      );
      if (!finished) throw new ConflictError(`Confirmation ${id} is not running`);
      return finished;
    },

    /**
     * Running → failed, but only while no worker has started the charge: `true` when it was closed
     * (nothing can be charged any more), `false` when a worker got there first.
     */
    async abandon(id: string, reason: string): Promise<boolean> {
      const abandoned = await updateIf(
        id,
        '#status = :running AND attribute_not_exists(chargeStartedAt)',
        'SET #status = :failed, outcome = :outcome, finishedAt = :now',
        { ':running': 'running', ':failed': 'failed', ':outcome': { reason }, ':now': now().toISOString() },
      );
      return abandoned !== null;
    },

    /** Pending → cancelled (even past its deadline); anything else is left alone. */
    async cancel(id: string, { by }: { by: string }): Promise<CancelResult> {
      const cancelled = await updateIf(
        id,
        '#status = :pending',
        'SET #status = :cancelled, cancelledBy = :by, cancelledAt = :now',
        { ':pending': 'pending', ':cancelled': 'cancelled', ':by': by, ':now': now().toISOString() },
      );
      if (cancelled) return { kind: 'cancelled', confirmation: cancelled };
      const current = await get(id);
      if (!current) return { kind: 'not-found' };
      return { kind: 'already-handled', status: current.status, confirmation: current };
    },
  };
}
