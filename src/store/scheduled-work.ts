import { GetCommand, PutCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { Id, IsoTime } from '../domain/ports/records.ts';
import { DUE_KIND, ITEM_TYPE, keys } from './keys.ts';
import {
  DAY_SECONDS,
  epochSeconds,
  isConditionalCheckFailed,
  parseItem,
  queryItems,
  type StoreContext,
  storeContext,
  type StoreDeps,
} from './support.ts';
import { TABLE_KEYS } from './table.ts';

/** Why a workspace's scheduled work cannot run now. */
export const PAUSE_REASONS = ['no-service-key', 'no-slack-token'] as const;
export type PauseReason = (typeof PAUSE_REASONS)[number];

const PauseSchema = z.object({
  reason: z.enum(PAUSE_REASONS),
  /** When its work first could not run (kept while it stays paused). */
  since: IsoTime,
  /** Its due work is not read before this. */
  retryAt: IsoTime,
  attempts: z.number().int().positive(),
});
export type ScheduledWorkPause = z.infer<typeof PauseSchema>;

const ScheduledWorkspaceSchema = z.looseObject({
  type: z.literal(ITEM_TYPE.scheduledWorkspace),
  teamId: Id,
  registeredAt: IsoTime,
  paused: PauseSchema.exactOptional(),
  /** The workspace removed the app: the entry is no longer listed, and expires (TTL). */
  forgottenAt: IsoTime.exactOptional(),
});
export type ScheduledWorkspace = z.infer<typeof ScheduledWorkspaceSchema>;

/** A paused workspace is tried again after an hour, then two, four, at most six. */
const FIRST_PAUSE_MS = 60 * 60_000;
const LONGEST_PAUSE_MS = 6 * 60 * 60_000;

/** The pause after `attempts` runs that could not serve the workspace. */
export function pauseFor(attempts: number): number {
  return Math.min(FIRST_PAUSE_MS * 2 ** (attempts - 1), LONGEST_PAUSE_MS);
}

const parse = (item: Record<string, unknown>) =>
  parseItem(ScheduledWorkspaceSchema, 'scheduled workspace', item);

/**
 * Notes that `teamId` has scheduled work (written before the work itself, so no work goes unlisted).
 * An update, so a pause stays as it is.
 */
export async function registerScheduledWork({ client, tableName, now }: StoreContext, teamId: string) {
  await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.scheduledWorkspace(teamId),
      UpdateExpression: 'SET #type = :type, teamId = :team, registeredAt = :now REMOVE forgottenAt, #ttl',
      ExpressionAttributeNames: { '#type': 'type', '#ttl': TABLE_KEYS.ttl },
      ExpressionAttributeValues: {
        ':type': ITEM_TYPE.scheduledWorkspace,
        ':team': teamId,
        ':now': now().toISOString(),
      },
    }),
  );
}

/**
 * Work stored before this registry existed: its workspaces are listed once, from the due index, by
 * the first run that finds the registry not filled yet (concurrent runs write the same items).
 */
async function fillOnce(context: StoreContext): Promise<void> {
  const { client, tableName } = context;
  const { Item } = await client.send(
    new GetCommand({ TableName: tableName, Key: keys.scheduledWorkFilled(), ConsistentRead: true }),
  );
  if (Item) return;
  const teams = new Set<string>();
  for (const kind of Object.values(DUE_KIND)) {
    const items = await queryItems(client, {
      TableName: tableName,
      IndexName: TABLE_KEYS.dueIndex,
      KeyConditionExpression: '#kind = :kind',
      ProjectionExpression: 'teamId',
      ExpressionAttributeNames: { '#kind': TABLE_KEYS.dueKind },
      ExpressionAttributeValues: { ':kind': kind },
    });
    for (const { teamId } of items) if (typeof teamId === 'string') teams.add(teamId);
  }
  for (const teamId of teams) await registerScheduledWork(context, teamId);
  await client.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...keys.scheduledWorkFilled(), type: ITEM_TYPE.scheduledWorkFilled, teams: teams.size },
    }),
  );
}

