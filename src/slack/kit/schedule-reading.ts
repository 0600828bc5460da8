import { closest } from './closest-word.ts';

/**
 * The words of a daily schedule — a time of day and a time zone — read strictly: a typo gets an answer
 * with a suggestion, never a silently wrong schedule. Pure: `Intl` only, no I/O. Slack's side, as its
 * answers are words a user reads; the domain takes the `HH:MM` and zone name they give (digest.ts).
 */

export type TimeWord = { ok: true; time: string } | { ok: false; problem: string };
export type ZoneWord =
  { ok: true; timeZone: string; note?: string } | { ok: false; problem: string; suggestion?: string };

const pad = (value: number) => String(value).padStart(2, '0');
const hhmm = (hour: number, minute: number) => `${pad(hour)}:${pad(minute)}`;
const TIME_FORMS = 'Write it as HH:MM (24-hour, e.g. 08:30), 8am or 8:30pm.';

/** Digit-led words are meant as times (`8`, `8.30`, `25:00`), so they get a time error, not a zone one. */
export const looksLikeTime = (word: string): boolean => /^\d/.test(word);

/** `08:30`, `8:30`, `8am`, `8:30pm`, `12am` → `HH:MM` (24-hour); anything else is a problem. */
export function readTimeOfDay(word: string): TimeWord {
  const shown = `\`${word.slice(0, 20)}\``;
  const h24 = /^(\d{1,2}):(\d{2})$/.exec(word);
  if (h24) {
    const hour = Number(h24[1]);
    const minute = Number(h24[2]);
    if (hour <= 23 && minute <= 59) return { ok: true, time: hhmm(hour, minute) };
    const hint = hour === 24 && minute === 0 ? ' Did you mean `00:00`?' : '';
    return { ok: false, problem: `${shown} is not a time of day: 00:00 to 23:59.${hint}` };
  }
  const h12 = /^(\d{1,2})(?::(\d{2}))?([ap])\.?m\.?$/i.exec(word);
  if (h12) {
    const hour = Number(h12[1]);
    const minute = Number(h12[2] ?? '0');
    const pm = h12[3]?.toLowerCase() === 'p';
    if (hour >= 1 && hour <= 12 && minute <= 59) {
      return { ok: true, time: hhmm((hour % 12) + (pm ? 12 : 0), minute) };
    }
    const hint = hour <= 23 && minute <= 59 ? ` Did you mean \`${hhmm(hour, minute)}\`?` : '';
    return { ok: false, problem: `${shown} is not a time: 12-hour times run from 1 to 12.${hint}` };
  }
  // Near misses (`8`, `8.30`, `8h30`, `0830`) get the time they probably meant.
  const near = /^(\d{1,2})(?:[.,h-]?(\d{2}))?h?$/i.exec(word);
  const hour = Number(near?.[1]);
  const minute = Number(near?.[2] ?? '0');
  const hint = near && hour <= 23 && minute <= 59 ? ` Did you mean \`${hhmm(hour, minute)}\`?` : '';
  return { ok: false, problem: `${shown} is not a time.${hint} ${TIME_FORMS}` };
}

/** Common abbreviations, read as the place whose clocks people mean (daylight saving included). */
const ABBREVIATIONS: Record<string, string> = {
  UTC: 'UTC',
  GMT: 'UTC',
  Z: 'UTC',
  EST: 'America/New_York',
  EDT: 'America/New_York',
  ET: 'America/New_York',
  CST: 'America/Chicago',
  CDT: 'America/Chicago',
  CT: 'America/Chicago',
  MST: 'America/Denver',
  MDT: 'America/Denver',
  MT: 'America/Denver',
  PST: 'America/Los_Angeles',
  PDT: 'America/Los_Angeles',
  PT: 'America/Los_Angeles',
  AKST: 'America/Anchorage',
  AKDT: 'America/Anchorage',
  HST: 'Pacific/Honolulu',
  WET: 'Europe/Lisbon',
  WEST: 'Europe/Lisbon',
  BST: 'Europe/London',
  CET: 'Europe/Berlin',
  CEST: 'Europe/Berlin',
  EET: 'Europe/Athens',
  EEST: 'Europe/Athens',
  MSK: 'Europe/Moscow',
  IST: 'Asia/Kolkata',
  SGT: 'Asia/Singapore',
  HKT: 'Asia/Hong_Kong',
  KST: 'Asia/Seoul',
  JST: 'Asia/Tokyo',
  AWST: 'Australia/Perth',
  ACST: 'Australia/Adelaide',
  ACDT: 'Australia/Adelaide',
  AEST: 'Australia/Sydney',
  AEDT: 'Australia/Sydney',
  NZST: 'Pacific/Auckland',
  NZDT: 'Pacific/Auckland',
};

