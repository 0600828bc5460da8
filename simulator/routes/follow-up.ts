import { badRequest } from '../errors.ts';
import type { LinkedinJob, OutreachJob } from '../jobs.ts';
import { outreachMessages } from '../jobs.ts';
import { bodyRecord, numericId, resolveEvent } from '../params.ts';
import { created, ok, type Route, type RouteContext } from '../routing.ts';
import type { SeededEvent, SeededPersonnel } from '../seed.ts';
import { personnelIds } from './personnel.ts';

/*
 * The follow-up after an unlock: LinkedIn activity analysis and AI outreach drafts. Both are free here
 * (the OpenAPI lists no 402 for either, and says outreach "does not deduct credits"), both start
 * background jobs that finish after the task duration, and both are idempotent while a job runs.
 */

const NUMERIC = /^[0-9]{1,20}$/;
const CHANNELS = ['email', 'linkedin_message'];
const LINKEDIN_TYPES = ['inmail', 'connection_note', 'connected_message'];

const attends = (person: SeededPersonnel, event: SeededEvent): boolean =>
  person.eventId === event.id || person.attendance.some((a) => a.eventId === event.id);

/** The person, or the per-item error the service reports instead of failing the whole request. */
function personFor(ctx: RouteContext, id: string, event: SeededEvent | undefined): SeededPersonnel | string {
  if (!NUMERIC.test(id)) return 'INVALID_PERSONNEL_ID';
  const person = ctx.state.personnelById.get(id);
  if (!person) return 'PERSONNEL_NOT_FOUND';
  if (event && !attends(person, event)) return 'PERSONNEL_NOT_IN_EVENT';
  return person;
}

function linkedinItem(ctx: RouteContext, id: string, event: SeededEvent | undefined) {
  const person = personFor(ctx, id, event);
  if (typeof person === 'string') {
    return { personnel_id: id, success: false, alreadyUnlocked: false, taskId: null, error: person };
  }
  const existing = ctx.account.linkedinActivity.get(person.id);
  if (existing?.status === 'ready') {
    return { personnel_id: id, success: true, alreadyUnlocked: true, taskId: null, error: null };
  }
  const job: LinkedinJob =
    existing?.status === 'processing'
      ? existing
      : { id: ctx.state.jobId(), personnelId: person.id, createdAt: ctx.state.now(), status: 'processing' };
  ctx.account.linkedinActivity.set(person.id, job);
  return { personnel_id: id, success: true, alreadyUnlocked: false, taskId: job.id, error: null };
}

const unlockLinkedinActivity: Route = {
  method: 'POST',
  pattern: '/external/personnel/unlock-linkedin-activity',
  handle(ctx) {
    const input = bodyRecord(ctx.body);
    const ids = personnelIds(input);
    const rawEvent = input.event_id;
    if (rawEvent !== undefined && (typeof rawEvent !== 'string' || rawEvent.length > 20)) {
      throw badRequest('event_id must be a string of at most 20 characters');
    }
    const event = rawEvent === undefined ? undefined : resolveEvent(ctx.state, rawEvent);
    return created({ items: [...new Set(ids)].map((id) => linkedinItem(ctx, id, event)) });
  },
};

function stringList(value: unknown, name: string, allowed: string[], required: boolean): string[] {
  if (value === undefined && !required) return [];
  if (
    !Array.isArray(value) ||
    (required && value.length === 0) ||
    !value.every((v): v is string => typeof v === 'string' && allowed.includes(v))
  ) {
    throw badRequest(`${name} must be an array of ${allowed.join(', ')}`);
  }
  return [...new Set(value)];
}

/** Outreach needs the internal event `id` (0.26.0): a public `eventId` is refused. */
function outreachEvent(ctx: RouteContext, raw: unknown): SeededEvent | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !NUMERIC.test(raw)) throw badRequest('event_id must be a numeric string');
  const event = ctx.state.seed.events.find((e) => e.id === raw);
  if (event) return event;
  if (ctx.state.eventsById.has(raw)) {
    throw badRequest('event_id must be the internal event id (id), not the public eventId');
  }
  throw badRequest(`event_id ${raw} does not resolve to an event`);
}

const outreachKey = (personnelId: string, eventId: string | null): string =>
  `${personnelId}|${eventId ?? ''}`;

function generateOne(
  ctx: RouteContext,
  id: string,
  spec: Omit<OutreachJob, 'id' | 'personnelId' | 'createdAt' | 'status'>,
) {
  const person = personFor(ctx, id, undefined);
  if (typeof person === 'string') return { personnel_id: id, success: false, taskId: null, error: person };
  const key = outreachKey(person.id, spec.eventId);
  const running = ctx.account.outreach.get(key);
  // regenerating replaces the earlier drafts; a request while a draft is being written joins it
  const job: OutreachJob =
    running?.status === 'processing'
      ? running
      : {
          ...spec,
          id: ctx.state.jobId(),
          personnelId: person.id,
          createdAt: ctx.state.now(),
          status: 'processing',
        };
  ctx.account.outreach.set(key, job);
  return { personnel_id: id, success: true, taskId: job.id, error: null };
}

const generateOutreach: Route = {
  method: 'POST',
  pattern: '/external/personnel/generate-outreach-message',
  handle(ctx) {
    const input = bodyRecord(ctx.body);
    const ids = personnelIds(input);
    const channels = stringList(input.channels, 'channels', CHANNELS, true);
    const linkedinTypes = stringList(
      input.linkedin_message_types,
      'linkedin_message_types',
      LINKEDIN_TYPES,
      false,
    );
    const purpose = input.outreach_purpose;
    if (purpose !== undefined && typeof purpose !== 'string')
      throw badRequest('outreach_purpose must be a string');
    const event = outreachEvent(ctx, input.event_id);
    const spec = { eventId: event?.id ?? null, channels, linkedinTypes, purpose: purpose?.trim() || null };
    return created({
      items: [...new Set(ids)].map((id) => generateOne(ctx, id, spec)),
      taskCenterId: ctx.state.jobId(),
    });
  },
};

const notFound = (reason: string, job?: OutreachJob) => ({
  found: false,
  channels: job?.channels ?? [],
  messages: {},
  reason,
  sources: [],
  outreach_purpose: job?.purpose ?? null,
  tone: null,
  status: job?.status ?? null,
  create_time: job?.createdAt ?? null,
  update_time: job?.createdAt ?? null,
});

const outreachDetail: Route = {
  method: 'GET',
  pattern: '/external/personnel/outreach',
  handle({ state, account, query }) {
    const personnelId = numericId('personnel_id', query.get('personnel_id') ?? undefined);
    const eventId = numericId('event_id', query.get('event_id') ?? undefined);
    const person = state.personnelById.get(personnelId);
    const event = state.seed.events.find((e) => e.id === eventId);
    if (!person) return ok(notFound('personnel_not_found'));
    if (!event) return ok(notFound('event_not_found'));
    const job = account.outreach.get(outreachKey(person.id, event.id));
    if (!job) return ok(notFound('not_generated'));
    if (job.status === 'processing') return ok(notFound('not_ready', job));
    if (job.status === 'failed') return ok(notFound('generation_failed', job));
    return ok({
      found: true,
      channels: job.channels,
      messages: outreachMessages(job, person, event),
      reason: null,
      sources: [{ type: 'event', title: event.name, url: event.url }],
      outreach_purpose: job.purpose,
      tone: 'professional',
      status: 'ready',
      create_time: job.createdAt,
      update_time: job.createdAt + state.taskDurationMs,
    });
  },
};

export const followUpRoutes: Route[] = [unlockLinkedinActivity, generateOutreach, outreachDetail];
