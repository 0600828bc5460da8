import type { InputBlock, KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { FORM_IDS } from '../../views/form-ids.ts';
import { mayChangeAppManagers, type SettingsRole } from '../../../domain/workspace-admins.ts';
import type { WorkspacePolicy, WorkspaceServiceKeyInfo } from '../../../store/workspaces.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { context, header, input, plainText, section } from '../../views/blocks.ts';
import { code, mentionUser, slackDate, utcDay } from '../../views/format.ts';
import type { EnvironmentRules } from '../../kit/listener-deps.ts';
import { RULE_FIELDS, spendingRuleBlocks } from './rules-views.ts';
import type { HomeView } from '../../views/types.ts';
import { membershipRefusalWords } from '../../kit/membership-words.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn, truncate } from '../../views/mrkdwn.ts';
import { DIGEST_ZONES, SLACK_ZONE } from '../../kit/time-zones.ts';
import { ADMINS_NAMED, type WorkspaceAdminsFound } from '../../kit/workspace-roles.ts';

/**
 * A workspace's admin surfaces (issue 15): the Home a distributed one sees until its service key is
 * connected, and the settings modal (key and policy; a single workspace's key and the rules its
 * environment sets shown read-only: `rules-views.ts`). Pure builders; `forms.ts` reads the
 * modal back. Each input's `block_id` is its field name, its element's `action_id` is `value`.
 */

export const WORKSPACE_SETTINGS_CALLBACK = FORM_IDS.workspaceSettings;

/** The modal's fields, by block id. */
export const SETTINGS_FIELDS = {
  key: 'service_key',
  removeKey: 'remove_key',
  ...RULE_FIELDS,
  digestTime: 'digest_time',
  digestZone: 'digest_zone',
  appManagers: 'app_managers',
} as const;

/** Who to ask, for anyone refused the settings. */
export const WHO_MANAGES_SETTINGS =
  'Only workspace admins and owners, or the app managers they name, can change these settings.';

/** A save that lost to another one made while the modal was open (shown on the key field, on top). */
export const SETTINGS_CONFLICT =
  'Someone else saved these settings while you had them open: close and open the settings again to see theirs.';

/** What the settings modal carries to its submission: the policy's revision it showed. */
export interface SettingsMetadata {
  revision?: string | undefined;
}

const FIELD = 'value';
/** The "Remove the key" checkbox's value. */
export const REMOVE_KEY_VALUE = 'remove';

const connectButton = (label: string): KnownBlock => ({
  type: 'actions',
  block_id: 'home-workspace',
  elements: [
    {
      type: 'button',
      action_id: ACTION_IDS.openWorkspaceSettings,
      text: plainText(label),
      style: 'primary',
    },
  ],
});

/** The Home of a workspace without a service key: what to do, and the button that does it. */
export function connectHomeView(
  notConnectedText: string,
  notice?: Mrkdwn,
  adminNotices: KnownBlock[] = [],
): HomeView {
  return {
    type: 'home',
    blocks: [
      header('Event Intelligence'),
      ...(notice ? [section(mk`:information_source: ${truncate(notice, 2900)}`)] : []),
      section(escapeMrkdwn(notConnectedText)),
      ...adminNotices,
      connectButton('Connect Event Intelligence'),
      context(WHO_MANAGES_SETTINGS),
    ],
  };
}

const simpleModal = (title: string, text: Mrkdwn): ModalView => ({
  type: 'modal',
  callback_id: `${WORKSPACE_SETTINGS_CALLBACK}.info`,
  title: plainText(title),
  close: plainText('Close'),
  blocks: [section(text)],
});

/** Shown at once (the trigger id lasts 3 s) while who is asking is checked. */
export const settingsLoadingModal = () => simpleModal('Workspace settings', mk`Checking your access…`);

/** Who can change the settings, as a refusal names them: Slack's admins (undefined: Slack did not say) and the app managers. */
export interface WhoManagesSettings {
  admins: WorkspaceAdminsFound | undefined;
  appManagerUserIds: readonly string[];
}

/** `@Dana (admin), @Erin (owner) or @Frank (app manager)`: at most `ADMINS_NAMED` of each, by mention. */
function whoToAsk({ admins, appManagerUserIds }: WhoManagesSettings): Mrkdwn {
  const named = [
    ...(admins?.admins ?? []).map(({ userId, role }) => mk`${mentionUser(userId)} (${role})`),
    ...appManagerUserIds.slice(0, ADMINS_NAMED).map((userId) => mk`${mentionUser(userId)} (app manager)`),
  ];
  const unlisted = !admins || admins.more;
  if (named.length === 0) {
    if (!admins)
      return mk`Slack did not say just now who the workspace’s admins are: ask one of them to change what you need.`;
    return unlisted
      ? mk`Ask one of the workspace’s admins or owners to change what you need.`
      : mk`Slack names no admin or owner of this workspace, and no app manager is named: ask whoever manages your Slack workspace.`;
  }
  if (unlisted) named.push(mk`another admin`);
  const last = named.pop() ?? mk``;
  const names = named.length > 0 ? mk`${joinMrkdwn(named, ', ')} or ${last}` : last;
  return mk`Ask ${names} to change what you need.`;
}

/** Why the settings are refused: not an admin or app manager (and who is), a guest from another organisation, or Slack did not say. */
export const settingsRefusedModal = (why: 'not-admin' | 'outsider' | 'unknown', who?: WhoManagesSettings) =>
  simpleModal(
    'Workspace settings',
    why === 'not-admin'
      ? mk`${WHO_MANAGES_SETTINGS} ${who ? whoToAsk(who) : mk`Ask one of them to change what you need.`}`
      : membershipRefusalWords(why, 'change these settings'),
  );

/**
 * A submission that would change what the environment sets (`variables`, e.g. `SPEND_APPROVERS`):
 * refused whole, as the modal never offers it.
 */
export const settingsFixedModal = (variables: readonly string[]) =>
  simpleModal(
    'Workspace settings',
    mk`${joinMrkdwn(variables.map(code), ', ')} ${variables.length === 1 ? 'is' : 'are'} set in the environment, not here: nothing was saved. They are changed where the app is deployed.`,
  );

/** The key's status: only its last 4 characters, who connected it and when. */
export function keyStatus(info: WorkspaceServiceKeyInfo | null): Mrkdwn {
  if (!info) return mk`*Not connected.* Paste the workspace’s Event Intelligence API key below.`;
  const at = new Date(info.connectedAt);
  return mk`*Connected:* key ending …${escapeMrkdwn(info.last4)}, by ${mentionUser(info.connectedBy)}, on ${slackDate(at, '{date_short}', utcDay(at))}`;
}

/**
 * The settings modal: the key (empty keeps the connected one), its removal, the spending rules, and
 * the app managers (chosen by admins, only shown to the managers themselves). It carries the policy's
 * revision, so a save made meanwhile by someone else is not silently replaced.
 */
export function workspaceSettingsModal(
  info: WorkspaceServiceKeyInfo | null,
  policy: WorkspacePolicy | null,
  role: SettingsRole,
  environment: EnvironmentRules,
): ModalView {
  const metadata: SettingsMetadata = { revision: policy?.revision };
  return {
    type: 'modal',
    callback_id: WORKSPACE_SETTINGS_CALLBACK,
    title: plainText('Workspace settings'),
    submit: plainText('Save'),
    close: plainText('Cancel'),
    private_metadata: JSON.stringify(metadata),
    blocks: [
      ...(environment.keySetBy ? [appKeyStatus(environment.keySetBy)] : keyBlocks(info)),
      ...spendingRuleBlocks(policy, environment),
      ...digestDefaultBlocks(policy),
      ...managerBlocks(policy, role),
    ],
  };
}

function managerBlocks(policy: WorkspacePolicy | null, role: SettingsRole): KnownBlock[] {
  const managers = policy?.appManagerUserIds ?? [];
  if (!mayChangeAppManagers(role))
    return [
      header('App managers'),
      section(joinMrkdwn(managers.map(mentionUser), ', ') || mk`None.`),
      context('Only workspace admins and owners can change who the app managers are.'),
    ];
  return [
    header('App managers'),
    input(
      SETTINGS_FIELDS.appManagers,
      'App managers',
      {
        type: 'multi_users_select',
        action_id: FIELD,
        ...(managers.length > 0 ? { initial_users: managers } : {}),
      },
      {
        hint: 'They may change these settings too, but not who the app managers are. Workspace admins and owners always can.',
      },
    ),
  ];
}

/** A single workspace's key: the app's own, named by where it is set, never shown. */
const appKeyStatus = (variable: NonNullable<EnvironmentRules['keySetBy']>) =>
  section(
    mk`*Event Intelligence key:* the app’s own, set by ${code(variable)} in the environment (never shown).`,
  );

function keyBlocks(info: WorkspaceServiceKeyInfo | null): KnownBlock[] {
  const F = SETTINGS_FIELDS;
  return [
    section(keyStatus(info)),
    input(
      F.key,
      info ? 'Replace the API key' : 'Event Intelligence API key',
      { type: 'plain_text_input', action_id: FIELD, max_length: 500, placeholder: plainText('sk_…') },
      {
        optional: info !== null,
        hint: info
          ? 'Leave empty to keep the connected key. It is checked with the service, stored encrypted and never shown again.'
          : 'It is checked with the service, stored encrypted and never shown again.',
      },
    ),
    ...(info
      ? [
          input(F.removeKey, 'Remove the key', {
            type: 'checkboxes',
            action_id: FIELD,
            options: [
              {
                text: plainText('Remove the connected key (commands stop until a key is connected again)'),
                value: REMOVE_KEY_VALUE,
              },
            ],
          }),
        ]
      : []),
  ];
}

/**
 * The digest modal's zones, and "no default" (`SLACK_ZONE`) first: Slack cannot clear a chosen
 * option, so no default must be one. A stored zone the list lacks is offered too, so saving keeps it.
 */
function digestZoneInput(stored: string | undefined): InputBlock {
  const offered: readonly string[] = DIGEST_ZONES;
  const zones = [...(stored && !offered.includes(stored) ? [stored] : []), ...DIGEST_ZONES];
  const noDefault: PlainTextOption = { text: plainText('No default'), value: SLACK_ZONE };
  const options = [noDefault, ...zones.map((zone) => ({ text: plainText(zone), value: zone }))];
  return input(
    SETTINGS_FIELDS.digestZone,
    'Default digest time zone',
    {
      type: 'static_select',
      action_id: FIELD,
      options,
      initial_option: options.find((option) => option.value === stored) ?? noDefault,
    },
    // As `digest on` uses it (slack/worker/digest-commands.ts): before the requester's own zone.
    { hint: 'For new daily digests set up without a zone; with no default, the requester’s Slack zone.' },
  );
}

function digestDefaultBlocks(policy: WorkspacePolicy | null): KnownBlock[] {
  const time = policy?.digestDefaults?.time;
  return [
    header('Digest defaults'),
    input(
      SETTINGS_FIELDS.digestTime,
      'Default digest time',
      { type: 'timepicker', action_id: FIELD, ...(time ? { initial_time: time } : {}) },
      { hint: 'For new daily digests set up without a time.' },
    ),
    digestZoneInput(policy?.digestDefaults?.timeZone),
  ];
}
