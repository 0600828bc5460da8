import { describe, expect, it } from 'vitest';
import { readWorkspaceSettingsForm } from '../../../../src/slack/features/workspace-admin/forms.ts';
import { workspaceSettingsModal } from '../../../../src/slack/features/workspace-admin/views.ts';
import {
  APPROVER_KINDS,
  type ApproverKindName,
  approverRulesOfEnv,
  isApproverId,
  savedApproverRules,
} from '../../../../src/slack/kit/approver-kinds.ts';
import { WorkspacePolicyInputSchema } from '../../../../src/store/workspace-policy-input.ts';
import { approverRules } from '../../../support/approver-rules.ts';

/** One entry of each kind, in the form `SPEND_APPROVERS` and the settings take it. */
const ENTRY: Record<ApproverKindName, string> = { users: 'U0BOB', userGroups: 'S0LEADS' };

/** What Slack sends back for an input block as the modal showed it (its initial value kept). */
function submittedValueOf({ element }: { element: object }) {
  const { type, initial_users, initial_value, initial_options } = element as Record<string, unknown>;
  return {
    type,
    ...(initial_users ? { selected_users: initial_users } : {}),
    ...(initial_value ? { value: initial_value } : {}),
    ...(initial_options ? { selected_options: initial_options } : {}),
  };
}

describe.each(Object.keys(APPROVER_KINDS) as ApproverKindName[])('the %s kind of approver', (name) => {
  const kind = APPROVER_KINDS[name];
  const entry = ENTRY[name];
  const rules = approverRules({ [name]: [entry] });

  it('is read from SPEND_APPROVERS as its own kind, and the deploy accepts it', () => {
    expect(isApproverId(entry)).toBe(true);
    expect(approverRulesOfEnv([entry])).toEqual(rules);
  });

  it('saves into a field of the stored settings and reads back as itself', () => {
    const saved = WorkspacePolicyInputSchema.parse(kind.toSaved([entry]));

    expect(Object.keys(saved)).toEqual([kind.savedField]);
    expect(savedApproverRules(saved)).toEqual(rules);
  });

  it('is offered in the settings modal with the saved entry, and a save keeps it', () => {
    const saved = WorkspacePolicyInputSchema.parse(kind.toSaved([entry]));
    const modal = workspaceSettingsModal(null, { ...saved } as never, 'admin', {
      fixes: false,
      approvers: approverRules(),
    });
    const block = modal.blocks.find((b) => b.type === 'input' && b.block_id === kind.field);
    if (!block || !('element' in block)) throw new Error(`no ${kind.field} input`);

    const form = readWorkspaceSettingsForm(
      { [kind.field]: { value: submittedValueOf(block) } },
      { connected: true },
    );

    expect(form).toMatchObject({ ok: true, value: { policy: saved } });
  });

  it('is named where a single workspace’s environment fixes it', () => {
    const shown = JSON.stringify(
      workspaceSettingsModal(null, null, 'admin', { fixes: true, approvers: rules }).blocks,
    );

    expect(shown).toContain(`*Approvers:* ${kind.words(entry)}, set by \`SPEND_APPROVERS\``);
  });
});
