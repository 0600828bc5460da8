import type { DigestRunSummary } from '../src/domain/digest.ts';
import type { DigestSubscription, WatchSettings } from '../src/domain/ports/index.ts';
import type { PollSummary } from '../src/domain/unlock-polling.ts';
import type { WatchCheckSummary } from '../src/domain/watch/check.ts';
import type { WatchCheckRequest, WatchRunSummary } from '../src/scheduling/watch-dispatch.ts';

/**
 * "Run now" on the local page says what the job did in words a developer reads at a glance (which
 * channels, what was posted, or why nothing was due), built from the jobs' own summaries.
 */

/** A channel as the page names it (`#events`). */
export type ChannelName = (channelId: string) => string;

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
const listed = (names: string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
const unique = (items: string[]) => [...new Set(items)];

/** `at` as the page's clock shows it: `20:41 UTC`, and how far off it is. */
export function whenWords(at: string, now: Date): string {
  const time = `${at.slice(11, 16)} UTC`;
  const minutes = Math.round((Date.parse(at) - now.getTime()) / 60_000);
  if (minutes <= 0) return `${time} (due now)`;
  if (minutes < 60) return `${time} (in ${plural(minutes, 'minute')})`;
  return `${time} (in ${plural(Math.round(minutes / 60), 'hour')})`;
}

/** One channel's check (a slice of it) in the watch run. */
export interface ObservedCheck {
  request: WatchCheckRequest;
  summary: WatchCheckSummary;
}

export interface WatchRunReport {
  summary: WatchRunSummary;
  checks: ObservedCheck[];
}

/**
 * "checked 2 channels (#general and #events); 1 alert posted in #events", or why nothing was due: no
 * watch at all, or when each watching channel is checked next (`watching`, read after the run).
 */
export function watchRunWords(
  { summary, checks }: WatchRunReport,
  watching: Pick<WatchSettings, 'channelId' | 'nextCheckAt'>[],
  name: ChannelName,
  now: Date,
): string {
  if (summary.due === 0) {
    if (watching.length === 0)
      return 'No channel watches an account: `/events watch add <company>` in a channel starts a watch list.';
    const next = watching.map((watch) => `${name(watch.channelId)} at ${whenWords(watch.nextCheckAt, now)}`);
    return `No watch check due. Next: ${next.join('; ')}.`;
  }
  const done = checks.filter((check) => !check.summary.alreadyChecked);
  const channels = unique(done.map((check) => name(check.request.channelId)));
  const alerted = unique(
    done.filter((check) => check.summary.postedAlert).map((check) => name(check.request.channelId)),
  );
  const looked = done.reduce((sum, check) => sum + check.summary.looked, 0);
  const words =
    channels.length === 0
      ? []
      : [
          `Checked ${plural(channels.length, 'channel')} (${listed(channels)}), ${plural(looked, 'account')} looked up`,
          alerted.length > 0
            ? `${plural(alerted.length, 'alert')} posted in ${listed(alerted)}`
            : 'no alert: nothing new for the watched accounts',
        ];
  if (summary.failed > 0)
    words.push(
      `${plural(summary.failed, 'channel')} could not be checked (the log says why); ${summary.failed === 1 ? 'it stays' : 'they stay'} due`,
    );
  if (summary.outOfTime) words.push('the run ran out of time; the rest stay due');
  // Every due check was already taken (by the timer's run, say).
  if (words.length === 0) return `${plural(summary.due, 'channel')} due, already checked by another run.`;
  const sentence = words.join('; ');
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}

/** A digest subscription's schedule in the channel's words: `#events's digest is at 08:00 Europe/Berlin`. */
const digestAt = (
  subscription: Pick<DigestSubscription, 'channelId' | 'time' | 'timeZone'>,
  name: ChannelName,
) => `${name(subscription.channelId)}'s digest is at ${subscription.time} ${subscription.timeZone}`;

/**
 * "Posted 1 digest (#events)", or "No digest due: #events's digest is at 08:00 Europe/Berlin";
 * `before` is the active subscriptions read before the run.
 */
export function digestRunWords(
  summary: DigestRunSummary,
  before: Pick<DigestSubscription, 'channelId' | 'time' | 'timeZone' | 'nextRunAt'>[],
  name: ChannelName,
  now: Date,
): string {
  if (summary.due === 0) {
    if (before.length === 0)
      return 'No digest due: no channel has a digest. `/events digest on 08:00` in a channel starts one.';
    return `No digest due: ${before.map((subscription) => digestAt(subscription, name)).join('; ')}.`;
  }
  const due = before.filter((subscription) => Date.parse(subscription.nextRunAt) <= now.getTime());
  const where = due.length > 0 ? ` (${listed(due.map((subscription) => name(subscription.channelId)))})` : '';
  const words = [`${plural(summary.due, 'digest')} due${where}: ${summary.posted} posted`];
  if (summary.alreadyPosted > 0) words.push(`${summary.alreadyPosted} already posted today`);
  if (summary.late > 0) words.push(`${summary.late} skipped as too late`);
  if (summary.disabled > 0)
    words.push(`${summary.disabled} turned off (the channel is gone or the app was removed)`);
  if (summary.failed > 0) words.push(`${summary.failed} failed (the log says why)`);
  return `${words.join('; ')}.`;
}

/**
 * "Polled 2 unlock tasks: 1 result posted in its card's thread, 1 still running", or that none waited.
 * `waiting`: the tasks still waiting for the service after the run (polled or not due yet).
 */
export function pollWords(summary: PollSummary, waiting: number): string {
  const finished = summary.posted + summary.timedOut;
  if (summary.polled === 0 && finished === 0)
    return waiting > 0
      ? `${plural(waiting, 'unlock task')} waiting for the service, none due for a poll just now (each is polled every few seconds while young).`
      : 'No unlock task is waiting for the service: results already in their threads.';
  const words = [
    summary.posted > 0 ? `${plural(summary.posted, 'result')} posted in the card's thread` : undefined,
    summary.timedOut > 0 ? `${summary.timedOut} gave up waiting (said so in the thread)` : undefined,
    summary.rescheduled > 0
      ? `${summary.rescheduled} still running at the service (polled again soon)`
      : undefined,
    summary.slackFailures > 0 ? `${summary.slackFailures} could not be posted yet (tried again)` : undefined,
  ].filter((word) => word !== undefined);
  return `Polled ${plural(summary.polled, 'unlock task')}${words.length > 0 ? `: ${words.join(', ')}` : ''}.`;
}
