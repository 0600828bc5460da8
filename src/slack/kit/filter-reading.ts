import { closest } from './closest-word.ts';
import { isTypedEventId } from '../../domain/ids.ts';
import { MAX_SEARCH_WORDS, searchWords } from '../../domain/event-search.ts';
import { parseCalendarPeriod } from '../../domain/periods.ts';
import { readRegion, REGION_NAMES } from '../../domain/regions.ts';
import { KEY_TOKEN, shown } from './command-arguments.ts';

/**
 * How the `key:value` filter words of a list are read (issue 14, "every filter"). Each list keeps its
 * filters as the words the user typed (`title:VP`), so its title repeats them and Previous / Next carry
 * them; its definition (`src/slack/features/lists/<list>.ts`) names its keys and how each value is checked.
 * Lists of labels are comma-separated.
 */

/** One filter word's value checked: the value the list keeps, or what is wrong with it in words. */
export type ValueCheck = (value: string, key: string) => { value: string } | { problem: string };

/** One `key:value` filter of a list: how its value is checked, and its field in the Filter… modal. */
export interface FilterWord {
  /** The Filter… modal's label (lists with a modal). */
  label?: string;
  placeholder?: string;
  /** Values the service names (`source:`): checkboxes, read back comma-separated. */
  choices?: Record<string, string>;
  /** Absent: any text up to 100 characters. */
  check?: ValueCheck;
}
export type FilterWords = Readonly<Record<string, FilterWord>>;

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

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** `YYYY-MM-DD` naming a day that exists. */
export function isRealDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/** `from:` / `to:`: a day that exists. */
export const dateWord: ValueCheck = (value, key) =>
  isRealDate(value)
    ? { value }
    : { problem: `${shown(`${key}:${value}`)} is not a date; write it as YYYY-MM-DD.` };

/** `employees-min:` and the like: a whole number. */
export const wholeNumberWord: ValueCheck = (value, key) =>
  /^\d{1,9}$/.test(value) ? { value } : { problem: `${shown(`${key}:${value}`)} is not a whole number.` };

/** `exhibitor:`: an exhibitor id. */
export const exhibitorIdWord: ValueCheck = (value, key) =>
  /^\d{1,20}$/.test(value)
    ? { value }
    : { problem: `${shown(`${key}:${value}`)} is not an exhibitor id; ids are digits, like \`4100\`.` };

/** `region:`: a region of the table in src/domain/regions.ts, kept in its own spelling (`North America`). */
export const regionWord: ValueCheck = (value, key) => {
  const region = readRegion(value);
  if (region) return { value: region };
  const known = REGION_NAMES.map((name) => `\`${name.replace(/ /g, '-')}\``).join(', ');
  return { problem: `${shown(`${key}:${value}`)} is not a region I know; say ${known}.` };
};

/** `when:`: a quarter (`Q2-2027`) or a month (`2027-03`), as src/domain/periods.ts reads them. */
export const whenWord: ValueCheck = (value, key) => {
  const period = parseCalendarPeriod(value.trim());
  if (period) return { value: period.key };
  return {
    problem: `${shown(`${key}:${value}`)} is not a quarter or a month; write \`${key}:Q2-2027\` or \`${key}:2027-03\`.`,
  };
};

/**
 * `when:` read as its first and last day (`from:`/`to:`); refused beside `from:` or `to:`, which would
 * say the dates twice.
 */
export function datesOfWhen(values: {
  when?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}): { from?: string; to?: string; problem?: string } {
  const { when, from, to } = values;
  if (!when) return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
  const period = parseCalendarPeriod(when);
  if (!period) return { problem: `\`when:${when}\` is not a quarter or a month.` };
  if (from || to) {
    const given = [from && `from:${from}`, to && `to:${to}`].filter(Boolean).join(' ');
    return {
      problem: `\`when:${when}\` and \`${given}\` both give the dates; keep \`when:\` (${period.label}) or \`from:\`/\`to:\`, not both.`,
    };
  }
  return { from: period.from, to: period.to };
}

/** Search words beyond the bound, in words; each word is one free read of the events list. */
export function searchWordsProblem(text: string | undefined): string | undefined {
  const words = searchWords(text);
  if (words.length <= MAX_SEARCH_WORDS) return undefined;
  // Named, since words like `and` and repeats are not counted: the count is of these.
  const named = words.map((word) => `\`${word}\``).join(', ');
  return `Search takes up to ${MAX_SEARCH_WORDS} words (a show matches any of them); this one has ${words.length}: ${named}. Drop some, or narrow with \`country:\`, \`region:\` or \`when:\`.`;
}

/** `country:` and `region:` together: one place filter at a time. */
export function placeProblem(values: { country?: string | undefined; region?: string | undefined }) {
  return values.country && values.region
    ? `Give \`country:${values.country}\` or \`region:${values.region}\`, not both.`
    : undefined;
}

