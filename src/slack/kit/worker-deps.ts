import type { ConfirmationDeps, SpendPolicy } from '../../domain/confirmations.ts';
import type { Metrics } from '../../domain/ports/index.ts';
import type { PlanCanvasOut } from '../../domain/plan/index.ts';
import type { DigestSources } from '../../domain/digest.ts';
import type { EisClient } from '../../eis/index.ts';
import type { ShowNames } from '../../eis/show-names.ts';
import type { Logger } from '../../platform/log.ts';
import type { ShowIds } from '../../domain/show-ids.ts';
import type { Store } from '../../store/index.ts';
import type { DigestAccess } from './digest-access.ts';
import type { DigestDefaults } from '../../domain/digest-defaults.ts';
import type { WorkspaceRoles } from './workspace-roles.ts';
import type { SlackOut } from './slack-out.ts';
import type { HomeSources, UnfurlOut, WorkflowStepOut } from './outs.ts';

/** The store as the worker uses it: what the domain steps it runs ask for, and its own few calls. */
export interface WorkerStore {
  confirmations: ConfirmationDeps['confirmations'] &
    Pick<Store['confirmations'], 'attachMessage' | 'cancel' | 'cardShown'>;
  charges: ConfirmationDeps['charges'];
  ledger: DigestSources['ledger'] & Pick<Store['ledger'], 'listForDay' | 'listForPeriod' | 'listKept'>;
  digestSubscriptions: Pick<Store['digestSubscriptions'], 'put' | 'get' | 'delete'>;
  /** `create`: follow-up tasks (outreach drafts) the worker starts itself. */
  unlockTasks: DigestSources['unlockTasks'] & Pick<Store['unlockTasks'], 'create'>;
  /** Per service account: a score is that account's profile against the event. */
  fitScores: (accountId: string) => DigestSources['fitScores'];
  deliveries: Pick<Store['deliveries'], 'first'>;
  /** `/events watch …` and its checks. */
  watchLists: Store['watchLists'];
  /** `/events plan …`, and the budget warning after a charge. */
  plans: Store['plans'];
  /** `/events outcome …`: what the shows brought. */
  outcomes: Store['outcomes'];
}

export interface WorkerDeps {
  eis: EisClient;
  /**
   * Shows' names for the day, this service account's alone (a confirmation card, a spend export);
   * without it, each is read from the service.
   */
  showNames?: ShowNames;
  store: WorkerStore;
  /**
   * Each show's public id, for the ids the worker is given (commands, buttons, links, workflow steps);
   * without it, ids are kept as given.
   */
  showIds?: ShowIds | undefined;
  /**
   * The plans as stored, their ids not converted: read only to start a card's reads of the shows while
   * the plan is read under public ids (the conversion's detail read is then the card's).
   */
  storedPlans?: Pick<WorkerStore['plans'], 'get'> | undefined;
  slack: SlackOut;
  /** For the requester's time zone (`users.info`) when a digest is set up without one. */
  userTimeZone: (userId: string) => Promise<string | undefined>;
  /** The workspace's digest defaults (distributed apps); unset: `DIGEST_DEFAULTS`. */
  digestDefaults?: DigestDefaults | undefined;
  /**
   * The workspace's spending rules in a channel (who may confirm there, the daily cap); undefined: the
   * workspace's, with no channel's approvers (the Home's own figures).
   */
  policyIn: (channelId: string | undefined) => Promise<SpendPolicy>;
  /** The service account of the key (the daily cap is kept per account). */
  accountId: string;
  logger: Logger;
  now: () => Date;
  metrics?: Metrics;
  /** Waits between a charge's attempts to store its outcome (tests: one that does not wait). */
  sleep?: ConfirmationDeps['sleep'];
  /** Polls a just-submitted unlock task a few times; what is still running is left to the schedule. */
  pollSubmittedTask: (taskId: string) => Promise<unknown>;
  /** `chat.unfurl`, for event links; without it, links are not unfurled. */
  unfurl?: UnfurlOut;
  /** Ends Workflow Builder step runs (`functions.complete*`); without it, steps stay open. */
  workflowSteps?: WorkflowStepOut;
  /**
   * Who is in which channel, and who is a workspace admin: whose Home lists a channel's digest and who
   * may change it. Without it, the Home's digests cannot be read and only spend approvers change one.
   */
  digestAccess?: DigestAccess;
  /**
   * Who is a member, a guest, an outside user or an admin of the workspace, as Slack says: for what
   * each may run (kit/permissions.ts) and the watch's pre-approved look-ups.
   */
  workspaceRoles: WorkspaceRoles;
  /** The App Home's own reads and `views.publish`; without it, Home jobs publish nothing. */
  home?: HomeSources;
  /** Slack's canvases, for the channel's plan; without it, plans have no canvas. */
  planCanvas?: PlanCanvasOut;
}
