import * as z from 'zod';
import { Id } from '../domain/ports/records.ts';
import type { WatchSettings } from '../domain/ports/index.ts';
import type { Logger } from '../platform/log.ts';
import type { ScheduledWorkspace } from '../store/index.ts';
import { pausedAt, rotated } from './scheduled-workspaces.ts';
import { inPool } from '../domain/pool.ts';

/**
 * A slice of one channel's check, as the hourly run hands it on (a queue message body, or a call
 * inline). `checkId` names the due slot, so the same slot sent twice is the same check; `slice`
 * numbers a continuation (absent: the hourly run's, which takes the check when nothing holds it).
 */
export const WatchCheckRequestSchema = z.object({
  teamId: Id,
  channelId: Id,
  checkId: z.string().min(1).max(200),
  slice: z.number().int().positive().max(100_000).exactOptional(),
});
export type WatchCheckRequest = z.infer<typeof WatchCheckRequestSchema>;

/**
 * A channel still due this long after its slot is given a new check id. A check that throws before
 * posting gives its claim back (the queue's retry runs the same id); this is for one that was killed
 * (a Lambda timeout, out of memory) or failed after posting: its claim stays and that id would now
 * do nothing. Longer than a message's retries on the queue (visibility timeout × receives), so a
 * check still waiting there is not run twice; two checks of one channel never overlap anyway (a
 * workspace's checks run one at a time), and one after another they do not repeat an alert (what was
 * told is stored before posting).
 */
export const WATCH_CHECK_RETRY_AFTER_MS = 6 * 60 * 60_000;

/**
 * The check of a due watch: its revision and due time name the slot (a changed watch is a new slot),
 * the same from every run until the slot is `WATCH_CHECK_RETRY_AFTER_MS` overdue.
 */
export function watchCheckOf(
  watch: Pick<WatchSettings, 'teamId' | 'channelId' | 'revision' | 'nextCheckAt'>,
  now: Date,
): WatchCheckRequest {
  const { teamId, channelId, revision, nextCheckAt } = watch;
  const overdue = Math.floor((now.getTime() - Date.parse(nextCheckAt)) / WATCH_CHECK_RETRY_AFTER_MS);
  const retry = overdue > 0 ? `+${overdue}` : '';
  return { teamId, channelId, checkId: `r${revision}@${nextCheckAt}${retry}` };
}

/**
 * At most this many due channels of one workspace per run (earliest first): the rest stay due for the
 * next hourly run, so one workspace's backlog never fills a run.
 */
export const WATCH_CHANNELS_PER_WORKSPACE_RUN = 500;

/** Inline, a check is started only while this much of the Lambda's time is left. */
export const INLINE_CHECK_RESERVE_MS = 60_000;

/**
 * Inline, slices checked at once (of any workspaces, in the round's order): a workspace's key is held
 * to its watch share by the look-ups themselves (`WATCH_IN_FLIGHT_PER_KEY`), whichever run at once.
 */
export const INLINE_CHECKS_AT_ONCE = 4;

export interface WatchRunSummary {
  /** Workspaces with a due channel that could be served. */
  workspaces: number;
  due: number;
  /** Handed to the queue. */
  sent: number;
  /** Slices checked inline (a channel's first, then the next slices of those with more). */
  checked: number;
  /** Not handed on or failed inline: still due, so the next run takes them again. */
  failed: number;
  outOfTime: boolean;
}

/** Where due checks go: the queue (sent in batches), or run here one by one. */
export type WatchDelivery =
  | { kind: 'queue'; send: (requests: WatchCheckRequest[]) => Promise<{ sent: number; failed: number }> }
  | {
      kind: 'inline';
      /** One slice; `next`, when the check has more. */
      check: (request: WatchCheckRequest) => Promise<{ next?: WatchCheckRequest }>;
      remainingMs?: () => number;
    };

export interface WatchDispatchDeps {
  /** The registry of workspaces with scheduled work. */
  workspaces: { list: () => Promise<ScheduledWorkspace[]> };
  dueIn: (teamId: string, query: { now: Date; limit: number }) => Promise<WatchSettings[]>;
  /** Whether the workspace can be served now; one that cannot is paused (or forgotten) by it. */
  servable: (team: ScheduledWorkspace) => Promise<boolean>;
  delivery: WatchDelivery;
  logger: Logger;
  now: () => Date;
}

/**
 * The hourly run: every due channel of every workspace that can be served, a workspace's first
 * channels before anyone's second (and the workspaces from a random one), handed to `delivery`.
 * Nothing is marked: a channel stays due until its check records itself, so a channel whose hand-on
 * failed is simply taken again by the next run, under the same check id.
 */
export async function dispatchDueWatches(deps: WatchDispatchDeps): Promise<WatchRunSummary> {
  const now = deps.now();
  const teams = rotated((await deps.workspaces.list()).filter((team) => !pausedAt(team, now)));
  const perTeam: WatchCheckRequest[][] = [];
  for (const team of teams) {
    const due = await deps.dueIn(team.teamId, { now, limit: WATCH_CHANNELS_PER_WORKSPACE_RUN });
    if (due.length === 0 || !(await deps.servable(team))) continue;
    perTeam.push(due.map((watch) => watchCheckOf(watch, now)));
  }
  const requests = interleaved(perTeam);
  const summary: WatchRunSummary = {
    workspaces: perTeam.length,
    due: requests.length,
    sent: 0,
    checked: 0,
    failed: 0,
    outOfTime: false,
  };
  const delivered =
    deps.delivery.kind === 'queue'
      ? { ...(await deps.delivery.send(requests)), checked: 0, outOfTime: false }
      : { ...(await checkInline(deps.delivery, requests, deps.logger)), sent: 0 };
  return { ...summary, ...delivered };
}

/** Each list's first items, then each one's second, and so on. */
export function interleaved<T>(lists: T[][]): T[] {
  const longest = Math.max(0, ...lists.map((list) => list.length));
  const out: T[] = [];
  for (let index = 0; index < longest; index++)
    for (const list of lists) {
      const item = list[index];
      if (item !== undefined) out.push(item);
    }
  return out;
}

/**
 * No queue configured: the checks run here, `INLINE_CHECKS_AT_ONCE` slices at a time, while time is
 * left: every channel's first slice, then the second slices of those with more, and so on; what is
 * left stays due (or handed on), and the next hourly run takes it again.
 */
async function checkInline(
  delivery: Extract<WatchDelivery, { kind: 'inline' }>,
  requests: WatchCheckRequest[],
  logger: Logger,
) {
  let checked = 0;
  let failed = 0;
  let outOfTime = false;
  const timeLeft = () => {
    outOfTime ||= delivery.remainingMs !== undefined && delivery.remainingMs() < INLINE_CHECK_RESERVE_MS;
    return !outOfTime;
  };
  for (let round = requests; round.length > 0 && !outOfTime;) {
    const next: WatchCheckRequest[] = [];
    await inPool(
      round,
      INLINE_CHECKS_AT_ONCE,
      async (request) => {
        try {
          const summary = await delivery.check(request);
          checked++;
          if (summary.next) next.push(summary.next);
        } catch (error) {
          failed++;
          logger.error('a watched channel could not be checked', {
            teamId: request.teamId,
            channelId: request.channelId,
            error,
          });
        }
      },
      timeLeft,
    );
    round = next;
  }
  return { checked, failed, outOfTime };
}
