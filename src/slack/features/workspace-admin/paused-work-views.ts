import type { KnownBlock } from '@slack/types';
import type { ScheduledWorkPause } from '../../../store/index.ts';
import { section } from '../../views/blocks.ts';
import { slackDate, utcDay, utcTime } from '../../views/format.ts';
import { mk, type Mrkdwn } from '../../views/mrkdwn.ts';

const when = (iso: string) => {
  const at = new Date(iso);
  return slackDate(at, '{date_short_pretty} {time}', `${utcDay(at)} ${utcTime(at)}`);
};

/** What a workspace admin reads on the Home while the workspace's scheduled work cannot run. */
export function pausedWorkText(pause: ScheduledWorkPause): Mrkdwn {
  const waiting = 'daily digests, unlock results and the check of interrupted charges wait';
  return pause.reason === 'no-service-key'
    ? mk`:double_vertical_bar: *Scheduled work paused* since ${when(pause.since)}: no Event Intelligence key is connected, so ${waiting}. Connect a key and they resume within a few minutes.`
    : mk`:double_vertical_bar: *Scheduled work paused* since ${when(pause.since)}: the app's Slack installation for this workspace gives no token, so ${waiting}. Install the app again (Add to Slack); the next try is at ${when(pause.retryAt)}.`;
}

/** The paused-work notice as Home blocks: none when nothing is paused. */
export function pausedWorkBlocks(pause: ScheduledWorkPause | undefined): KnownBlock[] {
  return pause ? [section(pausedWorkText(pause))] : [];
}
