/**
 * Each workspace's own settings (issue 15): its Event Intelligence service key and its policy.
 *
 * Service key (`WORKSPACE#<teamId>` / `SERVICE_KEY`): only the ciphertext is stored, with the last 4
 * characters (all the App Home ever shows), who connected it and when, and the `serviceAccountId`
 * the daily cap is kept under.
 * - `putServiceKey({ teamId, serviceKey, connectedBy, orgWideInstall })` encrypts and stores (replacing
 *   any key); `installationOf(info)` is the install a connected workspace is served by.
 * - `getServiceKeyInfo(teamId)` reads without decrypting (for display); `getServiceKey(teamId)` also
 *   decrypts (for calls to the service). `removeServiceKey(teamId)`: true when there was one.
 *
 * Policy (`WORKSPACE#<teamId>` / `POLICY`): every member optional; an absent one falls back to the
 * environment's default (see `spendPolicyForWorkspace` in src/config/workspace-policy.ts), `null`
 * clears it. `putPolicy` replaces the whole policy, `getPolicy`, `removePolicy`.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { serviceAccountId } from '../config/secrets.ts';
import { type KeyCipher, NO_KEY_CIPHER } from '../config/key-cipher.ts';
import { ValidationError } from '../errors.ts';
import { LOCAL_TIME_PATTERN } from '../time/local-time.ts';
import type { InstallationLookup } from './installations.ts';
import { Id, IsoTime } from './schemas.ts';
import { ITEM_TYPE, type ItemKey, keys } from './keys.ts';
import { resumeScheduledWork } from './scheduled-work.ts';
import { parseItem, type StoreContext, storeContext, type StoreDeps } from './support.ts';

export const WorkspaceServiceKeyInfoSchema = z.object({
  type: z.literal(ITEM_TYPE.workspaceServiceKey),
  teamId: Id,
  last4: z.string().length(4),
  serviceAccountId: Id,
  connectedBy: Id,
  connectedAt: IsoTime,
  /**
   * Set when the installation serving the workspace is an Enterprise Grid org-wide one (keyed by its
   * enterprise): jobs and scheduled runs, which know only the team, find the bot token through it.
   */
  orgWideInstall: z.object({ enterpriseId: Id }).exactOptional(),
});
/** What may be shown or logged about a workspace's key: never the key. */
export type WorkspaceServiceKeyInfo = z.infer<typeof WorkspaceServiceKeyInfoSchema>;

const WorkspaceServiceKeyItemSchema = WorkspaceServiceKeyInfoSchema.extend({ ciphertext: z.string().min(1) });

export interface WorkspaceServiceKey extends WorkspaceServiceKeyInfo {
  serviceKey: string;
}

/** A workspace, and the org-wide install serving it when it is not served by its own. */
export type ServedWorkspace = Pick<WorkspaceServiceKeyInfo, 'teamId' | 'orgWideInstall'>;

/** What connecting a key stores: the key, who connected it, and the install serving the workspace. */
export interface NewWorkspaceServiceKey extends ServedWorkspace {
  serviceKey: string;
  connectedBy: string;
}

/** The installation that serves a workspace (its own, or its enterprise's org-wide one). */
export const installationOf = (info: ServedWorkspace): InstallationLookup =>
  info.orgWideInstall
    ? { teamId: info.teamId, enterpriseId: info.orgWideInstall.enterpriseId, isEnterpriseInstall: true }
    : { teamId: info.teamId, isEnterpriseInstall: false };

const Credits = z.number().int().positive();

/** What an admin sets: absent means "the environment's default", `null` means "none". */
export const WorkspacePolicyInputSchema = z.object({
  /** Slack user ids who may confirm anybody's request. */
  approverUserIds: z.array(Id).optional(),
  /** A user group whose members may too (resolved by the caller: `usergroups.users.list`). */
  approverUserGroupId: Id.optional(),
  dailyCap: Credits.nullable().optional(),
  approvalThreshold: Credits.nullable().optional(),
  /** Defaults for new digest subscriptions in this workspace. */
  digestDefaults: z
    .object({
      time: z.string().regex(LOCAL_TIME_PATTERN, 'expected HH:MM').optional(),
      timeZone: z.string().min(1).optional(),
    })
    .optional(),
});
export type WorkspacePolicyInput = z.infer<typeof WorkspacePolicyInputSchema>;

export const WorkspacePolicySchema = WorkspacePolicyInputSchema.extend({
  type: z.literal(ITEM_TYPE.workspacePolicy),
  teamId: Id,
  updatedBy: Id,
  updatedAt: IsoTime,
});
export type WorkspacePolicy = z.infer<typeof WorkspacePolicySchema>;

