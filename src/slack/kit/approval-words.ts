import type { ApprovalRefusal } from '../../domain/approval.ts';
import { formatCredits, mentionUser } from '../views/format.ts';
import { joinMrkdwn, mk, type Mrkdwn } from '../views/mrkdwn.ts';
import { membershipRefusalWords } from './membership-words.ts';

/*
 * Who may decide a charge, in words: the domain (src/domain/approval.ts) says who may and why not;
 * these say it to the clicker, on the card and on the Home.
 */

const mentions = (ids: readonly string[]) => joinMrkdwn(ids.map(mentionUser), ', ');

/** Why the clicker may not confirm or cancel, and who may. */
export function approvalRefusalWords(refusal: ApprovalRefusal): Mrkdwn {
  switch (refusal.reason) {
    case 'other-workspace':
      return mk`This confirmation belongs to another workspace.`;
    case 'not-a-member':
      return membershipRefusalWords(
        refusal.membership,
        refusal.doing === 'confirm' ? 'confirm charges' : 'cancel someone else’s charge',
      );
    case 'needs-approver': {
      const who =
        refusal.approvers.length > 0
          ? mentions(refusal.approvers)
          : 'an approver (none is set up: ask an admin)';
      return mk`Charges of ${formatCredits(refusal.threshold)} or more need an approver other than the requester: ${who}.`;
    }
    case 'requester-or-approver':
      return mk`Only ${mentionUser(refusal.requestedBy)} or an approver can ${refusal.doing} this.`;
  }
}
