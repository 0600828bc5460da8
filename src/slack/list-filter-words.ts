import { closest } from '../domain/schedule-words.ts';
import { isTypedEventId } from '../domain/ids.ts';
import type { ParseResult } from './command-parser.ts';

/**
 * The `key:value` filter words of the event-scoped lists (`exhibitors`, `people`, `recommend`) and of
 * `shows-for` (issue 14, "every filter"). Each list keeps its filters as the words the user typed
 * (`title:VP`), so the list's title repeats them and Previous / Next carry them; the worker turns them
 * into the service's parameters (`src/slack/worker/lists.ts`). Lists of labels are comma-separated.
 */

/** Exhibitors of an event: the company filters and the personnel filters the service offers. */
export const EXHIBITOR_FILTER_KEYS = [
  'country',
  'category',
  'industry',
  'title',
  'level',
  'department',
] as const;
/** People of an event. `source:` is exhibitor, social or visitors (comma-separated). */
export const PEOPLE_FILTER_KEYS = ['exhibitor', 'department', 'level', 'source'] as const;
/** Recommended exhibitors of an event. `name:` is an exact company name. */
export const RECOMMEND_FILTER_KEYS = [
  'country',
  'category',
  'industry',
  'name',
  'employees-min',
  'employees-max',
] as const;
/** Recommended events for a profile (the apply-recommended-events workflow's filters). */
export const SHOWS_FOR_FILTER_KEYS = [
  'country',
  'city',
  'region',
  'category',
  'from',
  'to',
  'industry',
  'target-industry',
  'level',
  'title',
  'attendees-min',
  'attendees-max',
] as const;

export type ExhibitorFilterWords = Partial<Record<(typeof EXHIBITOR_FILTER_KEYS)[number], string>>;
export type PeopleFilterWords = Partial<Record<(typeof PEOPLE_FILTER_KEYS)[number], string>>;
/** `keywords` are the words before the filters (over company name and description). */
export type RecommendFilterWords = Partial<
  Record<(typeof RECOMMEND_FILTER_KEYS)[number] | 'keywords', string>
>;
export type ShowsForFilterWords = Partial<Record<(typeof SHOWS_FOR_FILTER_KEYS)[number], string>>;

export const SOURCE_TYPES = ['exhibitor', 'social', 'visitors'] as const;
const SOURCE_ALIASES: Record<string, (typeof SOURCE_TYPES)[number]> = {
  exhibitors: 'exhibitor',
  'social signals': 'social',
  visitor: 'visitors',
};

const KEY_ALIASES: Record<string, string> = {
  keyword: 'keywords',
  location: 'country',
  categories: 'category',
  'job-title': 'title',
  role: 'title',
  seniority: 'level',
  dept: 'department',
  'exhibitor-id': 'exhibitor',
  sources: 'source',
  company: 'name',
  'min-employees': 'employees-min',
  'max-employees': 'employees-max',
  'min-attendees': 'attendees-min',
  'max-attendees': 'attendees-max',
};

/** `country:…`; not `https://…`, and not times or zones (`08:30`, `UTC+5:30`), which start otherwise. */
export const KEY_TOKEN = /^([A-Za-z][\w-]*):(?!\/\/)(.*)$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A user's word, shown back in backticks: short, and unable to end the code span. */
export const shown = (word: string) => `\`${word.slice(0, 40).replace(/`/g, "'")}\``;

/** `YYYY-MM-DD` naming a day that exists. */
export function isRealDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

interface ReadWords {
  /** The words before the first filter, plus any `keywords:` values. */
  leading: string;
  values: Record<string, string>;
  problem?: string;
}

/** A value the service would refuse, said in words; undefined when it is fine. */
function valueProblem(key: string, value: string): string | undefined {
  if (value.length > 100) return `\`${key}:\` is longer than 100 characters.`;
  if ((key === 'from' || key === 'to') && !isRealDate(value))
    return `${shown(`${key}:${value}`)} is not a date; write it as YYYY-MM-DD.`;
  if (/-(min|max)$/.test(key) && !/^\d{1,9}$/.test(value))
    return `${shown(`${key}:${value}`)} is not a whole number.`;
  if (key === 'exhibitor' && !/^\d{1,20}$/.test(value))
    return `${shown(`exhibitor:${value}`)} is not an exhibitor id; ids are digits, like \`4100\`.`;
  if (key === 'source') {
    const bad = value.split(',').find((part) => !sourceType(part));
    if (bad !== undefined)
      return `${shown(`source:${bad}`)} is not a source; say \`exhibitor\`, \`social\` or \`visitors\`.`;
  }
  return undefined;
}

function sourceType(word: string): (typeof SOURCE_TYPES)[number] | undefined {
  const plain = word.trim().toLowerCase();
  return SOURCE_TYPES.find((type) => type === plain) ?? SOURCE_ALIASES[plain];
}