/** Every workspace with scheduled work, with its pause if it has one. */
async function list(context: StoreContext): Promise<ScheduledWorkspace[]> {
  await fillOnce(context);
  const items = await queryItems(context.client, {
    TableName: context.tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :team)',
    ExpressionAttributeValues: { ':pk': keys.scheduledWorkPartition, ':team': 'TEAM#' },
  });
  return items.map(parse).filter((workspace) => workspace.forgottenAt === undefined);
}

/**
 * One update of a workspace's entry, applied only while `condition` holds; otherwise nothing (an entry
 * gone, or already as wanted, is no failure).
 */
async function updateEntry(
  { client, tableName }: StoreContext,
  teamId: string,
  update: Omit<UpdateCommandInput, 'TableName' | 'Key'> & { ConditionExpression: string },
): Promise<void> {
  try {
    await client.send(
      new UpdateCommand({ TableName: tableName, Key: keys.scheduledWorkspace(teamId), ...update }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/**
 * Takes a workspace that removed the app off the list (an update: the scheduled functions delete
 * nothing; the entry expires a week later), its pause with it.
 */
async function forget(context: StoreContext, teamId: string): Promise<void> {
  const now = context.now();
  await updateEntry(context, teamId, {
    ConditionExpression: 'attribute_exists(pk)',
    UpdateExpression: 'SET forgottenAt = :now, #ttl = :expires REMOVE paused',
    ExpressionAttributeNames: { '#ttl': TABLE_KEYS.ttl },
    ExpressionAttributeValues: { ':now': now.toISOString(), ':expires': epochSeconds(now) + 7 * DAY_SECONDS },
  });
}

async function get({ client, tableName }: StoreContext, teamId: string) {
  const { Item } = await client.send(
    new GetCommand({ TableName: tableName, Key: keys.scheduledWorkspace(teamId), ConsistentRead: true }),
  );
  return Item ? parse(Item) : null;
}

/**
 * Pauses the workspace's scheduled work for `reason`, longer each time it is found still unable to
 * run (`previous`: its pause as the run read it). A workspace forgotten meanwhile is left forgotten.
 */
async function pause(
  context: StoreContext,
  teamId: string,
  reason: PauseReason,
  previous: ScheduledWorkPause | undefined,
): Promise<ScheduledWorkPause> {
  const at = context.now();
  const attempts = (previous?.attempts ?? 0) + 1;
  const paused: ScheduledWorkPause = {
    reason,
    since: previous?.reason === reason ? previous.since : at.toISOString(),
    retryAt: new Date(at.getTime() + pauseFor(attempts)).toISOString(),
    attempts,
  };
  await updateEntry(context, teamId, {
    ConditionExpression: 'attribute_exists(pk)',
    UpdateExpression: 'SET paused = :paused',
    ExpressionAttributeValues: { ':paused': paused },
  });
  return paused;
}

/** Ends a pause: the workspace's due work is read again by the next run. */
export async function resumeScheduledWork(context: StoreContext, teamId: string): Promise<void> {
  await updateEntry(context, teamId, {
    ConditionExpression: 'attribute_exists(paused)',
    UpdateExpression: 'REMOVE paused',
  });
}

export function createScheduledWorkRepository(deps: StoreDeps) {
  const context = storeContext(deps);
  return {
    register: (teamId: string) => registerScheduledWork(context, teamId),
    list: () => list(context),
    get: (teamId: string) => get(context, teamId),
    pause: (teamId: string, reason: PauseReason, previous: ScheduledWorkPause | undefined) =>
      pause(context, teamId, reason, previous),
    resume: (teamId: string) => resumeScheduledWork(context, teamId),
    /** The workspace leaves the registry (it removed the app). */
    remove: (teamId: string) => forget(context, teamId),
  };
}

export type ScheduledWorkRepository = ReturnType<typeof createScheduledWorkRepository>;
