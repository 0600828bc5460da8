import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { KeptEntries } from '../domain/ports/ledger.ts';
import { ConflictError } from '../platform/errors.ts';
import { ITEM_TYPE, keys } from './keys.ts';
import { type LedgerEntry, LedgerEntrySchema } from '../domain/ports/records.ts';
import { LedgerGuardSchema } from './schemas.ts';
import {
  assertUtcDay,
  DAY_SECONDS,
  epochSeconds,
  parseItem,
  queryItems,
  type StoreDeps,
  systemClock,
  transactWrite,
} from './support.ts';

/** Ledger entries are kept a little over a year (TTL from the time of the charge). */
export const LEDGER_RETENTION_SECONDS = 400 * DAY_SECONDS;

/** The most entries one period's read returns (a busy quarter stays one bounded read). */
export const PERIOD_ENTRY_LIMIT = 10_000;

/**
 * The most of a team's entries one read of all the ledger keeps goes through (a charge is confirmed by
 * a person: a busy workspace books tens a day, a few thousand in the retention).
 */
export const KEPT_ENTRY_LIMIT = 10_000;

/** A period's entries, oldest first; `capped` only when it holds more than were read. */
export interface PeriodEntries {
  entries: LedgerEntry[];
  capped: boolean;
}

export interface NewLedgerEntry {
  teamId: string;
  channelId?: string;
  /** Who asked for the charge, and who confirmed it (the requester when absent). */
  requestedBy: string;
  confirmedBy?: string;
  /** What was charged for, e.g. the confirmation's action kind. */
  action: string;
  credits: number;
  eventId?: string;
  personnelIds?: string[];
  traceId?: string;
  confirmationId?: string;
  outcomeUnknown?: boolean;
  status?: LedgerEntry['status'];
  preApproval?: LedgerEntry['preApproval'];
  at?: Date;
}

/** An entry as stored, from what is known of a charge (the charge's write-ahead step builds one too). */
export function newLedgerEntry(input: NewLedgerEntry & { id?: string }, at: Date): LedgerEntry {
  return LedgerEntrySchema.parse({
    type: ITEM_TYPE.ledgerEntry,
    id: input.id ?? randomUUID(),
    teamId: input.teamId,
    channelId: input.channelId,
    requestedBy: input.requestedBy,
    confirmedBy: input.confirmedBy ?? input.requestedBy,
    action: input.action,
    credits: input.credits,
    eventId: input.eventId,
    personnelIds: input.personnelIds,
    traceId: input.traceId,
    confirmationId: input.confirmationId,
    outcomeUnknown: input.outcomeUnknown,
    status: input.status,
    preApproval: input.preApproval,
    at: at.toISOString(),
    expiresAt: epochSeconds(at) + LEDGER_RETENTION_SECONDS,
  } satisfies LedgerEntry);
}

/**
 * Whether the team keeps an entry past `startKey`: a read that stops at its bound gets a next key even
 * when nothing follows, so exactly the bound's entries would otherwise read as more.
 */
async function holdsMore(
  { client, tableName }: StoreDeps,
  teamId: string,
  since: Date,
  startKey: Record<string, unknown>,
): Promise<boolean> {
  const next = await client.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND sk >= :since',
      ExpressionAttributeValues: {
        ':pk': keys.ledgerPartition(teamId),
        ':since': keys.atOrAfter(since.toISOString()),
      },
      ConsistentRead: true,
      ScanIndexForward: false,
      Select: 'COUNT',
      Limit: 1,
      ExclusiveStartKey: startKey,
    }),
  );
  return (next.Count ?? 0) > 0;
}