/** Search words, then `key:value` filters, each value running to the next `key:`. */
export function readFilterWords(words: readonly string[], keys: readonly string[]): ReadWords {
  const values: Record<string, string> = {};
  const firstKey = words.findIndex((word) => KEY_TOKEN.test(word));
  const leading = [(firstKey === -1 ? words : words.slice(0, firstKey)).join(' ')];
  let index = firstKey === -1 ? words.length : firstKey;
  const allowed = ['keywords', ...keys];
  while (index < words.length) {
    const [, rawKey = '', first = ''] = KEY_TOKEN.exec(words[index++] ?? '') ?? [];
    const valueWords = [first];
    while (index < words.length && !KEY_TOKEN.test(words[index] ?? '')) valueWords.push(words[index++] ?? '');
    const name = rawKey.toLowerCase();
    const key = allowed.find((known) => known === (KEY_ALIASES[name] ?? name));
    const result = { leading: '', values };
    if (!key) {
      const guess = closest(name, allowed);
      const list = allowed.map((known) => `\`${known}:\``).join(', ');
      return {
        ...result,
        problem: `${shown(`${rawKey}:`)} is not a filter here.${guess ? ` Did you mean \`${guess}:\`?` : ''} Filters: ${list}.`,
      };
    }
    const value = valueWords.join(' ').replace(/"/g, '').trim();
    if (!value) return { ...result, problem: `\`${key}:\` needs a value.` };
    if (key === 'keywords') {
      leading.push(value);
      continue;
    }
    if (values[key]) return { ...result, problem: `\`${key}:\` is given twice.` };
    const problem = valueProblem(key, value);
    if (problem) return { ...result, problem };
    values[key] = key === 'source' ? value.split(',').map(sourceType).join(',') : value;
  }
  const range = (from?: string, to?: string) => from !== undefined && to !== undefined && from > to;
  if (range(values.from, values.to))
    return { leading: '', values, problem: `\`from:${values.from}\` is after \`to:${values.to}\`.` };
  for (const pair of ['employees', 'attendees']) {
    const min = values[`${pair}-min`];
    const max = values[`${pair}-max`];
    if (min !== undefined && max !== undefined && Number(min) > Number(max))
      return { leading: '', values, problem: `\`${pair}-min:\` is above \`${pair}-max:\`.` };
  }
  return { leading: leading.join(' ').replace(/"/g, '').replace(/\s+/g, ' ').trim(), values };
}

type Fail = (problem: string) => ParseResult;

/** `<event_id> [search words] [key:value…]`, for the event-scoped lists. */
function eventListing(words: readonly string[], keys: readonly string[], fail: Fail) {
  const [id, ...rest] = words;
  if (!id) return { refusal: fail('The event id is missing.') };
  if (!isTypedEventId(id))
    return {
      refusal: fail(`${shown(id)} is not an event id; ids look like \`26855\` (see \`/events search\`).`),
    };
  const read = readFilterWords(rest, keys);
  if (read.problem) return { refusal: fail(read.problem) };
  if (read.leading.length > 200) return { refusal: fail('The search words are longer than 200 characters.') };
  return { eventId: id, leading: read.leading, values: read.values };
}

export function parseExhibitorsWords(words: readonly string[], fail: Fail): ParseResult {
  const read = eventListing(words, EXHIBITOR_FILTER_KEYS, fail);
  if (read.refusal) return read.refusal;
  const { eventId, leading, values } = read;
  return {
    ok: true,
    command: {
      name: 'exhibitors',
      eventId,
      ...(leading ? { keyword: leading } : {}),
      ...(Object.keys(values).length > 0 ? { filters: values } : {}),
    },
  };
}

export function parsePeopleWords(words: readonly string[], fail: Fail): ParseResult {
  const read = eventListing(words, PEOPLE_FILTER_KEYS, fail);
  if (read.refusal) return read.refusal;
  const { eventId, leading, values } = read;
  return {
    ok: true,
    command: {
      name: 'people',
      eventId,
      ...(leading ? { query: leading } : {}),
      ...(Object.keys(values).length > 0 ? { filters: values } : {}),
    },
  };
}

export function parseRecommendWords(words: readonly string[], fail: Fail): ParseResult {
  const read = eventListing(words, RECOMMEND_FILTER_KEYS, fail);
  if (read.refusal) return read.refusal;
  const { eventId, leading, values } = read;
  const filters: RecommendFilterWords = { ...values };
  return {
    ok: true,
    command: { name: 'recommend', eventId, filters: leading ? { ...filters, keywords: leading } : filters },
  };
}

/** `<company url | audience text> [key:value…]`: the profile recommended events are matched against. */
export function parseShowsForWords(words: readonly string[], fail: Fail): ParseResult {
  const read = readFilterWords(words, SHOWS_FOR_FILTER_KEYS);
  if (read.problem) return fail(read.problem);
  const text = read.leading;
  if (!text) return fail('Give a company website or a description of your audience, before the filters.');
  if (text.length > 500) return fail('The description is longer than 500 characters.');
  const url = asCompanyUrl(text);
  return {
    ok: true,
    command: {
      name: 'shows-for',
      ...(url ? { companyUrl: url } : { targetAudience: text }),
      filters: read.values,
    },
  };
}

/** A lone http(s) URL or bare domain is a company website; anything else is audience text. */
export function asCompanyUrl(text: string): string | undefined {
  if (/\s/.test(text)) return undefined;
  const candidate = /^https?:\/\//i.test(text)
    ? text
    : /^[\w-]+(\.[\w-]+)+(\/\S*)?$/.test(text)
      ? `https://${text}`
      : '';
  if (!candidate) return undefined;
  try {
    return new URL(candidate).toString();
  } catch {
    return undefined;
  }
}

/** `Trade Show, Conference` → `['Trade Show', 'Conference']`; undefined when empty. */
export function labelsOf(text: string | undefined): string[] | undefined {
  const list = (text ?? '')
    .split(',')
    .map((label) => label.trim())
    .filter(Boolean);
  return list.length > 0 ? list : undefined;
}

/** A whole number typed as a filter word, or undefined. */
export function numberOf(text: string | undefined): number | undefined {
  return text !== undefined && /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}
