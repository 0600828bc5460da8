import type { ConfirmationDeps, SpendPolicy } from '../../domain/confirmations.ts';
import type { DeliveryLog, Store } from '../../store/index.ts';
import type { PlanShowsReader } from '../../store/plan-shows-over-fetch.ts';
import type { ServedWorkspace } from '../../store/workspaces.ts';
import type { Logger } from '../../platform/log.ts';
import type { Dispatch } from './jobs.ts';
import type { ApproverRules } from './approver-kinds.ts';
import type { DigestDefaults } from '../../domain/digest-defaults.ts';

/** What the listeners need: they answer at once and hand slow work on. */
export interface ListenerDeps {
  dispatch: Dispatch;
  confirmations: ConfirmationDeps['confirmations'];
  /**
   * The workspace's spending rules (who may confirm) in the request's channel (none on the Home),
   * Slack read with the request's bot token (src/roots/workspace-policy.ts).
   */
  policyFor: (teamId: string, channelId: string | undefined, botToken: string | undefined) => Promise<SpendPolicy>;
  /** Slash commands are deduplicated on their `trigger_id`. */
  deliveries: Pick<DeliveryLog, 'first'>;
  /**
   * The shows on a channel's plan, read before a `plan add` is acked: one already there, or one more
   * than a full plan holds, is answered in the ack (without it, the worker answers).
   */
  planShows?: PlanShowsReader;
  /** Domains whose event links unfurl (`UNFURL_DOMAINS`); default `app.lensmor.com`. */
  unfurlDomains?: readonly string[];
  /** Read after the digest settings modal opened, to show the channel's current settings in it. */
  digestSubscriptions?: Pick<Store['digestSubscriptions'], 'get'>;
  /** Distributed apps: the workspace's digest defaults, for the digest modal's time (else `DIGEST_DEFAULTS`). */
  digestDefaultsFor?: (teamId: string) => Promise<DigestDefaults | undefined>;
  /** Distributed apps: forgets a workspace (or an org-wide install) that removed the app (`uninstall.ts`). */
  removeWorkspace?: (workspace: ServedWorkspace) => Promise<void>;
  /** The workspace's admins set its rules (and, distributed, connect its service key) from the Home (`workspace-admin/`). */
  workspaceAdmin?: WorkspaceAdminDeps;
  logger: Logger;
}

/** What the workspace admin listeners read and write. */
export interface WorkspaceAdminDeps {
  workspaces: Pick<Store['workspaces'], 'getServiceKeyInfo' | 'getPolicy' | 'saveSettings'>;
  /** Whether the workspace's scheduled work is paused (shown to its admins on the Home). */
  scheduledWork: Pick<Store['scheduledWork'], 'get'>;
  /** The service a new key is checked against, with one balance call (`EIS_BASE_URL`). */
  eisBaseUrl: string;
  /** What the environment sets of the rules (src/roots/workspace-policy.ts). */
  environment: EnvironmentRules;
}

/**
 * The rules the environment sets, by the variable that sets each. A single workspace's (`fixes`): the
 * settings show them read-only and never save them, and its key is the app's own (`keySetBy`). A
 * distributed app's: each workspace's defaults, which its own saved rules replace.
 */
export interface EnvironmentRules {
  fixes: boolean;
  /** `SPEND_APPROVERS`, by kind of approver (src/slack/kit/approver-kinds.ts); none when unset. */
  approvers: ApproverRules;
  /** `DAILY_CREDIT_CAP`. */
  dailyCap?: number | undefined;
  /** `APPROVAL_THRESHOLD`. */
  approvalThreshold?: number | undefined;
  /** A single workspace's key: the variable that names it (never its value). */
  keySetBy?: 'EIS_API_KEY' | 'EIS_SECRET_ID' | 'APP_SECRET_ID' | undefined;
}
