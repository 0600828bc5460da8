import type { InputBlock, ModalView } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { viewViolations } from '../../../../../local/fake-slack/block-kit-check.ts';
import { stateValues, withInitialValues } from '../../../../../local/fake-slack/view-state.ts';
import { readWorkspaceSettingsForm } from '../../../../../src/slack/features/workspace-admin/forms.ts';
import type { ViewValues } from '../../../../../src/slack/kit/modal-forms.ts';
import type { EnvironmentRules } from '../../../../../src/slack/kit/listener-deps.ts';
import { homeView } from '../../../../../src/slack/features/home/views.ts';
import { digestModal } from '../../../../../src/slack/features/digests/settings-views.ts';
import {
  settingsRefusedModal,
  workspaceSettingsModal,
} from '../../../../../src/slack/features/workspace-admin/views.ts';
import {
  WorkspacePolicySchema,
  WorkspaceServiceKeyInfoSchema,
  type WorkspacePolicyInput,
} from '../../../../../src/store/workspaces.ts';
import { DIGEST_ZONES } from '../../../../../src/slack/kit/time-zones.ts';
import { approverRules } from '../../../../support/approver-rules.ts';

const KEY_INFO = WorkspaceServiceKeyInfoSchema.parse({
  type: 'workspace-service-key',
  teamId: 'T0ACME',
  last4: 'wxyz',
  serviceAccountId: 'acct-1',
  connectedBy: 'U0ALICE',
  connectedAt: '2026-11-01T10:00:00.000Z',
});

/** A distributed app's environment: no defaults. */
const DISTRIBUTED: EnvironmentRules = { fixes: false, approvers: approverRules() };

const policyOf = (input: WorkspacePolicyInput) =>
  WorkspacePolicySchema.parse({
    ...input,
    type: 'workspace-policy',
    teamId: 'T0ACME',
    updatedBy: 'U0ALICE',
    updatedAt: '2026-11-01T10:00:00.000Z',
  });

/** A select's options and its chosen one, as a modal shows them. */
function selectIn(view: ModalView, blockId: string) {
  const block = view.blocks.find((candidate) => candidate.block_id === blockId) as InputBlock | undefined;
  const element = block?.element.type === 'static_select' ? block.element : undefined;
  return {
    offered: element?.options?.map((option) => option.value),
    chosen: element?.initial_option?.value,
  };
}

const text = (values: Record<string, string | null>): ViewValues =>
  Object.fromEntries(
    Object.entries(values).map(([field, value]) => [field, { value: { type: 'plain_text_input', value } }]),
  );

describe('the workspace settings modal', () => {
  it('asks for a key when none is connected, and offers no removal', () => {
    const modal = JSON.stringify(workspaceSettingsModal(null, null, 'admin', DISTRIBUTED));

    expect(modal).toContain('Not connected');
    expect(modal).not.toContain('remove_key');
  });

  it('shows a connected key by its last 4 characters and who connected it, the key optional', () => {
    const modal = workspaceSettingsModal(KEY_INFO, null, 'admin', DISTRIBUTED);
    const keyField = modal.blocks.find((block) => block.block_id === 'service_key');

    expect(JSON.stringify(modal)).toContain('…wxyz, by <@U0ALICE>');
    expect(JSON.stringify(modal)).toContain('remove_key');
    expect(keyField).toMatchObject({ optional: true });
  });

  it('offers the digest modal’s time zones for the digest default, “No default” first and chosen when none is stored', () => {
    const modal = workspaceSettingsModal(KEY_INFO, null, 'admin', DISTRIBUTED);

    expect(selectIn(modal, 'digest_zone')).toEqual({
      offered: selectIn(digestModal('C0GENERAL'), 'zone').offered,
      chosen: 'slack',
    });
    expect(JSON.stringify(modal)).toContain('No default');
    expect(viewViolations('modal', { ...modal })).toEqual([]);
  });

  it('shows the stored default zone and time chosen, and offers a stored zone the list lacks', () => {
    const berlin = workspaceSettingsModal(
      KEY_INFO,
      policyOf({ digestDefaults: { time: '08:30', timeZone: 'Europe/Berlin' } }),
      'admin',
      DISTRIBUTED,
    );
    const kathmandu = workspaceSettingsModal(
      KEY_INFO,
      policyOf({ digestDefaults: { timeZone: 'Asia/Kathmandu' } }),
      'admin',
      DISTRIBUTED,
    );

    expect(selectIn(berlin, 'digest_zone').chosen).toBe('Europe/Berlin');
    expect(JSON.stringify(berlin.blocks)).toContain('"initial_time":"08:30"');
    expect(selectIn(kathmandu, 'digest_zone')).toMatchObject({
      offered: ['slack', 'Asia/Kathmandu', ...DIGEST_ZONES],
      chosen: 'Asia/Kathmandu',
    });
  });
});

