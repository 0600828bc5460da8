import { utcDate } from '../time/local-time.ts';

/**
 * Calendar periods a seller plans by: a quarter (`Q2-2027`), a month (`2027-03`), and for spend the
 * current day, week, month or quarter. All in UTC, as the ledger books charges; each period is its
 * first and last day, inclusive (`YYYY-MM-DD`). The one place these words are read: search's `when:`,
 * the plan's budget and `/events spend` all use it.
 */
export interface Period {
  /** How the period is named back to the user: `Q2 2027`, `March 2027`, `today`. */
  label: string;
  /** The key the period is stored under: `Q2-2027`, `2027-03`, or the first day. */
  key: string;
  from: string;
  to: string;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const QUARTER = /^q([1-4])-(\d{4})$/i;
const QUARTER_YEAR_FIRST = /^(\d{4})-q([1-4])$/i;
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

const day = (year: number, monthIndex: number, date: number) =>
  utcDate(new Date(Date.UTC(year, monthIndex, date)));
/** The last day of a month: day 0 of the next one. */
const lastDay = (year: number, monthIndex: number) => day(year, monthIndex + 1, 0);

export function quarterPeriod(year: number, quarter: 1 | 2 | 3 | 4): Period {
  const first = (quarter - 1) * 3;
  return {
    label: `Q${quarter} ${year}`,
    key: `Q${quarter}-${year}`,
    from: day(year, first, 1),
    to: lastDay(year, first + 2),
  };
}

export function monthPeriod(year: number, monthIndex: number): Period {
  const key = `${year}-${String(monthIndex + 1).padStart(2, '0')}`;
  return {
    label: `${MONTHS[monthIndex]} ${year}`,
    key,
    from: day(year, monthIndex, 1),
    to: lastDay(year, monthIndex),
  };
}

/** `Q2-2027` (or `2027-Q2`); undefined when the word is not a quarter. */
export function parseQuarter(word: string): Period | undefined {
  const quarterFirst = QUARTER.exec(word);
  const yearFirst = QUARTER_YEAR_FIRST.exec(word);
  const [quarter, year] = quarterFirst
    ? [quarterFirst[1], quarterFirst[2]]
    : yearFirst
      ? [yearFirst[2], yearFirst[1]]
      : [];
  if (!quarter || !year) return undefined;
  return quarterPeriod(Number(year), Number(quarter) as 1 | 2 | 3 | 4);
}

/** `2027-03`; undefined when the word is not a month. */
export function parseMonth(word: string): Period | undefined {
  const match = MONTH.exec(word);
  return match ? monthPeriod(Number(match[1]), Number(match[2]) - 1) : undefined;
}

/** A quarter or a month, as search's `when:` takes it. */
export const parseCalendarPeriod = (word: string): Period | undefined =>
  parseQuarter(word) ?? parseMonth(word);

/**
 * The quarter or month that is exactly `from`–`to`, if one is: a `when:Q2-2027` is stored as its days,
 * and is named back by its period.
 */
export function calendarPeriodOf(from: string | undefined, to: string | undefined): Period | undefined {
  const start = from ? /^(\d{4})-(\d{2})-01$/.exec(from) : null;
  if (!start) return undefined;
  const [year, monthIndex] = [Number(start[1]), Number(start[2]) - 1];
  const quarter =
    monthIndex % 3 === 0 ? quarterPeriod(year, (monthIndex / 3 + 1) as 1 | 2 | 3 | 4) : undefined;
  return [quarter, monthPeriod(year, monthIndex)].find(
    (period) => period !== undefined && period.from === from && period.to === to,
  );
}

export function quarterContaining(instant: Date): Period {
  return quarterPeriod(
    instant.getUTCFullYear(),
    (Math.floor(instant.getUTCMonth() / 3) + 1) as 1 | 2 | 3 | 4,
  );
}

/**
 * The current `today`, `week` (Monday to Sunday), `month` or `quarter`, or a named quarter or month;
 * undefined for any other word.
 */
export function parseSpendPeriod(word: string, now: Date): Period | undefined {
  const today = utcDate(now);
  switch (word.toLowerCase()) {
    case 'today':
      return { label: 'today', key: today, from: today, to: today };
    case 'week': {
      const sinceMonday = (now.getUTCDay() + 6) % 7;
      const from = day(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - sinceMonday);
      const to = day(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - sinceMonday + 6);
      return { label: 'this week', key: from, from, to };
    }
    case 'month':
      return monthPeriod(now.getUTCFullYear(), now.getUTCMonth());
    case 'quarter':
      return quarterContaining(now);
    default:
      return parseCalendarPeriod(word);
  }
}
