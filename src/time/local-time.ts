/**
 * Wall-clock time in IANA time zones with nothing but `Intl.DateTimeFormat`: the local date of an
 * instant, and the next instant a daily `HH:MM` comes round. Pure functions; DST-correct.
 */

/** `HH:MM`, 24-hour, 00:00 to 23:59. */
export const LOCAL_TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;
/** `YYYY-MM-DD`. */
export const LOCAL_DATE_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

// A memo, not a dependency: building a formatter costs far more than using one, and the digest run
// asks about the same few zones many times.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** True for a zone name `Intl` knows (`Europe/Berlin`, `UTC`); false for anything else. */
export function isValidTimeZone(timeZone: string): boolean {
  if (timeZone.length === 0) return false;
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

function wallTime(instant: number, timeZone: string): WallTime {
  const values: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') values[part.type] = Number(part.value);
  }
  const field = (name: string): number => {
    const value = values[name];
    if (value === undefined || Number.isNaN(value)) {
      throw new Error(`Intl gave no ${name} for ${new Date(instant).toISOString()} in ${timeZone}`);
    }
    return value;
  };
  return {
    year: field('year'),
    month: field('month'),
    day: field('day'),
    hour: field('hour') % 24,
    minute: field('minute'),
    second: field('second'),
  };
}

function wallTimeAsUtc(wall: WallTime): number {
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
}

/** The zone's offset from UTC at an instant, in milliseconds (positive east of Greenwich). */
function offsetAt(instant: number, timeZone: string): number {
  const wholeSeconds = Math.floor(instant / 1000) * 1000;
  return wallTimeAsUtc(wallTime(wholeSeconds, timeZone)) - wholeSeconds;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** The UTC calendar date (`YYYY-MM-DD`) of an instant: the day of ledgers, caps and "today". */
export const utcDate = (instant: Date): string => instant.toISOString().slice(0, 10);

/** The calendar date (`YYYY-MM-DD`) an instant falls on in a zone. */
export function localDate(instant: Date, timeZone: string): string {
  const wall = wallTime(instant.getTime(), timeZone);
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
}

/** The wall-clock time (`HH:MM`) of an instant in a zone. */
export function localTimeOfDay(instant: Date, timeZone: string): string {
  const wall = wallTime(instant.getTime(), timeZone);
  return `${pad(wall.hour)}:${pad(wall.minute)}`;
}

/** Parses `HH:MM`; throws a RangeError for anything else. */
export function parseLocalTime(time: string): { hour: number; minute: number } {
  const match = LOCAL_TIME_PATTERN.exec(time);
  if (!match) throw new RangeError(`Not a time of day (HH:MM, 00:00 to 23:59): ${JSON.stringify(time)}`);
  return { hour: Number(match[1]), minute: Number(match[2]) };
}

/**
 * The instant a wall-clock time happens in a zone. Like Temporal's `compatible` choice: a time that
 * happens twice (clocks go back) gives the earlier instant; a time that never happens (clocks go
 * forward) is pushed forward by the size of the gap (02:30 becomes 03:30).
 */
export function zonedInstant(
  date: { year: number; month: number; day: number },
  time: { hour: number; minute: number },
  timeZone: string,
): Date {
  const wall: WallTime = { ...date, ...time, second: 0 };
  const asUtc = wallTimeAsUtc(wall);
  const day = 24 * 60 * 60 * 1000;
  const offsetBefore = offsetAt(asUtc - day, timeZone);
  const offsetAfter = offsetAt(asUtc + day, timeZone);
  const matches = (instant: number) => wallTimeAsUtc(wallTime(instant, timeZone)) === asUtc;
  const candidates = [asUtc - offsetBefore, asUtc - offsetAfter].filter(matches).sort((a, b) => a - b);
  const earliest = candidates[0];
  if (earliest !== undefined) return new Date(earliest);
  // In the gap: the offset in force before the change carries the wall time past it.
  return new Date(asUtc - offsetBefore);
}

/** The first instant strictly after `after` at which the wall clock in `timeZone` reads `time`. */
export function nextOccurrence(time: string, timeZone: string, after: Date): Date {
  const { hour, minute } = parseLocalTime(time);
  const today = wallTime(after.getTime(), timeZone);
  for (let offsetDays = 0; offsetDays <= 2; offsetDays++) {
    const calendar = new Date(Date.UTC(today.year, today.month - 1, today.day + offsetDays));
    const candidate = zonedInstant(
      { year: calendar.getUTCFullYear(), month: calendar.getUTCMonth() + 1, day: calendar.getUTCDate() },
      { hour, minute },
      timeZone,
    );
    if (candidate.getTime() > after.getTime()) return candidate;
  }
  // Unreachable for real zones: some day within the next two has the time after `after`.
  throw new Error(`No occurrence of ${time} in ${timeZone} after ${after.toISOString()}`);
}