describe('reading the workspace settings', () => {
  it('keeps the connected key when the field is empty, and turns the rules into a policy', () => {
    const values: ViewValues = {
      ...text({ service_key: null, daily_cap: '500', approver_group: 'S0APPROVE' }),
      approvers: { value: { type: 'multi_users_select', selected_users: ['U0BOB'] } },
      digest_time: { value: { type: 'timepicker', selected_time: '08:30' } },
      digest_zone: { value: { type: 'static_select', selected_option: { value: 'Europe/Berlin' } } },
    };

    expect(readWorkspaceSettingsForm(values, { connected: true })).toEqual({
      ok: true,
      value: {
        removeKey: false,
        policy: {
          approverUserIds: ['U0BOB'],
          approverUserGroupId: 'S0APPROVE',
          dailyCap: 500,
          digestDefaults: { time: '08:30', timeZone: 'Europe/Berlin' },
        },
      },
    });
  });

  const errorsOf = (...args: Parameters<typeof readWorkspaceSettingsForm>) => {
    const read = readWorkspaceSettingsForm(...args);
    return read.ok ? {} : read.errors;
  };

  it('needs a key to connect, and refuses a key together with its removal', () => {
    const both: ViewValues = {
      ...text({ service_key: 'sk_test_abcdefghijkl' }),
      remove_key: { value: { type: 'checkboxes', selected_options: [{ value: 'remove' }] } },
    };

    expect(errorsOf(text({ service_key: null }), { connected: false }).service_key).toMatch(/Paste/);
    expect(errorsOf(both, { connected: true }).service_key).toMatch(/not both/);
  });

  it('keeps no default zone when “No default” is chosen, whatever was stored', () => {
    const values: ViewValues = {
      digest_time: { value: { type: 'timepicker', selected_time: '08:30' } },
      digest_zone: { value: { type: 'static_select', selected_option: { value: 'slack' } } },
    };

    const read = readWorkspaceSettingsForm(values, { connected: true });

    expect(read).toMatchObject({ ok: true, value: { policy: { digestDefaults: { time: '08:30' } } } });
    expect(read.ok && read.value.policy.digestDefaults).not.toHaveProperty('timeZone');
  });

  it('refuses a zone that is not one, as the digest modal does', () => {
    const zone = (value: string): ViewValues => ({
      digest_zone: { value: { type: 'static_select', selected_option: { value } } },
    });

    expect(errorsOf(zone('Mars/Olympus'), { connected: true }).digest_zone).toMatch(/time zone/);
    expect(errorsOf(zone('UTC keywords:x'), { connected: true }).digest_zone).toMatch(/time zone/);
    expect(errorsOf(zone('Asia/Kathmandu'), { connected: true })).toEqual({});
  });

  it('keeps the stored rules when the modal is saved as shown (Slack sends the prefilled values)', () => {
    const stored: WorkspacePolicyInput = {
      approverUserIds: ['U0BOB'],
      approverUserGroupId: 'S0APPROVE',
      dailyCap: 500,
      approvalThreshold: 100,
      digestDefaults: { time: '08:30', timeZone: 'Europe/Berlin' },
    };
    const modal = { ...workspaceSettingsModal(KEY_INFO, policyOf(stored), 'admin', DISTRIBUTED) };
    const unchanged = stateValues(modal, withInitialValues(modal, {})) as ViewValues;

    expect(readWorkspaceSettingsForm(unchanged, { connected: true })).toEqual({
      ok: true,
      value: { removeKey: false, policy: stored },
    });
  });

  it('says which rule is malformed', () => {
    const values = text({ daily_cap: '0', approval_threshold: '2.5', approver_group: 'approvers' });

    const errors = errorsOf(values, { connected: true });

    expect(errors.daily_cap).toMatch(/whole number/);
    expect(errors.approval_threshold).toMatch(/whole number/);
    expect(errors.approver_group).toMatch(/starts with S/);
  });
});