/** The ledger's reads: one team's entries by time, oldest first, each parsed. */
function ledgerReads(deps: StoreDeps) {
  const { client, tableName, now = systemClock } = deps;
  const parse = (item: Record<string, unknown>) => parseItem(LedgerEntrySchema, 'ledger entry', item);

  async function query(
    teamId: string,
    condition: string,
    values: Record<string, string>,
    limit = Number.POSITIVE_INFINITY,
  ) {
    const items = await queryItems(
      client,
      {
        TableName: tableName,
        KeyConditionExpression: `pk = :pk AND ${condition}`,
        ExpressionAttributeValues: { ':pk': keys.ledgerPartition(teamId), ...values },
        ConsistentRead: true,
        ScanIndexForward: true,
      },
      limit,
    );
    return items.map(parse);
  }

  async function listForDay(teamId: string, day: string): Promise<LedgerEntry[]> {
    assertUtcDay(day);
    const [from, to] = keys.utcDayBounds(day);
    return query(teamId, 'sk BETWEEN :from AND :to', { ':from': from, ':to': to });
  }

  /**
   * Entries from the first UTC day to the last (`YYYY-MM-DD`, inclusive), oldest first, read page by
   * page up to `limit` (one more is read to know whether the period holds more).
   */
  async function listForPeriod(
    teamId: string,
    period: { from: string; to: string },
    limit = PERIOD_ENTRY_LIMIT,
  ): Promise<PeriodEntries> {
    assertUtcDay(period.from);
    assertUtcDay(period.to);
    if (period.from > period.to) return { entries: [], capped: false };
    const [from] = keys.utcDayBounds(period.from);
    const [, to] = keys.utcDayBounds(period.to);
    const entries = await query(teamId, 'sk BETWEEN :from AND :to', { ':from': from, ':to': to }, limit + 1);
    return { entries: entries.slice(0, limit), capped: entries.length > limit };
  }

  /** Entries at or after `since`, oldest first. */
  async function listSince(teamId: string, since: Date): Promise<LedgerEntry[]> {
    return query(teamId, 'sk >= :since', { ':since': keys.atOrAfter(since.toISOString()) });
  }

  /**
   * All the ledger keeps of the team, newest first, of one channel when given. A bounded read of the
   * team's partition (its retention window, at most `limit` entries read, the channel filtered in the
   * read) rather than an index per show: entries written before need no new attribute, and the charge's
   * transaction stays as it is.
   */
  async function listKept(
    teamId: string,
    channelId?: string,
    limit = KEPT_ENTRY_LIMIT,
  ): Promise<KeptEntries> {
    const since = new Date(now().getTime() - LEDGER_RETENTION_SECONDS * 1000);
    const entries: LedgerEntry[] = [];
    let read = 0;
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND sk >= :since',
          ...(channelId ? { FilterExpression: 'channelId = :channel' } : {}),
          ExpressionAttributeValues: {
            ':pk': keys.ledgerPartition(teamId),
            ':since': keys.atOrAfter(since.toISOString()),
            ...(channelId ? { ':channel': channelId } : {}),
          },
          ConsistentRead: true,
          ScanIndexForward: false,
          Limit: limit - read,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      read += page.ScannedCount ?? 0;
      entries.push(...(page.Items ?? []).map(parse));
      startKey = page.LastEvaluatedKey;
    } while (startKey && read < limit);
    return { entries, capped: startKey !== undefined && (await holdsMore(deps, teamId, since, startKey)) };
  }

  return { parse, listForDay, listForPeriod, listSince, listKept };
}

export function createLedgerRepository(deps: StoreDeps) {
  const { client, tableName, now = systemClock } = deps;
  const { parse, listForDay, listForPeriod, listSince, listKept } = ledgerReads(deps);

  return {
    /**
     * Writes one entry. With a `confirmationId` the write is idempotent: a guard item keyed by the
     * confirmation is put in the same transaction, and a second call returns the first entry rather
     * than charging the ledger twice.
     */
    async record(input: NewLedgerEntry): Promise<LedgerEntry> {
      const entry = newLedgerEntry(input, input.at ?? now());
      const entryKey = keys.ledgerEntry(entry.teamId, entry.at, entry.id);
      const put = {
        Put: {
          TableName: tableName,
          Item: { ...entryKey, ...entry },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      };
      if (entry.confirmationId === undefined) {
        await client.send(new PutCommand(put.Put));
        return entry;
      }
      const guardKey = keys.ledgerGuard(entry.confirmationId);
      const guard = LedgerGuardSchema.parse({
        type: ITEM_TYPE.ledgerGuard,
        confirmationId: entry.confirmationId,
        teamId: entry.teamId,
        entrySk: entryKey.sk,
        expiresAt: entry.expiresAt,
      });
      const written = await transactWrite(client, {
        TransactItems: [
          put,
          {
            Put: {
              TableName: tableName,
              Item: { ...guardKey, ...guard },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      });
      if (written) return entry;
      const { Item: guardItem } = await client.send(
        new GetCommand({ TableName: tableName, Key: guardKey, ConsistentRead: true }),
      );
      if (!guardItem) throw new ConflictError(`Ledger entry for ${entry.confirmationId} lost a race`);
      const existingGuard = parseItem(LedgerGuardSchema, 'ledger guard', guardItem);
      const { Item } = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: { pk: keys.ledgerPartition(existingGuard.teamId), sk: existingGuard.entrySk },
          ConsistentRead: true,
        }),
      );
      if (!Item) throw new ConflictError(`Ledger entry for ${entry.confirmationId} is missing`);
      return parse(Item);
    },

    /** Entries of one UTC day (`YYYY-MM-DD`), oldest first. */
    listForDay,

    /** Entries of a period of UTC days, bounded (see `listForPeriod`). */
    listForPeriod,

    /** Credits charged on one UTC day. */
    async totalForDay(teamId: string, day: string): Promise<number> {
      const entries = await listForDay(teamId, day);
      return entries.reduce((sum, entry) => sum + entry.credits, 0);
    },

    /** Entries at or after `since`, oldest first (the digest's 24 h window). */
    listSince,

    /** All the ledger keeps of a team or one channel, newest first, bounded (the plan's budget). */
    listKept,
  };
}