/** Shorter keys would be shown whole by their last 4 characters; real service keys are far longer. */
const MIN_KEY_LENGTH = 12;

async function getItem({ client, tableName }: StoreContext, key: ItemKey) {
  const { Item } = await client.send(
    new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }),
  );
  return Item;
}

async function deleteItem({ client, tableName }: StoreContext, key: ItemKey): Promise<boolean> {
  const { Attributes } = await client.send(
    new DeleteCommand({ TableName: tableName, Key: key, ReturnValues: 'ALL_OLD' }),
  );
  return Attributes !== undefined;
}

async function putServiceKey(
  context: StoreContext,
  cipher: KeyCipher,
  input: NewWorkspaceServiceKey,
): Promise<WorkspaceServiceKeyInfo> {
  const serviceKey = input.serviceKey.trim();
  // The message never quotes the key.
  if (serviceKey.length < MIN_KEY_LENGTH) throw new ValidationError('The service key is too short');
  const item = WorkspaceServiceKeyItemSchema.parse({
    type: ITEM_TYPE.workspaceServiceKey,
    teamId: input.teamId,
    last4: serviceKey.slice(-4),
    serviceAccountId: serviceAccountId(serviceKey),
    connectedBy: input.connectedBy,
    connectedAt: context.now().toISOString(),
    ...(input.orgWideInstall ? { orgWideInstall: input.orgWideInstall } : {}),
    ciphertext: await cipher.encrypt(input.teamId, serviceKey),
  });
  await context.client.send(
    new PutCommand({
      TableName: context.tableName,
      Item: { ...keys.workspaceServiceKey(input.teamId), ...item },
    }),
  );
  // A key connected again: the scheduled work paused for want of one runs at the next run.
  await resumeScheduledWork(context, input.teamId);
  return WorkspaceServiceKeyInfoSchema.parse(item); // without the ciphertext
}

async function getServiceKey(
  context: StoreContext,
  cipher: KeyCipher,
  teamId: string,
): Promise<WorkspaceServiceKey | null> {
  const item = await getItem(context, keys.workspaceServiceKey(teamId));
  if (!item) return null;
  const { ciphertext, ...info } = parseItem(WorkspaceServiceKeyItemSchema, 'workspace service key', item);
  return { ...info, serviceKey: await cipher.decrypt(teamId, ciphertext) };
}

async function putPolicy(
  context: StoreContext,
  teamId: string,
  input: WorkspacePolicyInput,
  updatedBy: string,
): Promise<WorkspacePolicy> {
  const parsed = WorkspacePolicyInputSchema.safeParse(input);
  if (!parsed.success)
    throw new ValidationError(`Invalid workspace policy: ${z.prettifyError(parsed.error)}`);
  const policy = WorkspacePolicySchema.parse({
    ...parsed.data,
    type: ITEM_TYPE.workspacePolicy,
    teamId,
    updatedBy,
    updatedAt: context.now().toISOString(),
  });
  await context.client.send(
    new PutCommand({ TableName: context.tableName, Item: { ...keys.workspacePolicy(teamId), ...policy } }),
  );
  return policy;
}

export function createWorkspaceRepository(deps: StoreDeps, cipher: KeyCipher = NO_KEY_CIPHER) {
  const context = storeContext(deps);
  return {
    putServiceKey: (input: NewWorkspaceServiceKey) => putServiceKey(context, cipher, input),
    getServiceKey: (teamId: string) => getServiceKey(context, cipher, teamId),
    getServiceKeyInfo: async (teamId: string): Promise<WorkspaceServiceKeyInfo | null> => {
      const item = await getItem(context, keys.workspaceServiceKey(teamId));
      // Parsing with the info schema drops the ciphertext.
      return item ? parseItem(WorkspaceServiceKeyInfoSchema, 'workspace service key', item) : null;
    },
    removeServiceKey: (teamId: string) => deleteItem(context, keys.workspaceServiceKey(teamId)),
    putPolicy: (teamId: string, input: WorkspacePolicyInput, updatedBy: string) =>
      putPolicy(context, teamId, input, updatedBy),
    getPolicy: async (teamId: string): Promise<WorkspacePolicy | null> => {
      const item = await getItem(context, keys.workspacePolicy(teamId));
      return item ? parseItem(WorkspacePolicySchema, 'workspace policy', item) : null;
    },
    removePolicy: (teamId: string) => deleteItem(context, keys.workspacePolicy(teamId)),
  };
}

export type WorkspaceRepository = ReturnType<typeof createWorkspaceRepository>;