/** Labels the service names, comma-separated; each read through `aliases` and kept in its own spelling. */
export function choiceWord(
  names: readonly string[],
  aliases: Record<string, string>,
  noun: string,
): ValueCheck {
  const said = names.map((name) => `\`${name}\``);
  const list = `${said.slice(0, -1).join(', ')} or ${said.at(-1) ?? ''}`;
  const nameOf = (word: string) => {
    const plain = word.trim().toLowerCase();
    return names.find((name) => name === plain) ?? aliases[plain];
  };
  return (value, key) => {
    const bad = value.split(',').find((part) => !nameOf(part));
    if (bad !== undefined) return { problem: `${shown(`${key}:${bad}`)} is not a ${noun}; say ${list}.` };
    return { value: value.split(',').map(nameOf).join(',') };
  };
}

export interface ReadWords {
  /** The words before the first filter, plus any `keywords:` values. */
  leading: string;
  values: Record<string, string>;
  problem?: string;
}

function checked(key: string, value: string, filter: FilterWord | undefined) {
  if (value.length > 100) return { problem: `\`${key}:\` is longer than 100 characters.` };
  return filter?.check?.(value, key) ?? { value };
}

/** `from:` after `to:`, or a `-min:` above its `-max:`. */
function rangeProblem(values: Record<string, string>): string | undefined {
  if (values.from !== undefined && values.to !== undefined && values.from > values.to)
    return `\`from:${values.from}\` is after \`to:${values.to}\`.`;
  for (const pair of ['employees', 'attendees']) {
    const min = values[`${pair}-min`];
    const max = values[`${pair}-max`];
    if (min !== undefined && max !== undefined && Number(min) > Number(max))
      return `\`${pair}-min:\` is above \`${pair}-max:\`.`;
  }
  return undefined;
}

