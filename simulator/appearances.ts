import { badRequest, notFound } from './errors.ts';
import { createRng } from './prng.ts';
import { addDays, makePerson, type SeededEvent, type SeededExhibitor } from './seed.ts';
import { FIRST_NAMES, LAST_NAMES } from './seed-data.ts';
import type { SimulatorState } from './state.ts';

/*
 * The service's data changing over time, so that account watch can be seen working: a company becomes
 * an exhibitor of an event (with two of its people on the event's personnel list), drops out of one,
 * or an event is postponed. Every endpoint reads the same seed arrays, so each change shows at once in
 * the exhibitors list and search, exhibitor events, profiles, personnel lists and event counts.
 */

/** Events are named by internal `id` or public `eventId`; exhibitors by id or exact company name. */
export type ExhibitorChange =
  | { kind: 'appear'; exhibitor: string; event: string }
  | { kind: 'drop'; exhibitor: string; event: string }
  | { kind: 'postpone'; event: string; days: number };

/** What a change did, in words a developer can check against the bot's alert. */
export interface ChangeResult {
  kind: ExhibitorChange['kind'];
  /** false when there was nothing to do (already exhibiting, already gone). */
  changed: boolean;
  exhibitor?: { id: string; companyName: string; domain: string };
  event: { id: string; eventId: string; name: string; dateStart: string; dateEnd: string; city: string };
}

/** An appearance always names its exhibitor. */
export type Appearance = ChangeResult & { exhibitor: NonNullable<ChangeResult['exhibitor']> };

const PEOPLE_PER_APPEARANCE = 2;
const MAX_POSTPONE_DAYS = 3650;

const eventView = (e: SeededEvent): ChangeResult['event'] => ({
  id: e.id,
  eventId: e.eventId,
  name: e.name,
  dateStart: e.dateStart,
  dateEnd: e.dateEnd,
  city: e.city,
});

const exhibitorView = (x: SeededExhibitor): NonNullable<ChangeResult['exhibitor']> => ({
  id: x.id,
  companyName: x.companyName,
  domain: x.domain,
});

export function findEvent(state: SimulatorState, ref: string): SeededEvent {
  const event = state.eventsById.get(ref.trim());
  if (!event) throw notFound(`No event ${ref}`);
  return event;
}

export function findExhibitor(state: SimulatorState, ref: string): SeededExhibitor {
  const wanted = ref.trim();
  const exhibitor =
    state.exhibitorsById.get(wanted) ??
    state.seed.exhibitors.find((x) => x.companyName.toLowerCase() === wanted.toLowerCase());
  if (!exhibitor) throw notFound(`No exhibitor ${ref}`);
  return exhibitor;
}

function appear(state: SimulatorState, exhibitor: SeededExhibitor, event: SeededEvent): boolean {
  if (event.exhibitorIds.includes(exhibitor.id)) return false;
  event.exhibitorIds.push(exhibitor.id);
  exhibitor.eventIds.push(event.id);
  event.exhibitorCount += 1;
  // Seeded from the pair, so the same appearance brings the same people on every run.
  const rng = createRng(Number(exhibitor.id) * 100_003 + Number(event.id));
  const names = FIRST_NAMES.flatMap((f) => LAST_NAMES.map((l) => `${f} ${l}`));
  for (let k = 0; k < PEOPLE_PER_APPEARANCE; k += 1) {
    const person = makePerson(rng, state.seed.personnel.length, rng.pick(names), event, exhibitor, []);
    state.seed.personnel.push(person);
    state.personnelById.set(person.id, person);
    event.personnelIds.push(person.id);
    event.personnelCount += 1;
  }
  return true;
}

function drop(state: SimulatorState, exhibitor: SeededExhibitor, event: SeededEvent): boolean {
  if (!event.exhibitorIds.includes(exhibitor.id)) return false;
  event.exhibitorIds = event.exhibitorIds.filter((id) => id !== exhibitor.id);
  exhibitor.eventIds = exhibitor.eventIds.filter((id) => id !== event.id);
  event.exhibitorCount -= 1;
  // Its people leave the event's list too: they were there as the exhibitor's staff.
  const staff = new Set(
    event.personnelIds.filter((id) => state.personnelById.get(id)?.exhibitorId === exhibitor.id),
  );
  event.personnelIds = event.personnelIds.filter((id) => !staff.has(id));
  event.personnelCount -= staff.size;
  for (const id of staff) {
    const person = state.personnelById.get(id);
    if (person) person.attendance = person.attendance.filter((a) => a.eventId !== event.id);
  }
  return true;
}

function postpone(event: SeededEvent, days: number): void {
  if (!Number.isInteger(days) || days < 1 || days > MAX_POSTPONE_DAYS) {
    throw badRequest(`days must be a whole number from 1 to ${MAX_POSTPONE_DAYS}`);
  }
  event.dateStart = addDays(event.dateStart, days);
  event.dateEnd = addDays(event.dateEnd, days);
}

/** Applies one change now. Throws the simulator's 400/404 errors for unknown ids or bad days. */
export function applyChange(state: SimulatorState, change: ExhibitorChange): ChangeResult {
  const event = findEvent(state, change.event);
  if (change.kind === 'postpone') {
    postpone(event, change.days);
    return { kind: 'postpone', changed: true, event: eventView(event) };
  }
  const exhibitor = findExhibitor(state, change.exhibitor);
  const changed = change.kind === 'appear' ? appear(state, exhibitor, event) : drop(state, exhibitor, event);
  return { kind: change.kind, changed, exhibitor: exhibitorView(exhibitor), event: eventView(event) };
}

/**
 * The company's next appearance: it becomes an exhibitor of the soonest upcoming event (starting
 * after `today`) it is not at yet. Undefined when it is already at every upcoming event.
 */
export function appearAtNextEvent(
  state: SimulatorState,
  exhibitorRef: string,
  today: string,
): Appearance | undefined {
  const exhibitor = findExhibitor(state, exhibitorRef);
  const next = state.seed.events
    .filter((e) => e.dateStart > today && e.exhibitorCount > 0 && !e.exhibitorIds.includes(exhibitor.id))
    .sort((a, b) => a.dateStart.localeCompare(b.dateStart) || a.id.localeCompare(b.id))[0];
  if (!next) return undefined;
  const result = applyChange(state, { kind: 'appear', exhibitor: exhibitor.id, event: next.id });
  return { ...result, exhibitor: exhibitorView(exhibitor) };
}

/** Changes that take effect once the simulator's clock reaches `at` (ms), checked on every request. */
export class ScheduledChanges {
  private pending: { at: number; change: ExhibitorChange }[] = [];

  /** Checks the ids now, so a typo fails where it was written rather than silently later. */
  add(state: SimulatorState, change: ExhibitorChange, at: number): void {
    findEvent(state, change.event);
    if (change.kind !== 'postpone') findExhibitor(state, change.exhibitor);
    this.pending.push({ at, change });
  }

  /** Applies, in time order, every change that is due. */
  applyDue(state: SimulatorState, now: number): ChangeResult[] {
    const due = this.pending.filter((p) => p.at <= now).sort((a, b) => a.at - b.at);
    if (due.length === 0) return [];
    this.pending = this.pending.filter((p) => p.at > now);
    return due.map((p) => applyChange(state, p.change));
  }

  get size(): number {
    return this.pending.length;
  }
}