/** Places for the usual half-hour offsets, which have no fixed-offset zone in `Intl`. */
const HALF_HOUR_PLACES: Record<string, string> = {
  '-3:30': 'America/St_Johns',
  '+3:30': 'Asia/Tehran',
  '+4:30': 'Asia/Kabul',
  '+5:30': 'Asia/Kolkata',
  '+5:45': 'Asia/Kathmandu',
  '+6:30': 'Asia/Yangon',
  '+9:30': 'Australia/Adelaide',
};

const ZONE_EXAMPLES = 'a name like Europe/Berlin or America/New_York, an abbreviation like EST, or UTC+2';

/** The zone `Intl` knows by this name, in its canonical spelling (`europe/berlin` → `Europe/Berlin`). */
function intlZone(word: string): string | undefined {
  if (!/^[A-Za-z][\w+\-/]*$/.test(word)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: word }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** `UTC+2`, `GMT-5`, `UTC+02:00` → a fixed-offset zone; half hours are refused with a place to use. */
function offsetZone(word: string): ZoneWord | undefined {
  const match = /^(?:UTC|GMT)([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(word);
  if (!match) return undefined;
  const [, sign = '+', hoursText = '0', minutesText = '00'] = match;
  const hours = Number(hoursText);
  const minutes = Number(minutesText);
  if (hours > (sign === '+' ? 14 : 12) || minutes > 59) {
    return { ok: false, problem: `\`${word}\` is not a UTC offset: they run from UTC-12 to UTC+14.` };
  }
  if (minutes !== 0) {
    const place = HALF_HOUR_PLACES[`${sign}${hours}:${pad(minutes)}`] ?? 'Asia/Kolkata';
    return {
      ok: false,
      problem: `\`${word}\` is not a whole-hour offset; name a place with that offset instead, e.g. \`${place}\`.`,
    };
  }
  if (hours === 0) return { ok: true, timeZone: 'UTC' };
  // IANA's Etc zones count the other way round: Etc/GMT-2 is two hours ahead of UTC.
  const timeZone = `Etc/GMT${sign === '+' ? '-' : '+'}${hours}`;
  return {
    ok: true,
    timeZone,
    note: `${word} read as ${timeZone} (always UTC${sign}${hours}, no daylight saving)`,
  };
}

/** An IANA name (any case), a common abbreviation (with a note), or `UTC±H`; else a problem with a suggestion. */
export function readTimeZone(word: string): ZoneWord {
  const abbreviated = ABBREVIATIONS[word.toUpperCase()];
  if (abbreviated) {
    const canonical = word.toUpperCase() === abbreviated;
    return {
      ok: true,
      timeZone: abbreviated,
      ...(canonical ? {} : { note: `${word} read as ${abbreviated}` }),
    };
  }
  const offset = offsetZone(word);
  if (offset) return offset;
  const zone = intlZone(word);
  if (zone) {
    // A link (`US/Eastern`) resolves to another name: say which, as for abbreviations.
    return zone.toLowerCase() === word.toLowerCase()
      ? { ok: true, timeZone: zone }
      : { ok: true, timeZone: zone, note: `${word} read as ${zone}` };
  }
  const suggestion = closestZone(word);
  const hint = suggestion ? ` Did you mean \`${suggestion}\`?` : '';
  return {
    ok: false,
    problem: `\`${word.slice(0, 60)}\` is not a time zone.${hint} Use ${ZONE_EXAMPLES}.`,
    ...(suggestion ? { suggestion } : {}),
  };
}

let zoneNames: string[] | undefined;

/** The nearest zone name or abbreviation, also by the city alone (`Berln` → `Europe/Berlin`). */
function closestZone(word: string): string | undefined {
  zoneNames ??= [...Intl.supportedValuesOf('timeZone'), ...Object.keys(ABBREVIATIONS)];
  const byName = closest(word, zoneNames);
  if (byName) return byName;
  const city = (name: string) => name.slice(name.lastIndexOf('/') + 1);
  const cities = zoneNames.filter((name) => name.includes('/'));
  const byCity = closest(city(word), cities.map(city));
  return byCity ? cities.find((name) => city(name) === byCity) : undefined;
}
