import { describe, expect, it } from 'vitest';
import { readWorkspaceSettingsForm, type ViewValues } from '../../../../src/slack/modal-forms.ts';
import { homeView } from '../../../../src/slack/views/home.ts';
import { workspaceSettingsModal } from '../../../../src/slack/views/workspace-settings.ts';
import { WorkspaceServiceKeyInfoSchema } from '../../../../src/store/workspaces.ts';

const KEY_INFO = WorkspaceServiceKeyInfoSchema.parse({
  type: 'workspace-service-key',
  teamId: 'T0ACME',
  last4: 'wxyz',
  serviceAccountId: 'acct-1',
  connectedBy: 'U0ALICE',
  connectedAt: '2026-11-01T10:00:00.000Z',
});

const text = (values: Record<string, string | null>): ViewValues =>
  Object.fromEntries(
    Object.entries(values).map(([field, value]) => [field, { value: { type: 'plain_text_input', value } }]),
  );

describe('the workspace settings modal', () => {
  it('asks for a key when none is connected, and offers no removal', () => {
    const modal = JSON.stringify(workspaceSettingsModal(null, null));

    expect(modal).toContain('Not connected');
    expect(modal).not.toContain('remove_key');
  });

  it('shows a connected key by its last 4 characters and who connected it, the key optional', () => {
    const modal = workspaceSettingsModal(KEY_INFO, null);
    const keyField = modal.blocks.find((block) => block.block_id === 'service_key');

    expect(JSON.stringify(modal)).toContain('…wxyz, by <@U0ALICE>');
    expect(JSON.stringify(modal)).toContain('remove_key');
    expect(keyField).toMatchObject({ optional: true });
  });
});

describe('reading the workspace settings', () => {
  it('keeps the connected key when the field is empty, and turns the rules into a policy', () => {
    const values: ViewValues = {
      ...text({ service_key: null, daily_cap: '500', approver_group: 'S0APPROVE' }),
      approvers: { value: { type: 'multi_users_select', selected_users: ['U0BOB'] } },
      digest_time: { value: { type: 'timepicker', selected_time: '08:30' } },
    };

    expect(readWorkspaceSettingsForm(values, { connected: true, digestTimeZone: 'Europe/Berlin' })).toEqual({
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

  it('offers Workspace settings only when distributed', () => {
    expect(JSON.stringify(homeView({ ...input, settingsButton: true }))).toContain('Workspace settings');
    expect(JSON.stringify(homeView(input))).not.toContain('Workspace settings');
  });
});
