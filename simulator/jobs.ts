import type { SeededEvent, SeededPersonnel } from './seed.ts';

/*
 * Background work that is not an unlock task: outreach drafting and LinkedIn activity analysis. Each job
 * runs for the simulator's task duration (or until `completeTasks`), then is ready or failed. Whether it
 * fails depends on the person, so a run is the same every time.
 */

export type JobStatus = 'processing' | 'ready' | 'failed';

interface BackgroundJob {
  id: string;
  personnelId: string;
  createdAt: number;
  status: JobStatus;
  /** set by `completeTasks`: finish now, failing every job when 'failed' */
  forced?: 'completed' | 'failed';
}

export interface OutreachJob extends BackgroundJob {
  /** the event's internal id, or null when generated without an event */
  eventId: string | null;
  channels: string[];
  linkedinTypes: string[];
  purpose: string | null;
}

export type LinkedinJob = BackgroundJob;

/** Moves a running job to its outcome once its time has come (or it was forced). */
export function advanceJob(
  job: BackgroundJob,
  now: number,
  durationMs: number,
  failsNaturally: boolean,
): void {
  if (job.status !== 'processing') return;
  if (job.forced === 'failed') job.status = 'failed';
  else if (job.forced === 'completed' || now - job.createdAt >= durationMs) {
    job.status = failsNaturally ? 'failed' : 'ready';
  }
}

/** Outreach cannot be personalised for a person without a linked contact record. */
export const outreachFails = (person: SeededPersonnel | undefined): boolean => !person?.linked;

/** About one person in nine has no public LinkedIn activity to analyse. */
export const linkedinFails = (person: SeededPersonnel | undefined): boolean =>
  !person || Number(person.id) % 9 === 4;

const LEVELS = ['high', 'medium', 'low', 'none'] as const;

/** The analysed activity of a person whose LinkedIn job is ready. */
export function linkedinActivityOf(person: SeededPersonnel, job: LinkedinJob) {
  const level = LEVELS[Number(person.id) % LEVELS.length] ?? 'none';
  const daysAgo = (Number(person.id) % 40) + 1;
  return {
    activityLevel: level,
    isActive: level === 'high' || level === 'medium',
    latestPostAt: level === 'none' ? null : new Date(job.createdAt - daysAgo * 86_400_000).toISOString(),
  };
}

/** The drafts of a ready outreach job, per the channels and LinkedIn variants asked for. */
export function outreachMessages(job: OutreachJob, person: SeededPersonnel, event: SeededEvent | undefined) {
  const first = person.fullName.split(' ')[0] ?? person.fullName;
  const where = event ? ` at ${event.name}` : '';
  const purpose = job.purpose ? ` ${job.purpose.replace(/\.$/, '')}?` : ' compare notes?';
  const email = job.channels.includes('email')
    ? `Hi ${first}, I saw ${person.companyName ?? 'your team'} will be${where}. Could we meet to${purpose}`
    : null;
  const wantsLinkedin = job.channels.includes('linkedin_message');
  const types = wantsLinkedin ? job.linkedinTypes : [];
  return {
    email,
    linkedin_message: wantsLinkedin ? `Hi ${first}, great to connect ahead of the show${where}.` : null,
    linkedin: {
      ...(types.includes('inmail')
        ? {
            inmail: {
              subject: event ? event.name : 'Quick question',
              body: `Hi ${first}, ${email ?? ''}`.trim(),
            },
          }
        : {}),
      ...(types.includes('connection_note')
        ? { connection_note: { body: `Hi ${first}, would be glad to connect before the event.` } }
        : {}),
      ...(types.includes('connected_message')
        ? { connected_message: { body: `Thanks for connecting, ${first}. Are you around${where}?` } }
        : {}),
    },
  };
}
