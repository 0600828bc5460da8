import * as z from 'zod';
import {
  appearAtNextEvent,
  applyChange,
  type ChangeResult,
  type ExhibitorChange,
  type ScheduledChanges,
} from './appearances.ts';
import { badRequest, SimError } from './errors.ts';
import { KNOWN_COMPANY_NAME } from './seed.ts';
import type { SimulatorState } from './state.ts';

/*
 * Control calls that change the service's data (not the OpenAPI; under /__sim/):
 *   POST /__sim/exhibitors/appear  { exhibitor?, event?, afterSeconds? }
 *   POST /__sim/exhibitors/drop    { exhibitor, event, afterSeconds? }
 *   POST /__sim/events/postpone    { event, days, afterSeconds? }
 * `exhibitor` is an exhibitor id or exact company name (appear: default the known company), `event` an
 * internal id or public eventId (appear: default its next upcoming event). With `afterSeconds` the
 * change is scheduled on the simulator's clock instead of applied now.
 */

export interface DataRuntime {
  state: SimulatorState;
  scheduled: ScheduledChanges;
  today: string;
}

const Ref = z.string().trim().min(1).max(200);
const After = z.number().min(0).max(86_400).optional();
const Appear = z.object({ exhibitor: Ref.optional(), event: Ref.optional(), afterSeconds: After });
const Drop = z.object({ exhibitor: Ref, event: Ref, afterSeconds: After });
const Postpone = z.object({ event: Ref, days: z.number().int().min(1).max(3650), afterSeconds: After });

export type DataAnswer =
  | { ok: true; result: ChangeResult }
  | { ok: true; scheduled: ExhibitorChange; at: string }
  | { ok: false; status: number; errorKey: string; message: string };

function parse<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw badRequest(`${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
}

type Request =
  /** the known (or named) company at its next upcoming event, now */
  { next: string } | { change: ExhibitorChange; after?: number };

function requestOf(path: string, body: unknown): Request {
  if (path === '/__sim/exhibitors/appear') {
    const input = parse(Appear, body);
    const exhibitor = input.exhibitor ?? KNOWN_COMPANY_NAME;
    if (input.event !== undefined) {
      return withAfter({ kind: 'appear', exhibitor, event: input.event }, input.afterSeconds);
    }
    if (input.afterSeconds !== undefined) throw badRequest('a scheduled appearance needs an event');
    return { next: exhibitor };
  }
  if (path === '/__sim/exhibitors/drop') {
    const input = parse(Drop, body);
    return withAfter({ kind: 'drop', exhibitor: input.exhibitor, event: input.event }, input.afterSeconds);
  }
  const input = parse(Postpone, body);
  return withAfter({ kind: 'postpone', event: input.event, days: input.days }, input.afterSeconds);
}

const withAfter = (change: ExhibitorChange, after: number | undefined): Request =>
  after === undefined ? { change } : { change, after };

export const DATA_PATHS = ['/__sim/exhibitors/appear', '/__sim/exhibitors/drop', '/__sim/events/postpone'];

/** Runs one data control call; errors come back as the status and ApiError-like fields to answer. */
export function runDataControl(rt: DataRuntime, path: string, body: unknown): DataAnswer {
  try {
    const request = requestOf(path, body);
    if ('next' in request) {
      const result = appearAtNextEvent(rt.state, request.next, rt.today);
      if (!result) throw badRequest(`${request.next} already exhibits at every upcoming event`);
      return { ok: true, result };
    }
    const { change, after } = request;
    if (after === undefined) return { ok: true, result: applyChange(rt.state, change) };
    const at = rt.state.now() + after * 1000;
    rt.scheduled.add(rt.state, change, at);
    return { ok: true, scheduled: change, at: new Date(at).toISOString() };
  } catch (error) {
    if (error instanceof SimError) {
      return { ok: false, status: error.status, errorKey: error.errorKey, message: error.message };
    }
    throw error;
  }
}
