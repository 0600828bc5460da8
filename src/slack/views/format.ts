import { isPastShow, type ShowDays } from '../../domain/past-show.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn } from './mrkdwn.ts';

/** Text formatting shared by the views. Everything taking service or user text escapes it. */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
// A process's first `Intl` formatter loads ICU's data (≈ 10 ms of CPU): whole numbers, such as the
// prices in the command words' help (built when the Slack function starts), are grouped without it.
let numberFormat: Intl.NumberFormat | undefined;

/** `2,000`; `2.5`. */
export function formatNumber(value: number): Mrkdwn {
  if (Number.isSafeInteger(value) && !Object.is(value, -0)) {
    const digits = escapeMrkdwn(String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, ','));
    return value < 0 ? mk`-${digits}` : digits;
  }
  numberFormat ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
  return escapeMrkdwn(numberFormat.format(value));
}

/**
 * `1 show`, `2,000 shows`, `1 person`, `3 people`: the one rule every count the bot writes goes
 * through (the singular for exactly 1, the plural otherwise, 0 included).
 */
export function plural(count: number, one: string, many = `${one}s`): Mrkdwn {
  return mk`${formatNumber(count)} ${escapeMrkdwn(count === 1 ? one : many)}`;
}

/** `1 credit`, `2,000 credits`. */
export function formatCredits(value: number): Mrkdwn {
  return plural(value, 'credit');
}

/** `x.x/10`, or `–` when the service left it out. */
export function outOfTen(value: number | null | undefined): Mrkdwn {
  return typeof value === 'number' && Number.isFinite(value)
    ? mk`${escapeMrkdwn(value.toFixed(1))}/10`
    : mk`–`;
}

interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

function parseDate(text: string | null | undefined): CalendarDate | undefined {
  const match = text?.match(/^(\d{4})-(\d{2})-(\d{2})/);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  return { year, month, day };
}

const monthName = (date: CalendarDate) => escapeMrkdwn(MONTHS[date.month - 1] ?? '');
const fullDate = (date: CalendarDate) => mk`${date.day} ${monthName(date)} ${date.year}`;
const compare = (a: CalendarDate, b: CalendarDate) => a.year - b.year || a.month - b.month || a.day - b.day;

/** `12–14 Mar 2027`, `28 Feb – 2 Mar 2027`, `12 Mar 2027`, or `Dates not announced`. */
export function formatDateRange(start: string | null | undefined, end: string | null | undefined): Mrkdwn {
  const from = parseDate(start);
  const to = parseDate(end);
  if (!from && !to) return mk`Dates not announced`;
  if (!from && to) return mk`Until ${fullDate(to)}`;
  if (!from) return mk`Dates not announced`;
  if (!to || compare(to, from) <= 0) return fullDate(from);
  if (from.year === to.year && from.month === to.month) {
    return mk`${from.day}–${to.day} ${monthName(from)} ${from.year}`;
  }
  if (from.year === to.year) return mk`${from.day} ${monthName(from)} – ${fullDate(to)}`;
  return mk`${fullDate(from)} – ${fullDate(to)}`;
}

/** The one word that marks a show already over (src/domain/past-show.ts) wherever one is listed. */
export const PAST_WORD = 'Past';

/** A show's dates as every list and card names them: `20–22 Nov 2026 · *Past*` once the show is over. */
export function formatShowDates(show: ShowDays, today: string | undefined): Mrkdwn {
  const dates = formatDateRange(show.dateStart, show.dateEnd);
  return today !== undefined && isPastShow(show, today) ? mk`${dates} · *${PAST_WORD}*` : dates;
}

/** Non-empty parts joined with `, `, escaped. */
export function joinPresent(
  parts: readonly (string | null | undefined)[],
  separator: ', ' | ' · ' = ', ',
): Mrkdwn {
  const present = parts
    .map((part) => part?.trim())
    .filter((part): part is string => Boolean(part))
    .map(escapeMrkdwn);
  return joinMrkdwn(present, separator);
}

