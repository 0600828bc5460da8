import type { PlanCanvasOut } from '../../../domain/plan/index.ts';
import type { Plan } from '../../../domain/ports/index.ts';
import type { Store } from '../../../store/index.ts';
import type { SlackOut } from '../../kit/slack-out.ts';
import type { Mrkdwn } from '../../views/mrkdwn.ts';
import type { PlanReadDeps } from './read.ts';

/** What the plan's commands are given, and what a command did (apart, so the cost jobs need not import the plan's jobs). */

export interface PlanCommandDeps extends PlanReadDeps {
  plans: Store['plans'];
  /** The plans as stored (ids not converted): only to start the card's reads early (`withCardReads`). */
  storedPlans?: Pick<Store['plans'], 'get'> | undefined;
  /** Slack's canvases; without it, the plan has no canvas. */
  canvas?: PlanCanvasOut | undefined;
  /** Tells the channel when its plan's canvas was made again in place of a deleted one; sends an export. */
  slack: Pick<SlackOut, 'post' | 'upload' | 'directMessage'>;
}

/** What a command did: the plan now and what to say, with `wrote` when the plan changed; or a refusal. */
export type Changed = { plan: Plan | null; notice: Mrkdwn; wrote?: true } | { refusal: string };
