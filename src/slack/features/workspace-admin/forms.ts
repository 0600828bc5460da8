import * as z from 'zod';
import {
  type WorkspacePolicyInput,
  WorkspacePolicyInputSchema,
} from '../../../store/workspace-policy-input.ts';
import { approverRulesBy, approverRulesToSave } from '../../kit/approver-kinds.ts';
import { choicesOf, fieldOf, type FormResult, type ViewValues } from '../../kit/modal-forms.ts';
import { REMOVE_KEY_VALUE, SETTINGS_FIELDS, type SettingsMetadata } from './views.ts';
import { SLACK_ZONE, zoneOf } from '../../kit/time-zones.ts';

/** What the workspace settings modal asks for (`views.ts`). */
export interface WorkspaceSettingsSubmission {
  /** A new key to check and connect; absent keeps the connected one. */
  serviceKey?: string;
  removeKey: boolean;
  policy: WorkspacePolicyInput;
}

const UserIdsSchema = z.object({ selected_users: z.array(z.string()) });

/** The users a multi-user select holds; none when empty or absent. */
const usersOf = (values: ViewValues, field: string) =>
  Object.values(values[field] ?? {}).flatMap((element) => {
    const parsed = UserIdsSchema.safeParse(element);
    return parsed.success ? parsed.data.selected_users : [];
  });

/** Each kind of approver as its input holds it (a problem goes on that input). */
function approversOf(values: ViewValues, errors: Record<string, string>) {
  return approverRulesBy((kind) => {
    const read = kind.read(Object.values(values[kind.field] ?? {})[0]);
    if ('entries' in read) return read.entries;
    errors[kind.field] = read.problem;
    return [];
  });
}

const SettingsMetadataSchema = z.object({ revision: z.string().min(1).optional() });

/** The settings modal's metadata; none (as a policy never saved) when it cannot be read. */
export function readSettingsMetadata(privateMetadata: string | undefined): SettingsMetadata {
  try {
    return SettingsMetadataSchema.parse(JSON.parse(privateMetadata || '{}'));
  } catch {
    return {};
  }
}

/**
 * The workspace settings modal: a new key or the removal of the connected one, the spending rules
 * (an empty one keeps the environment's default), the digest defaults (`SLACK_ZONE`: no default
 * zone) and the app managers (none when the field is empty or absent: whether the submitter may set
 * them is the listener's to apply). The key is only trimmed here: the service judges it.
 */
export function readWorkspaceSettingsForm(
  values: ViewValues,
  current: { connected: boolean },
): FormResult<WorkspaceSettingsSubmission> {
  const F = SETTINGS_FIELDS;
  const errors: Record<string, string> = {};
  const serviceKey = fieldOf(values, F.key);
  const removeKey = choicesOf(values, F.removeKey).includes(REMOVE_KEY_VALUE);
  if (serviceKey && removeKey) errors[F.key] = 'Either give a new key or remove the key, not both.';
  else if (!serviceKey && !current.connected) errors[F.key] = 'Paste the workspace’s API key to connect it.';
  const appManagers = usersOf(values, F.appManagers);
  const approvers = approversOf(values, errors);
  const credits = (field: string) => {
    const value = fieldOf(values, field);
    if (value === undefined) return undefined;
    if (/^\d{1,12}$/.test(value) && Number(value) > 0) return Number(value);
    errors[field] = 'A whole number of credits, at least 1.';
    return undefined;
  };
  const dailyCap = credits(F.dailyCap);
  const approvalThreshold = credits(F.approvalThreshold);
  const time = fieldOf(values, F.digestTime);
  const zone = zoneOf(values, F.digestZone, errors);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const digestDefaults = {
    ...(time ? { time } : {}),
    ...(zone !== SLACK_ZONE ? { timeZone: zone } : {}),
  };
  const policy = WorkspacePolicyInputSchema.safeParse({
    ...(appManagers.length > 0 ? { appManagerUserIds: appManagers } : {}),
    ...approverRulesToSave(approvers),
    ...(dailyCap !== undefined ? { dailyCap } : {}),
    ...(approvalThreshold !== undefined ? { approvalThreshold } : {}),
    ...(Object.keys(digestDefaults).length > 0 ? { digestDefaults } : {}),
  });
  if (!policy.success)
    return { ok: false, errors: { [F.digestTime]: 'This form is out of date; open it again.' } };
  return { ok: true, value: { ...(serviceKey ? { serviceKey } : {}), removeKey, policy: policy.data } };
}
