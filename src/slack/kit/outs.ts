import type { LinkUnfurls } from '@slack/types';
import type { Logger } from '../../platform/log.ts';
import type { Store } from '../../store/index.ts';
import type { Job } from './jobs.ts';
import type { HomeView } from '../views/types.ts';

/** Where the worker's jobs go out to Slack beyond messages: the Home, unfurls, workflow steps. */

export type UnfurlTarget = Extract<Job, { kind: 'unfurl' }>['target'];

/** `chat.unfurl` for one message: each URL with the blocks it unfolds into. */
export type UnfurlOut = (target: UnfurlTarget, unfurls: LinkUnfurls) => Promise<void>;

/** What the Home reads beyond the worker's usual store, and where it is published. */
export interface HomeSources {
  confirmations: Pick<Store['confirmations'], 'pendingForTeam'>;
  unlockTasks: Pick<Store['unlockTasks'], 'unfinishedForTeam'>;
  digests: Pick<Store['digestSubscriptions'], 'activeForTeam' | 'delete'>;
  /** The workspace's watches (on) and a channel's accounts; without it, the Home has no watch section. */
  watches?: Pick<Store['watchLists'], 'onForTeam' | 'allAccounts'>;
  /** The workspace's plans; without it, the Home has no plan section. */
  plans?: Pick<Store['plans'], 'forTeam'>;
  publish(userId: string, view: HomeView): Promise<void>;
  /** The Home offers the workspace settings (the app's listeners have their modal). */
  settings?: boolean;
  /** Whether the user is an admin of the workspace (who sees the charges that need attention). */
  isAdmin?: (teamId: string, userId: string, logger: Logger) => Promise<boolean>;
}

/** The step's outputs, named as in the manifest's `output_parameters`. */
export interface EventFitOutputs extends Record<string, unknown> {
  event_name: string;
  score: number;
  band: string;
  /** `YYYY-MM-DD`; left out when the event has no announced start. */
  start_date?: string;
}

/** Ends a workflow step run: with its outputs, or with the reason it failed (shown in Workflow Builder's activity). */
export interface WorkflowStepOut {
  complete(functionExecutionId: string, outputs: EventFitOutputs): Promise<void>;
  fail(functionExecutionId: string, error: string): Promise<void>;
}
