import { PLACES } from './seed-data.ts';

/**
 * Shows a payments or fintech marketer looks for first (issue 36), added after the generated ones so
 * their ids and data stay as they were. Dates follow the simulator's today: `quarter` 1 is the
 * calendar quarter after today's, up to 4, and `day` the day of that quarter the show opens on; a
 * show with `endedDaysAgo` is past. Started on 2026-11-28, quarter 2 is Q2-2027.
 */
interface CuratedShow {
  name: string;
  topic: string;
  kind: string;
  subjects: string;
  city: string;
  days: number;
  /** A stored-profile fit band (as `fitFor`'s): 0 high, 1 middle, 2 low. */
  band: 0 | 1 | 2;
  quarter?: 1 | 2 | 3 | 4;
  day?: number;
  endedDaysAgo?: number;
}

const SHOWS: readonly CuratedShow[] = [
  {
    name: 'Open Banking Expo',
    topic: 'Fintech',
    kind: 'Expo',
    subjects: 'open banking, payments and APIs for banks and fintechs',
    city: 'London',
    quarter: 1,
    day: 24,
    days: 2,
    band: 0,
  },
  {
    name: 'Payments Europe Summit',
    topic: 'Fintech',
    kind: 'Summit',
    subjects: 'card payments, acquiring, checkout and B2B payments software',
    city: 'Amsterdam',
    quarter: 2,
    day: 35,
    days: 3,
    band: 0,
  },
  {
    name: 'Banking & Fintech Forum',
    topic: 'Fintech',
    kind: 'Forum',
    subjects: 'digital banking, lending and payments',
    city: 'Berlin',
    quarter: 2,
    day: 62,
    days: 2,
    band: 1,
  },
  {
    name: 'Merchant Payments Conference',
    topic: 'Fintech',
    kind: 'Conference',
    subjects: 'B2B payments, invoicing and treasury software for finance teams',
    city: 'Paris',
    quarter: 3,
    day: 40,
    days: 2,
    band: 0,
  },
  {
    name: 'Fintech Week Europe',
    topic: 'Fintech',
    kind: 'Show',
    subjects: 'payments, regtech and embedded finance',
    city: 'Munich',
    quarter: 4,
    day: 20,
    days: 4,
    band: 1,
  },
  {
    name: 'Payments Leaders Summit',
    topic: 'Fintech',
    kind: 'Summit',
    subjects: 'B2B payments, accounts payable automation and commercial cards',
    city: 'New York',
    quarter: 2,
    day: 14,
    days: 3,
    band: 0,
  },
  {
    name: 'Fintech North America',
    topic: 'Fintech',
    kind: 'Conference',
    subjects: 'payments, banking software and lending',
    city: 'Toronto',
    quarter: 3,
    day: 55,
    days: 2,
    band: 1,
  },
  {
    name: 'Dental Technology Show',
    topic: 'Medical Devices',
    kind: 'Show',
    subjects: 'equipment, imaging and practice software for dentists and dental labs',
    city: 'Chicago',
    quarter: 1,
    day: 45,
    days: 3,
    band: 2,
  },
  {
    name: 'Payments Innovation Forum',
    topic: 'Fintech',
    kind: 'Forum',
    subjects: 'real-time payments and B2B payments',
    city: 'London',
    endedDaysAgo: 6,
    days: 2,
    band: 0,
  },
];

export interface CuratedEventSpec {
  name: string;
  description: string;
  topic: string;
  kind: string;
  place: (typeof PLACES)[number];
  dateStart: string;
  dateEnd: string;
  band: 0 | 1 | 2;
}

const DAY_MS = 86_400_000;
const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The first day of the calendar quarter `ahead` quarters after `today`'s, in ms. */
function quarterStart(today: string, ahead: number): number {
  const year = Number(today.slice(0, 4));
  const quarter = Math.floor((Number(today.slice(5, 7)) - 1) / 3) + ahead;
  return Date.UTC(year + Math.floor(quarter / 4), (quarter % 4) * 3, 1);
}

function startOf(show: CuratedShow, today: string): number {
  const todayMs = Date.parse(`${today}T00:00:00Z`);
  if (show.endedDaysAgo !== undefined) return todayMs - (show.endedDaysAgo + show.days) * DAY_MS;
  return quarterStart(today, show.quarter ?? 1) + ((show.day ?? 1) - 1) * DAY_MS;
}

/** The curated shows, dated from `today` (YYYY-MM-DD). */
export function curatedEventSpecs(today: string): CuratedEventSpec[] {
  return SHOWS.map((show) => {
    const place = PLACES.find((p) => p.city === show.city);
    if (!place) throw new Error(`no place ${show.city}`);
    const start = startOf(show, today);
    const dateStart = dayOf(start);
    return {
      name: `${show.name} ${dateStart.slice(0, 4)}`,
      description: `${show.topic} ${show.kind.toLowerCase()} in ${place.city}: ${show.subjects}.`,
      topic: show.topic,
      kind: show.kind,
      place,
      dateStart,
      dateEnd: dayOf(start + show.days * DAY_MS),
      band: show.band,
    };
  });
}
