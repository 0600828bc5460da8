import type { KnownBlock } from '@slack/types';
import * as z from 'zod';
import type { WorkspacePolicyInput } from '../../store/workspace-policy-input.ts';
import { input, plainText } from '../views/blocks.ts';
import { mentionUser, mentionUserGroup } from '../views/format.ts';
import { mk, type Mrkdwn } from '../views/mrkdwn.ts';

/*
 * Who may approve spending, one kind a row: how a kind is read from `SPEND_APPROVERS` and from a
 * workspace's saved settings, how the settings modal shows and reads it, how it is named, and who its
 * members are. The spending rules (src/roots/workspace-policy.ts), the settings modal
 * (features/workspace-admin/rules-views.ts, forms.ts) and the deploy's check (infra/config.ts) all
 * read this table; the cards and the Home name the approvers it resolves. A new kind is a new row
 * here, and its saved field in src/store/workspace-policy-input.ts.
 */

/** Where approvers are resolved: the workspace, and the channel a command, button or job is in. */
export interface ApproverScope {
  teamId: string;
  /** Undefined where there is none (the Home, the settings modal, a workspace-wide job). */
  channelId: string | undefined;
  /** Slack is read with it; without one, a kind that needs Slack names no one. */
  botToken: string | undefined;
}

/** One Slack Web API read with a bot token (`usergroups.users.list`, …); tests replace Slack. */
export type ReadSlack = (
  botToken: string,
  method: string,
  args: Record<string, string>,
) => Promise<unknown>;

/** One kind of approver; its entries are strings (a user id, a group id, …). */
export interface ApproverKind {
  /** `SPEND_APPROVERS` entries of this kind (the deploy refuses an entry of no kind). */
  envForm: RegExp;
  /** The entry's form, for the deploy's error: `a Slack user id such as U0123ABCD`. */
  envExample: string;
  /** Its field in a workspace's saved settings, and its entries there (undefined: none saved). */
  savedField: keyof WorkspacePolicyInput;
  fromSaved: (saved: WorkspacePolicyInput) => readonly string[] | undefined;
  toSaved: (entries: readonly string[]) => Partial<WorkspacePolicyInput>;
  /** The settings modal's input (its block id is `field`, its element's `action_id` `value`). */
  field: string;
  input: (saved: readonly string[], hint: string) => KnownBlock;
  /** The entries the modal's input holds, or the problem to show on it. */
  read: (element: unknown) => { entries: readonly string[] } | { problem: string };
  /** How an entry is named where the environment fixes it: `@Bob`, `members of @finance`. */
  words: (entry: string) => Mrkdwn;
  /** The user ids an entry names, read from Slack where needed (it throws when Slack cannot say). */
  members: (entry: string, scope: ApproverScope & { botToken: string }, read: ReadSlack) => Promise<readonly string[]>;
  /** Whether `members` reads Slack (then no one without a bot token). */
  readsSlack: boolean;
  /** What the log line says could not be read: `the approvers’ user group`. */
  unreadable: string;
}

const FIELD = 'value';
const SelectedUsers = z.object({ selected_users: z.array(z.string()) });
const TextValue = z.object({ value: z.string().nullish() });
const GroupMembers = z.object({ users: z.array(z.string()).optional() });
const USER_GROUP_ID = /^S[A-Z0-9]{2,}$/;

const users: ApproverKind = {
  envForm: /^[UW][A-Z0-9]{2,}$/,
  envExample: 'a Slack user id such as U0123ABCD',
  savedField: 'approverUserIds',
  fromSaved: (saved) => saved.approverUserIds,
  toSaved: (entries) => (entries.length > 0 ? { approverUserIds: [...entries] } : {}),
  field: 'approvers',
  input: (saved, hint) =>
    input(
      'approvers',
      'Approvers',
      { type: 'multi_users_select', action_id: FIELD, ...(saved.length ? { initial_users: [...saved] } : {}) },
      { hint: `They may confirm anybody’s spending.${hint}` },
    ),
  read: (element) => ({ entries: SelectedUsers.safeParse(element).data?.selected_users ?? [] }),
  words: mentionUser,
  members: (entry) => Promise.resolve([entry]),
  readsSlack: false,
  unreadable: 'the approvers',
};

