/**
 * Each workspace's own settings (issue 15): its Event Intelligence service key and its policy.
 *
 * Service key (`WORKSPACE#<teamId>` / `SERVICE_KEY`): only the ciphertext is stored, with the last 4
 * characters (all the App Home ever shows), who connected it and when, and the `serviceAccountId`
 * the daily cap is kept under.
 * - `putServiceKey({ teamId, serviceKey, connectedBy, orgWideInstall })` encrypts and stores (replacing
 *   any key); `installationOf(info)` names the installs that may serve a connected workspace.
 * - `getServiceKeyInfo(teamId)` reads without decrypting (for display); `getServiceKey(teamId)` also
 *   decrypts (for calls to the service). `removeServiceKey(teamId)`: true when there was one.
 *
 * Policy (`WORKSPACE#<teamId>` / `POLICY`): every member optional; an absent one falls back to the
 * environment's default (see `spendPolicyOf` in src/roots/workspace-policy.ts), `null`
 * clears it. `putPolicy` replaces the whole policy, `getPolicy`, `removePolicy`. Each write gives the
 * policy a new `revision`; `saveSettings` (the settings modal's save) writes the policy and the key
 * change together, only if the policy is still at the revision the modal was opened with.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { serviceAccountId } from '../platform/config/secrets.ts';
import { type KeyCipher, NO_KEY_CIPHER } from '../platform/config/key-cipher.ts';
import { ConflictError, ValidationError } from '../platform/errors.ts';
import type { ServingQuery } from './installations.ts';
import { Id, IsoTime } from '../domain/ports/records.ts';
import { ITEM_TYPE, type ItemKey, keys } from './keys.ts';
import { resumeScheduledWork } from './scheduled-work.ts';
import { type WorkspacePolicyInput, WorkspacePolicyInputSchema } from './workspace-policy-input.ts';
import { parseItem, type StoreContext, storeContext, type StoreDeps, transactWrite } from './support.ts';

export const WorkspaceServiceKeyInfoSchema = z.object({
  type: z.literal(ITEM_TYPE.workspaceServiceKey),
  teamId: Id,
  last4: z.string().length(4),
  serviceAccountId: Id,
  connectedBy: Id,
  connectedAt: IsoTime,
  /**
   * Set when the key was connected under an Enterprise Grid org-wide install (keyed by its
   * enterprise): jobs and scheduled runs, which know only the team, find the org's install through it
   * when the workspace has none of its own (`installationOf`).
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

/**
 * The installs that may serve a workspace, for `installations.serving`: its own, else the org-wide
 * one of the enterprise it was connected under. Its own comes first, so a workspace that moved to
 * its own install is never sent to an org install that may since have been removed.
 */
export const installationOf = (info: ServedWorkspace): ServingQuery => ({
  teamId: info.teamId,
  ...(info.orgWideInstall ? { enterpriseId: info.orgWideInstall.enterpriseId } : {}),
});

export { type WorkspacePolicyInput, WorkspacePolicyInputSchema } from './workspace-policy-input.ts';

export const WorkspacePolicySchema = WorkspacePolicyInputSchema.extend({
  type: z.literal(ITEM_TYPE.workspacePolicy),
  teamId: Id,
  updatedBy: Id,
  updatedAt: IsoTime,
  /** New on every write (absent on policies written before it): what a save is conditional on. */
  revision: z.string().min(1).optional(),
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

/** The stored item of a new key: encrypted, with what may be shown of it. */
async function serviceKeyItem(context: StoreContext, cipher: KeyCipher, input: NewWorkspaceServiceKey) {
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
  return { ...keys.workspaceServiceKey(input.teamId), ...item };
}

async function putServiceKey(
  context: StoreContext,
  cipher: KeyCipher,
  input: NewWorkspaceServiceKey,
): Promise<WorkspaceServiceKeyInfo> {
  const item = await serviceKeyItem(context, cipher, input);
  await context.client.send(new PutCommand({ TableName: context.tableName, Item: item }));
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

/** The stored item of a policy, at a new revision. */
function policyItem(context: StoreContext, teamId: string, input: WorkspacePolicyInput, updatedBy: string) {
  const parsed = WorkspacePolicyInputSchema.safeParse(input);
  if (!parsed.success)
    throw new ValidationError(`Invalid workspace policy: ${z.prettifyError(parsed.error)}`);
  const policy = WorkspacePolicySchema.parse({
    ...parsed.data,
    type: ITEM_TYPE.workspacePolicy,
    teamId,
    updatedBy,
    updatedAt: context.now().toISOString(),
    revision: randomUUID(),
  });
  return { policy, item: { ...keys.workspacePolicy(teamId), ...policy } };
}

async function putPolicy(
  context: StoreContext,
  teamId: string,
  input: WorkspacePolicyInput,
  updatedBy: string,
): Promise<WorkspacePolicy> {
  const { policy, item } = policyItem(context, teamId, input, updatedBy);
  await context.client.send(new PutCommand({ TableName: context.tableName, Item: item }));
  return policy;
}

/** One save of the settings modal: the rules, and a new key or the key's removal (or neither). */
export interface WorkspaceSettingsUpdate extends ServedWorkspace {
  policy: WorkspacePolicyInput;
  updatedBy: string;
  /** The policy's revision when the modal was opened; undefined when it had none (or no policy). */
  seenRevision: string | undefined;
  serviceKey?: string;
  removeKey?: boolean;
}

/**
 * Writes the policy and the key change at once, only if nobody saved the policy since `seenRevision`;
 * a `ConflictError` (nothing written) otherwise, so a later save never silently replaces an earlier.
 */
async function saveSettings(
  context: StoreContext,
  cipher: KeyCipher,
  update: WorkspaceSettingsUpdate,
): Promise<WorkspacePolicy> {
  const { teamId, serviceKey, updatedBy } = update;
  const { policy, item } = policyItem(context, teamId, update.policy, updatedBy);
  const TableName = context.tableName;
  const keyWrite = serviceKey
    ? {
        Put: {
          TableName,
          Item: await serviceKeyItem(context, cipher, {
            teamId,
            serviceKey,
            connectedBy: updatedBy,
            ...(update.orgWideInstall ? { orgWideInstall: update.orgWideInstall } : {}),
          }),
        },
      }
    : update.removeKey
      ? { Delete: { TableName, Key: keys.workspaceServiceKey(teamId) } }
      : undefined;
  const unchangedSinceSeen = update.seenRevision
    ? { ConditionExpression: 'revision = :seen', ExpressionAttributeValues: { ':seen': update.seenRevision } }
    : { ConditionExpression: 'attribute_not_exists(revision)' };
  const saved = await transactWrite(context.client, {
    TransactItems: [
      { Put: { TableName, Item: item, ...unchangedSinceSeen } },
      ...(keyWrite ? [keyWrite] : []),
    ],
  });
  if (!saved) throw new ConflictError(`The settings of ${teamId} were saved by someone else since`);
  // A key connected again: the scheduled work paused for want of one runs at the next run.
  if (serviceKey) await resumeScheduledWork(context, teamId);
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
    saveSettings: (update: WorkspaceSettingsUpdate) => saveSettings(context, cipher, update),
    getPolicy: async (teamId: string): Promise<WorkspacePolicy | null> => {
      const item = await getItem(context, keys.workspacePolicy(teamId));
      return item ? parseItem(WorkspacePolicySchema, 'workspace policy', item) : null;
    },
    removePolicy: (teamId: string) => deleteItem(context, keys.workspacePolicy(teamId)),
  };
}

export type WorkspaceRepository = ReturnType<typeof createWorkspaceRepository>;
