import type { EisClient } from '../eis/index.ts';
import type { Logger } from '../platform/log.ts';
import type { NewUnlockTask, SkippedPerson, UnlockTask } from './ports/index.ts';
import { type OutreachOptions, outreachProgress } from './ports/outreach.ts';
import { utcDate } from '../time/local-time.ts';

/*
 * After a contact unlock, the follow-up in its thread: AI outreach drafts (free: the vendor says
 * generation "does not deduct credits" and the service has no precheck action code for it) and a
 * LinkedIn activity analysis (no published price: see linkedin-activity.ts). Both start background
 * work at the service, stored as tasks the unlock poller follows, and posted once in the thread.
 */

/**
 * Why a person gets no drafts, as a code the Slack room puts in words (stored as a skip's `reason`):
 * `no-event` the service links them to no event and none came with them; `not-found`, `invalid-id`,
 * `not-at-event` the service's per-person refusals; `refused` a refusal it gave no known reason for;
 * `generation-failed` it started but could not write the drafts.
 */
export type OutreachSkipReason = 'no-event' | 'not-found' | 'invalid-id' | 'not-at-event' | 'refused';
export type OutreachProblem = 'no-event' | 'generation-failed';

/** One person's drafts, or why there are none. */
export interface OutreachDraftLine {
  personnelId: string;
  drafts: { email: string | null; linkedin: string | null } | null;
  problem?: OutreachProblem;
}

/** One person's LinkedIn activity, or why there is none. */
export interface LinkedinActivityLine {
  personnelId: string;
  activity: { level: string | null; isActive: boolean | null; latestPostAt: string | null } | null;
  problem?: string;
}

export type FollowUpResult =
  | { kind: 'outreach'; people: OutreachDraftLine[]; skipped: SkippedPerson[] }
  | { kind: 'linkedin'; people: LinkedinActivityLine[]; skipped: SkippedPerson[] };

/**
 * Whether every person's follow-up is over (ready or failed), and what there is so far. `settled`:
 * the people known to be over, kept on the task so that the next poll reads only the others.
 */
export interface FollowUpProgress {
  done: boolean;
  result: FollowUpResult;
  settled: string[];
}

export type FollowUpEis = Pick<EisClient, 'outreach' | 'personnel' | 'events'>;

/**
 * A follow-up task reads at most this many people at a poll while some are still pending (the next
 * window of those not known to be over, so each is read in turn), then, at the poll that finds all of
 * them over, the others once more to post their drafts or activity: a 100-person task no longer reads
 * everyone at every poll.
 */
export const FOLLOW_UP_READS_PER_POLL = 10;

/** How each read is made: the poller runs it within its share of the key's calls. */
export type ReadWithin = <T>(read: () => Promise<T>) => Promise<T>;

const asked = (task: UnlockTask) =>
  task.personnelIds.filter((id) => !task.skipped.some((skip) => skip.personnelId === id));

/**
 * Reads the drafts (outreach) or activity (LinkedIn) of the people still pending, at most
 * `FOLLOW_UP_READS_PER_POLL`, and once none is, everyone's, for the reply. Free reads.
 */
export async function followUpProgress(
  eis: FollowUpEis,
  task: UnlockTask,
  within: ReadWithin = (read) => read(),
): Promise<FollowUpProgress> {
  const followUp = task.followUp;
  type Line = OutreachDraftLine | LinkedinActivityLine | 'pending';
  const readOne: (id: string) => Promise<Line> =
    followUp?.kind === 'outreach'
      ? (id: string) => within(() => draftOf(eis, id, followUp.eventIds[id]))
      : (id: string) => within(() => activityOf(eis, id));
  const people = asked(task);
  const known = new Set(task.followUpSettled ?? []);
  const read = new Map<string, Line>();
  // Every read ends before the poll does, a failed one too: a read left running would hold the key's
  // share for polls after its poll gave up, and pile up at each poll while the failure lasts.
  const readAll = async (ids: string[]) => {
    const settled = await Promise.allSettled(ids.map(readOne));
    const failed = settled.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    ids.forEach((id, index) => {
      const outcome = settled[index];
      read.set(id, outcome?.status === 'fulfilled' ? outcome.value : 'pending');
    });
  };
  await readAll(
    inTurn(
      people.filter((id) => !known.has(id)),
      task.attempts,
    ),
  );
  const over = (id: string) => (read.has(id) ? read.get(id) !== 'pending' : known.has(id));
  if (people.every(over)) await readAll(people.filter((id) => !read.has(id)));
  const lines = people.flatMap((id) => {
    const line = read.get(id);
    return line && line !== 'pending' ? [line] : [];
  });
  const result: FollowUpResult =
    followUp?.kind === 'outreach'
      ? { kind: 'outreach', people: lines.filter(isDraftLine), skipped: task.skipped }
      : { kind: 'linkedin', people: lines.filter(isActivityLine), skipped: task.skipped };
  return { done: lines.length === people.length, result, settled: people.filter(over) };
}

