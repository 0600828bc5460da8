import { mk, type Mrkdwn } from '../views/mrkdwn.ts';

/** What only members may do, as the refusal finishes "only members of this workspace can …". */
type MembersOnly =
  | 'confirm charges'
  | 'cancel someone else’s charge'
  | 'change these settings';

/**
 * Why someone who is not (or could not be told to be) a member of the workspace may not do something,
 * in one sentence (src/domain/workspace-admins.ts decides who is). `doing` finishes "only members of
 * this workspace can …", e.g. "confirm charges".
 */
export function membershipRefusalWords(membership: 'outsider' | 'unknown', doing: MembersOnly): Mrkdwn {
  return membership === 'outsider'
    ? mk`You are a guest from another organisation here: only members of this workspace can ${doing}.`
    : mk`Slack did not answer in time to say whether you can ${doing}. Please try again in a moment.`;
}