const userGroups: ApproverKind = {
  envForm: USER_GROUP_ID,
  envExample: 'a user group id such as S0123ABCD',
  savedField: 'approverUserGroupId',
  fromSaved: (saved) => (saved.approverUserGroupId ? [saved.approverUserGroupId] : undefined),
  toSaved: ([group]) => (group ? { approverUserGroupId: group } : {}),
  field: 'approver_group',
  input: ([group]) =>
    input(
      'approver_group',
      'Approvers’ user group id',
      {
        type: 'plain_text_input',
        action_id: FIELD,
        max_length: 30,
        placeholder: plainText('S0123ABCD'),
        ...(group ? { initial_value: group } : {}),
      },
      { hint: 'Its members may confirm too.' },
    ),
  read: (element) => {
    const group = TextValue.safeParse(element).data?.value?.trim();
    if (!group) return { entries: [] };
    return USER_GROUP_ID.test(group)
      ? { entries: [group] }
      : { problem: 'A user group id starts with S, e.g. S0123ABCD.' };
  },
  words: (id) => mk`members of ${mentionUserGroup(id)}`,
  members: async (usergroup, { botToken }, read) =>
    GroupMembers.parse(await read(botToken, 'usergroups.users.list', { usergroup })).users ?? [],
  readsSlack: true,
  unreadable: 'the approvers’ user group',
};

/**
 * The kinds, in the order the modal shows them and `SPEND_APPROVERS` is read: an entry is the first
 * kind's whose form it has, and an entry of no form is a user's (as it always was).
 */
export const APPROVER_KINDS = { users, userGroups } as const satisfies Record<string, ApproverKind>;

export type ApproverKindName = keyof typeof APPROVER_KINDS;

/** Who may approve, before Slack is asked who is in a group: each kind's entries. */
export type ApproverRules = Record<ApproverKindName, readonly string[]>;

const KINDS = Object.entries(APPROVER_KINDS) as [ApproverKindName, ApproverKind][];

/** Each kind's entries from `each`. */
export const approverRulesBy = (each: (kind: ApproverKind) => readonly string[]): ApproverRules =>
  Object.fromEntries(KINDS.map(([name, kind]) => [name, each(kind)])) as ApproverRules;

/** Each kind with its entries, in the table's order. */
export const eachApproverKind = (rules: ApproverRules) =>
  KINDS.map(([name, kind]) => ({ name, kind, entries: rules[name] }));

export const hasApprovers = (rules: ApproverRules) => Object.values(rules).some((entries) => entries.length > 0);

/** Whether `SPEND_APPROVERS` may hold this entry (the deploy checks each: infra/config.ts). */
export const isApproverId = (entry: string) => KINDS.some(([, kind]) => kind.envForm.test(entry));

/** What the deploy says of an entry of no kind. */
export const APPROVER_ID_EXAMPLES = KINDS.map(([, kind]) => kind.envExample).join(', or ');

/** `SPEND_APPROVERS`'s entries by kind: the first kind whose form an entry has, else a user's. */
export const approverRulesOfEnv = (entries: readonly string[]): ApproverRules => {
  const kindOf = (entry: string) => KINDS.find(([, kind]) => kind.envForm.test(entry))?.[0] ?? 'users';
  return approverRulesBy((kind) => entries.filter((entry) => APPROVER_KINDS[kindOf(entry)] === kind));
};

/** The approvers a workspace saved, of every kind: they replace the environment's. Undefined: none saved. */
export function savedApproverRules(saved: WorkspacePolicyInput | null): ApproverRules | undefined {
  if (!saved || KINDS.every(([, kind]) => kind.fromSaved(saved) === undefined)) return undefined;
  return approverRulesBy((kind) => kind.fromSaved(saved) ?? []);
}

/** The saved settings' fields of the approvers: what the rules save as. */
export const approverRulesToSave = (rules: ApproverRules): Partial<WorkspacePolicyInput> =>
  eachApproverKind(rules).reduce<Partial<WorkspacePolicyInput>>(
    (saved, { kind, entries }) => ({ ...saved, ...kind.toSaved(entries) }),
    {},
  );

/** The saved settings without their approvers (which the environment fixes in a single workspace). */
export function withoutSavedApprovers(saved: WorkspacePolicyInput): WorkspacePolicyInput {
  const kept = { ...saved };
  for (const [, kind] of KINDS) delete kept[kind.savedField];
  return kept;
}