/** The pending people this poll reads: the next window of them, so that each is read in turn. */
function inTurn(pending: string[], poll: number): string[] {
  if (pending.length <= FOLLOW_UP_READS_PER_POLL) return pending;
  const start = (poll * FOLLOW_UP_READS_PER_POLL) % pending.length;
  return [...pending.slice(start), ...pending.slice(0, start)].slice(0, FOLLOW_UP_READS_PER_POLL);
}

const isDraftLine = (line: OutreachDraftLine | LinkedinActivityLine): line is OutreachDraftLine =>
  'drafts' in line;
const isActivityLine = (line: OutreachDraftLine | LinkedinActivityLine): line is LinkedinActivityLine =>
  'activity' in line;

async function draftOf(
  eis: FollowUpEis,
  personnelId: string,
  eventId: string | undefined,
): Promise<OutreachDraftLine | 'pending'> {
  if (!eventId) return { personnelId, drafts: null, problem: 'no-event' };
  const detail = await eis.outreach.detail({ personnelId, eventId });
  const progress = outreachProgress(detail);
  if (progress === 'pending') return 'pending';
  if (progress === 'failed') {
    return { personnelId, drafts: null, problem: 'generation-failed' };
  }
  const { messages } = detail;
  const linkedin =
    messages.linkedin_message ??
    messages.linkedin?.connection_note?.body ??
    messages.linkedin?.connected_message?.body ??
    messages.linkedin?.inmail?.body ??
    null;
  return { personnelId, drafts: { email: messages.email ?? null, linkedin } };
}

async function activityOf(eis: FollowUpEis, personnelId: string): Promise<LinkedinActivityLine | 'pending'> {
  const person = await eis.personnel.profile(personnelId);
  const status = person.linkedinActivityStatus?.toLowerCase() ?? null;
  if (status === 'failed' || status === 'error') {
    return { personnelId, activity: null, problem: 'no LinkedIn activity could be analysed' };
  }
  if (status !== 'ready' && status !== 'completed') return 'pending';
  const activity = person.linkedinActivity;
  return {
    personnelId,
    activity: {
      level: activity?.activityLevel ?? null,
      isActive: activity?.isActive ?? null,
      latestPostAt: activity?.latestPostAt ?? null,
    },
  };
}

/** The counts kept on a follow-up task once posted (the unlock outcome's shape). */
export function followUpOutcome(result: FollowUpResult) {
  const ready = result.people.filter((p) => ('drafts' in p ? p.drafts : p.activity) !== null).length;
  return {
    status: 'completed' as const,
    unlocked: ready,
    notUnlocked: result.people.length - ready,
    skipped: result.skipped.length,
  };
}

/** Where a follow-up starts: the unlock's thread, and who asked. */
export interface FollowUpThread {
  teamId: string;
  channelId: string;
  threadTs: string;
  requestedBy: string;
}

export interface OutreachDeps {
  eis: FollowUpEis;
  tasks: { create(input: NewUnlockTask): Promise<UnlockTask> };
  logger: Logger;
  now: () => Date;
}

export interface OutreachStarted {
  /** The task the poller follows; absent when nobody could be drafted for. */
  taskId?: string;
  drafting: string[];
  skipped: SkippedPerson[];
}

export type { OutreachOptions } from './ports/outreach.ts';

