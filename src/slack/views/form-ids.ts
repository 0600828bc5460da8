import { OUTCOME_LOGGERS } from '../../domain/outcomes.ts';
import { RUNS, type ButtonAudience } from './action-ids.ts';

/**
 * The `callback_id`s of the modals that can be submitted, each with whom it is for
 * (src/domain/audience.ts). `RUNS`: its submission becomes an `/events` command or a list's page, held
 * to that command's or list's audience where it runs. A submission of any other callback id is refused.
 * Modals that only say something (nothing to submit) are not forms.
 */
const FORMS = {
  /** Research a company: its `/events account` or `contacts` command. */
  research: { id: 'modal.research', audience: RUNS },
  /** Search: its `/events search` command. */
  search: { id: 'modal.search', audience: RUNS },
  /** A list's Filter…: the list's first page. */
  filter: { id: 'modal.filter', audience: RUNS },
  /** A channel's digest settings: its `/events digest on …` command. */
  digest: { id: 'modal.digest', audience: RUNS },
  /** Compare…: the service's public data on the picked shows. */
  compare: { id: 'modal.compare', audience: 'anyone' },
  /** Import accounts into the channel's watch. */
  watchImport: { id: 'modal.watch-import', audience: 'members' },
  /** A show's costs on the plan: its `/events plan cost …` command. */
  planCosts: { id: 'modal.plan-costs', audience: RUNS },
  /** Log for a show (message shortcut, a past show's Outcome…): its `/events outcome` command. */
  outcome: { id: 'modal.outcome', audience: OUTCOME_LOGGERS },
  /** Draft outreach for people of an unlock (the workspace's unlocked contacts). */
  outreach: { id: 'followup.outreach', audience: 'members' },
  /** The workspace settings (service key, approvers, cap, app managers). */
  workspaceSettings: { id: 'workspace.settings', audience: 'admins' },
} as const satisfies Readonly<Record<string, { id: string; audience: ButtonAudience }>>;

type Forms = typeof FORMS;
export const FORM_IDS = Object.fromEntries(Object.entries(FORMS).map(([name, { id }]) => [name, id])) as {
  readonly [Name in keyof Forms]: Forms[Name]['id'];
};
export type FormId = (typeof FORM_IDS)[keyof typeof FORM_IDS];

/** Every form's callback id with its audience, for the one check and the permissions table. */
export const FORM_AUDIENCES: readonly { callbackId: FormId; audience: ButtonAudience }[] = Object.values(FORMS).map(
  ({ id, audience }) => ({ callbackId: id, audience }),
);