/** Search words, then `key:value` filters, each value running to the next `key:`. */
export function readFilterWords(words: readonly string[], filters: FilterWords): ReadWords {
  const values: Record<string, string> = {};
  const firstKey = words.findIndex((word) => KEY_TOKEN.test(word));
  const leading = [(firstKey === -1 ? words : words.slice(0, firstKey)).join(' ')];
  let index = firstKey === -1 ? words.length : firstKey;
  const allowed = ['keywords', ...Object.keys(filters)];
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
    const read = checked(key, value, filters[key]);
    if ('problem' in read) return { ...result, problem: read.problem };
    values[key] = read.value;
  }
  const problem = rangeProblem(values);
  if (problem) return { leading: '', values, problem };
  return { leading: leading.join(' ').replace(/"/g, '').replace(/\s+/g, ' ').trim(), values };
}

export type WordsResult<C> = { ok: true; command: C } | { ok: false; problem: string };

/** `<event_id> [search words] [key:value…]`, for the event-scoped lists. */
export function readEventListWords(
  words: readonly string[],
  filters: FilterWords,
):
  | { ok: true; eventId: string; leading: string; values: Record<string, string> }
  | { ok: false; problem: string } {
  const [id, ...rest] = words;
  if (!id) return { ok: false, problem: 'The event id is missing.' };
  if (!isTypedEventId(id))
    return {
      ok: false,
      problem: `${shown(id)} is not an event id; ids look like \`26855\` (see \`/events search\`).`,
    };
  const read = readFilterWords(rest, filters);
  if (read.problem) return { ok: false, problem: read.problem };
  if (read.leading.length > 200)
    return { ok: false, problem: 'The search words are longer than 200 characters.' };
  return { ok: true, eventId: id, leading: read.leading, values: read.values };
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

/** The digest's filters; the events search adds its labels and visitor flag. */
export interface SearchFilters {
  keywords?: string;
  country?: string;
  /** A region of src/domain/regions.ts, in its own spelling (`North America`). */
  region?: string;
  city?: string;
  from?: string;
  to?: string;
}

/** The events list's own filters, on top of the digest's: comma-separated labels, and `yes` / `no`. */
export interface EventSearchFilters extends SearchFilters {
  type?: string;
  quality?: string;
  visitors?: 'yes' | 'no';
}

/** `when:` is read into `from:`/`to:`, so the filters keep dates only. */
export const DIGEST_KEYS = ['keywords', 'country', 'region', 'city', 'from', 'to', 'when'] as const;
/** The search's filters: the digest's, and the events list's labels and visitor flag. */
export const SEARCH_KEYS = [...DIGEST_KEYS, 'type', 'quality', 'visitors'] as const;
type SearchKey = (typeof SEARCH_KEYS)[number];
const SEARCH_KEY_ALIASES: Record<string, SearchKey> = {
  keyword: 'keywords',
  'event-type': 'type',
  location: 'country',
  period: 'when',
};
const EXAMPLES: Partial<Record<SearchKey, string>> = {
  from: '2027-01-31',
  to: '2027-01-31',
  keywords: 'fintech',
  region: 'Europe',
  when: 'Q2-2027',
};

/** One search filter's value checked: the value kept, or what is wrong with it. */
function searchValue(
  key: Exclude<SearchKey, 'keywords'>,
  value: string,
): { value: string } | { problem: string } {
  if ((key === 'from' || key === 'to') && !isRealDate(value)) {
    const after = value.includes(' ') ? ', and put search words before the filters' : '';
    return { problem: `${shown(`${key}:${value}`)} is not a date; write it as YYYY-MM-DD${after}.` };
  }
  if (value.length > 100) return { problem: `\`${key}:\` is longer than 100 characters.` };
  if (key === 'region') return regionWord(value, key);
  if (key === 'when') return whenWord(value, key);
  if (key !== 'visitors') return { value };
  const flag = /^(yes|y|true|1)$/i.test(value) ? 'yes' : /^(no|n|false|0)$/i.test(value) ? 'no' : '';
  return flag
    ? { value: flag }
    : { problem: `${shown(`visitors:${value}`)}: say \`visitors:yes\` or \`visitors:no\`.` };
}

/** The filters read, checked together: the place, the dates (`when:` becoming `from:`/`to:`), the words. */
function settled(
  values: Partial<Record<SearchKey, string>>,
  keywords: string,
): { filters: EventSearchFilters; problem?: string } {
  const { when, from: _from, to: _to, visitors, keywords: _keywords, ...rest } = values;
  const dates = datesOfWhen(values);
  const filters: EventSearchFilters = {
    ...rest,
    ...(dates.from ? { from: dates.from } : {}),
    ...(dates.to ? { to: dates.to } : {}),
    ...(visitors === 'yes' || visitors === 'no' ? { visitors } : {}),
  };
  const problem =
    dates.problem ??
    placeProblem(filters) ??
    (filters.from && filters.to && filters.from > filters.to && !when
      ? `\`from:${filters.from}\` is after \`to:${filters.to}\`.`
      : undefined) ??
    (keywords.length > 200 ? 'The search words are longer than 200 characters.' : undefined) ??
    searchWordsProblem(keywords);
  if (problem) return { filters, problem };
  return { filters: { ...filters, ...(keywords ? { keywords } : {}) } };
}

/** Search words (before the first `key:`) and `key:value` filters, each value running to the next key. */
export function readSearchFilters(
  words: readonly string[],
  keys: readonly SearchKey[] = DIGEST_KEYS,
): { filters: EventSearchFilters; problem?: string } {
  const values: Partial<Record<SearchKey, string>> = {};
  const firstKey = words.findIndex((word) => KEY_TOKEN.test(word));
  const leading = firstKey === -1 ? words : words.slice(0, firstKey);
  const keywords = [leading.join(' ')];
  let index = firstKey === -1 ? words.length : firstKey;
  while (index < words.length) {
    const [, rawKey = '', first = ''] = KEY_TOKEN.exec(words[index++] ?? '') ?? [];
    const valueWords = [first];
    while (index < words.length && !KEY_TOKEN.test(words[index] ?? '')) valueWords.push(words[index++] ?? '');
    const name = rawKey.toLowerCase();
    const key = keys.find((known) => known === (SEARCH_KEY_ALIASES[name] ?? name));
    if (!key) {
      const guess = closest(name, keys);
      return {
        filters: {},
        problem: `${shown(`${rawKey}:`)} is not a filter.${guess ? ` Did you mean \`${guess}:\`?` : ''} Filters: ${keys.map((known) => `\`${known}:\``).join(', ')}.`,
      };
    }
    if (/^".*"$/.test(first) && valueWords.length > 1) {
      const extra = valueWords.slice(1).join(' ');
      return {
        filters: {},
        problem: `${shown(extra)} comes after the quoted \`${key}:\` value; give search words as \`keywords:${extra.slice(0, 40)}\` or before the filters.`,
      };
    }
    const value = valueWords.join(' ').replace(/^"|"$/g, '').trim();
    if (!value)
      return {
        filters: {},
        problem: `\`${key}:\` needs a value, e.g. \`${key}:${EXAMPLES[key] ?? 'Germany'}\`.`,
      };
    if (key === 'keywords') {
      keywords.push(value);
      continue;
    }
    if (values[key]) return { filters: {}, problem: `\`${key}:\` is given twice.` };
    const read = searchValue(key, value);
    if ('problem' in read) return { filters: {}, problem: read.problem };
    values[key] = read.value;
  }
  return settled(values, keywords.join(' ').replace(/"/g, '').replace(/\s+/g, ' ').trim());
}