/** Preselected in the modal: an email and a LinkedIn connection note, no purpose. */
export const DEFAULT_OUTREACH: OutreachOptions = {
  channels: ['email', 'linkedin_message'],
  linkedinMessageTypes: ['connection_note'],
};

/** Outreach is written for one event: the person's next one, else the latest they are linked to. */
async function eventFor(eis: FollowUpEis, personnelId: string, today: string): Promise<string | null> {
  const page = await eis.personnel.events(personnelId, 1, { pageSize: 20 });
  const dated = page.items.filter((event) => event.dateStart);
  const upcoming = dated
    .filter((event) => (event.dateStart ?? '') >= today)
    .sort((a, b) => (a.dateStart ?? '').localeCompare(b.dateStart ?? ''))[0];
  const latest = dated.sort((a, b) => (b.dateStart ?? '').localeCompare(a.dateStart ?? ''))[0];
  return (upcoming ?? latest ?? page.items[0])?.id ?? null;
}

/**
 * The event each person's drafts are written for: the event whose people list they were taken from,
 * when they came from one (generation takes the internal `id`, so its detail is read); else each
 * person's own next event. An event the service cannot find falls back to each person's own.
 */
async function eventsFor(
  eis: FollowUpEis,
  personnelIds: readonly string[],
  fromEventId: string | undefined,
  today: string,
): Promise<(string | null)[]> {
  const listed = fromEventId ? await eis.events.detail(fromEventId).catch(() => null) : null;
  if (listed) return personnelIds.map(() => listed.id);
  return Promise.all(personnelIds.map((id) => eventFor(eis, id, today).catch(() => null)));
}

const FAILURES: Record<string, OutreachSkipReason> = {
  PERSONNEL_NOT_FOUND: 'not-found',
  INVALID_PERSONNEL_ID: 'invalid-id',
  PERSONNEL_NOT_IN_EVENT: 'not-at-event',
};

/** Who is asked for, where the answer goes, and the event whose people list they came from, if any. */
export interface OutreachRequest extends FollowUpThread {
  names?: Record<string, string>;
  requestId: string;
  fromEventId?: string;
}

/**
 * Starts drafting (the channels and purpose chosen) for each person, for the event whose list they
 * came from, else their next event, and stores the task the poller follows. Free: generation is sent
 * without a confirmation. `requestId` (the job's id) names the task, so a repeated start finds the
 * stored task instead of a second one.
 */
export async function startOutreach(
  personnelIds: readonly string[],
  where: OutreachRequest,
  deps: OutreachDeps,
  options: OutreachOptions,
): Promise<OutreachStarted> {
  const skipped: SkippedPerson[] = [];
  const byEvent = new Map<string, string[]>();
  const events = await eventsFor(deps.eis, personnelIds, where.fromEventId, utcDate(deps.now()));
  personnelIds.forEach((id, index) => {
    const eventId = events[index];
    if (!eventId) skipped.push({ personnelId: id, reason: 'no-event' });
    else byEvent.set(eventId, [...(byEvent.get(eventId) ?? []), id]);
  });
  const eventIds: Record<string, string> = {};
  for (const [eventId, ids] of byEvent) {
    const answer = await deps.eis.outreach.generate({ ...options, personnelIds: ids, eventId });
    for (const item of answer.items) {
      if (item.success) eventIds[item.personnel_id] = eventId;
      else skipped.push({ personnelId: item.personnel_id, reason: FAILURES[item.error ?? ''] ?? 'refused' });
    }
  }
  const drafting = personnelIds.filter((id) => eventIds[id]);
  if (drafting.length === 0) return { drafting, skipped };
  const { teamId, channelId, threadTs, requestedBy, names, requestId } = where;
  const task = await deps.tasks.create({
    teamId,
    channelId,
    threadTs,
    requestedBy,
    taskId: `outreach-${requestId}`,
    kind: 'email',
    personnelIds: drafting,
    ...(names ? { names } : {}),
    skipped,
    followUp: { kind: 'outreach', eventIds },
  });
  deps.logger.info('outreach drafting started', { taskId: task.taskId, people: drafting.length });
  return { taskId: task.taskId, drafting, skipped };
}