/** Venue, city, region, country of an event; missing parts (null or absent) skipped. */
export function formatPlace(event: {
  venue?: string | null | undefined;
  city?: string | null | undefined;
  region?: string | null | undefined;
  country?: string | null | undefined;
}): Mrkdwn {
  return joinPresent([event.venue, event.city, event.region, event.country]);
}

/** `12 Mar 2027` in UTC. */
export function utcDay(date: Date): Mrkdwn {
  return mk`${date.getUTCDate()} ${escapeMrkdwn(MONTHS[date.getUTCMonth()] ?? '')} ${date.getUTCFullYear()}`;
}

/** `14:05 UTC`. */
export function utcTime(date: Date): Mrkdwn {
  const pad = (value: number) => escapeMrkdwn(String(value).padStart(2, '0'));
  return mk`${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

/** `28 Nov 2026 12:42 UTC`: a moment written once, with its zone once. */
export function utcDateTime(date: Date): Mrkdwn {
  return mk`${utcDay(date)} ${utcTime(date)}`;
}

/**
 * A Slack date token, shown in each reader's own time zone: `<!date^1700000000^{time}|14:05 UTC>`.
 * `fallback` is for clients that cannot render it.
 */
export function slackDate(date: Date, format: string, fallback: string): Mrkdwn {
  const seconds = Math.floor(date.getTime() / 1000);
  return mk`<!date^${seconds}^${escapeMrkdwn(format)}|${escapeMrkdwn(fallback.replace(/\|/g, '/'))}>`;
}

/** A Unix timestamp in seconds or milliseconds (the service's examples use milliseconds). */
export function fromUnixTimestamp(value: number): Date {
  return new Date(value > 100_000_000_000 ? value : value * 1000);
}

/** `<@U123>` for a user id; anything else is shown as escaped text. */
export function mentionUser(userId: string): Mrkdwn {
  return /^[UW][A-Z0-9]+$/.test(userId) ? mk`<@${escapeMrkdwn(userId)}>` : escapeMrkdwn(userId);
}

/** `<!subteam^S123>` for a user group id; anything else is shown as escaped text. */
export function mentionUserGroup(groupId: string): Mrkdwn {
  return /^S[A-Z0-9]+$/.test(groupId) ? mk`<!subteam^${escapeMrkdwn(groupId)}>` : escapeMrkdwn(groupId);
}

/** `<#C123>` for a channel id; anything else is shown as escaped text. */
export function mentionChannel(channelId: string): Mrkdwn {
  return /^[CGD][A-Z0-9]+$/.test(channelId) ? mk`<#${escapeMrkdwn(channelId)}>` : escapeMrkdwn(channelId);
}

/**
 * A mrkdwn link for an http(s) address (a bare domain gets `https://`), else the escaped text.
 * The label defaults to the host.
 */
export function formatLink(address: string | null | undefined, label?: string): Mrkdwn {
  const trimmed = address?.trim();
  if (!trimmed) return mk``;
  const withScheme = /^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return escapeMrkdwn(trimmed);
  }
  if (!/^[a-z0-9.-]+\.[a-z]{2,}$/i.test(url.hostname)) return escapeMrkdwn(trimmed);
  const text = label ?? url.hostname.replace(/^www\./, '');
  const href = escapeMrkdwn(url.href.replace(/\|/g, '%7C').replace(/>/g, '%3E'));
  return mk`<${href}|${escapeMrkdwn(text.replace(/\|/g, '/'))}>`;
}

/** Inline code with the text escaped and backticks removed (they would end the span). */
export function code(text: string): Mrkdwn {
  return mk`\`${escapeMrkdwn(text.replace(/`/g, "'"))}\``;
}

/** A person as the thread replies name them: their name and id, or the id alone. */
export function personLabel(personnelId: string, names: Readonly<Record<string, string>>): Mrkdwn {
  const name = names[personnelId]?.trim();
  return name ? mk`*${escapeMrkdwn(name)}* (${code(personnelId)})` : mk`Person ${code(personnelId)}`;
}