describe('the Home of a distributed app', () => {
  const input = {
    userId: 'U0ALICE',
    now: new Date('2026-11-24T10:00:00Z'),
    balance: 100,
    spentToday: 0,
    confirmations: [],
    tasks: [],
    digests: [],
    charges: [],
  };

  it('offers Workspace settings when the sources say the app has them', () => {
    expect(JSON.stringify(homeView({ ...input, settingsButton: true }))).toContain('Workspace settings');
    expect(JSON.stringify(homeView(input))).not.toContain('Workspace settings');
  });
});

describe('the settings refused to a member who is not an admin', () => {
  const said = (who: Parameters<typeof settingsRefusedModal>[1]) =>
    JSON.stringify(settingsRefusedModal('not-admin', who).blocks);

  it('names the admins Slack lists, and says there are others when it listed more', () => {
    const admins = [
      { userId: 'U0DANA', role: 'owner' as const },
      { userId: 'U0ERIN', role: 'admin' as const },
    ];

    expect(said({ admins: { admins, more: false }, appManagerUserIds: [] })).toContain(
      'Ask <@U0DANA> (owner) or <@U0ERIN> (admin) to change what you need.',
    );
    expect(said({ admins: { admins, more: true }, appManagerUserIds: [] })).toContain(
      'Ask <@U0DANA> (owner), <@U0ERIN> (admin) or another admin to change what you need.',
    );
  });

  it('says plainly when Slack names no admin and no app manager is named', () => {
    expect(said({ admins: { admins: [], more: false }, appManagerUserIds: [] })).toContain(
      'Slack names no admin or owner of this workspace, and no app manager is named',
    );
  });

  it('says Slack did not say who the admins are, and still names the app managers', () => {
    expect(said({ admins: undefined, appManagerUserIds: [] })).toContain(
      'Slack did not say just now who the workspace’s admins are',
    );
    expect(said({ admins: undefined, appManagerUserIds: ['U0FRANK'] })).toContain(
      'Ask <@U0FRANK> (app manager) or another admin to change what you need.',
    );
  });

  it('never lets an id become anything but a mention or escaped text', () => {
    const hostile = said({
      admins: { admins: [{ userId: '<!channel>', role: 'admin' }], more: false },
      appManagerUserIds: [],
    });

    expect(hostile).not.toContain('<!channel>');
    expect(hostile).toContain('&lt;!channel&gt; (admin)');
  });
});

describe('the spending rules the environment sets, in the settings modal', () => {
  const blocksOf = (environment: EnvironmentRules) =>
    JSON.stringify(workspaceSettingsModal(null, null, 'admin', environment).blocks);

  it('shows a single workspace’s rules read-only with their variables, approvers and groups as mentions', () => {
    const shown = blocksOf({
      fixes: true,
      approvers: approverRules({ users: ['U0BOB'], userGroups: ['S0LEADS'] }),
      approvalThreshold: 250,
      keySetBy: 'EIS_SECRET_ID',
    });

    expect(shown).toContain(
      '*Approvers:* <@U0BOB>, members of <!subteam^S0LEADS>, set by `SPEND_APPROVERS` in the environment.',
    );
    expect(shown).toContain(
      '*Approval threshold:* 250 credits, set by `APPROVAL_THRESHOLD` in the environment.',
    );
    expect(shown).toContain('set by `EIS_SECRET_ID` in the environment (never shown)');
    expect(shown).not.toContain('"block_id":"approvers"');
    expect(shown).not.toContain('"block_id":"service_key"');
    expect(shown).toContain('"block_id":"daily_cap"');
    expect(shown).toContain('Empty: no cap.');
  });

  it('offers a distributed workspace every rule, each hint naming the environment’s default', () => {
    const shown = blocksOf({
      fixes: false,
      approvers: approverRules({ users: ['U0BOB'] }),
      dailyCap: 300,
    });

    expect(shown).toContain('"block_id":"approvers"');
    expect(shown).toContain('Empty keeps the environment’s (SPEND_APPROVERS).');
    expect(shown).toContain('Empty keeps the default, 300 (DAILY_CREDIT_CAP).');
    expect(shown).toContain('"block_id":"service_key"');
    expect(shown).not.toContain('set by `');
  });
});
