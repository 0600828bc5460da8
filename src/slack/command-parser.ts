import { isValidTimeZone } from '../domain/local-time.ts';

/**
 * `/events <subcommand> ...` text → a typed command, or a usage problem that names what was wrong and
 * shows an example. The words and usages live here once; the help card renders this list.
 */
export interface CommandSpec {
  word: string;
  usage: string;
  example: string;
  summary: string;
  /** How credits are spent, in words; absent for free commands. */
  credits?: string;
}

export const COMMAND_SPECS: readonly CommandSpec[] = [
  { word: 'help', usage: 'help', example: 'help', summary: 'List the commands' },
  {
    word: 'search',
    usage: 'search <keywords> [country:X] [city:X] [from:YYYY-MM-DD] [to:YYYY-MM-DD]',
    example: 'search fintech country:Germany from:2027-01-01',
    summary: 'Find trade shows',
  },
  { word: 'show', usage: 'show <event_id>', example: 'show 26855', summary: 'Event details' },
  { word: 'fit', usage: 'fit <event_id>', example: 'fit 26855', summary: 'Fit score card for your profile' },
  {
    word: 'exhibitors',
    usage: 'exhibitors <event_id> [keyword]',
    example: 'exhibitors 26855 payments',
    summary: 'Exhibitors of an event',
  },
  {
    word: 'people',
    usage: 'people <event_id> [query]',
    example: 'people 26855 marketing',
    summary: 'Event personnel',
  },
  {
    word: 'recommend',
    usage: 'recommend <event_id>',
    example: 'recommend 26855',
    summary: 'Recommended exhibitors',
  },
  {
    word: 'similar',
    usage: 'similar <company_url or audience text>',
    example: 'similar https://acme.example',
    summary: 'Exhibitors like a company or audience',
  },
  {
    word: 'person-events',
    usage: 'person-events <personnel_id>',
    example: 'person-events 101',
    summary: 'Events a person is linked to',
  },
  { word: 'credits', usage: 'credits', example: 'credits', summary: 'Credit balance' },
  { word: 'files', usage: 'files', example: 'files', summary: 'Your generated files' },
  { word: 'spend', usage: 'spend', example: 'spend', summary: "Today's credit ledger for this workspace" },
  {
    word: 'who',
    usage: 'who <full name>',
    example: 'who Jane Doe',
    summary: 'Events of people with this exact name',
    credits: '50 if anything matches',
  },
  {
    word: 'company',
    usage: 'company <company name>',
    example: 'company Acme',
    summary: 'Events where a company exhibits',
    credits: '50 if anything matches',
  },
  {
    word: 'exhibitor',
    usage: 'exhibitor <company name>',
    example: 'exhibitor Acme',
    summary: 'Exhibitor records by company name',
    credits: '50 if anything matches',
  },
  {
    word: 'unlock',
    usage: 'unlock <event_id>',
    example: 'unlock 26855',
    summary: 'Unlock all exhibitors and personnel of an event',
    credits: 'per precheck, 2,000 typical',
  },
  {
    word: 'visitors',
    usage: 'visitors <event_id>',
    example: 'visitors 26855',
    summary: 'Unlock registered visitors (after the event unlock)',
    credits: '3,000',
  },
  {
    word: 'full-access',
    usage: 'full-access <event_id>',
    example: 'full-access 26855',
    summary: 'Unlock event and visitors in one step',
    credits: '0–5,000, from precheck',
  },
  {
    word: 'emails',
    usage: 'emails <personnel_id…>',
    example: 'emails 101 102 103',
    summary: 'Unlock contact emails',
    credits: '15 per contact',
  },
  {
    word: 'phones',
    usage: 'phones <personnel_id…>',
    example: 'phones 101 102',
    summary: 'Unlock phone numbers',
    credits: '150 per contact',
  },
  {
    word: 'digest',
    usage: 'digest on [HH:MM] [time zone] [search words and filters] | off | status | now',
    example: 'digest on 08:30 Europe/Berlin fintech country:Germany',
    summary: 'A daily digest in this channel',
  },
];

export interface SearchFilters {
  keywords?: string;
  country?: string;
  city?: string;
  from?: string;
  to?: string;
}

export type Command =
  | { name: 'help' }
  | { name: 'search'; filters: SearchFilters }
  | { name: 'show' | 'fit' | 'recommend' | 'unlock' | 'visitors' | 'full-access'; eventId: string }
  | { name: 'exhibitors'; eventId: string; keyword?: string }
  | { name: 'people'; eventId: string; query?: string }
  | { name: 'similar'; companyUrl?: string; targetAudience?: string }
  | { name: 'person-events'; personnelId: string }
  | { name: 'credits' | 'files' | 'spend' }
  | { name: 'who'; fullName: string }
  | { name: 'company' | 'exhibitor'; companyName: string }
  | { name: 'emails' | 'phones'; personnelIds: string[] }
  | { name: 'digest-on'; time?: string; timeZone?: string; filters: SearchFilters }
  | { name: 'digest-off' | 'digest-status' | 'digest-now' };

export type ParseResult =
  { ok: true; command: Command } | { ok: false; problem: string; spec?: CommandSpec; showHelp?: boolean };

const EVENT_ID = /^[A-Za-z0-9_-]{1,100}$/;
const PERSONNEL_ID = /^\d{1,20}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]?\d|2[0-3]):([0-5]\d)$/;
const MAX_CONTACTS = 100;

const specFor = (word: string): CommandSpec | undefined => COMMAND_SPECS.find((spec) => spec.word === word);

function isRealDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/** Splits filters (`country:X`, quoted values allowed) from free words. */
function parseFilters(words: string[]): { filters: SearchFilters; problem?: string } {
  const filters: SearchFilters = {};
  const keywords: string[] = [];
  for (const word of words) {
    const match = word.match(/^(country|city|from|to):(.*)$/i);
    if (!match) {
      keywords.push(word);
      continue;
    }
    const key = (match[1] ?? '').toLowerCase() as keyof SearchFilters;
    const value = (match[2] ?? '').replace(/^"|"$/g, '').trim();
    if (!value)
      return {
        filters,
        problem: `\`${key}:\` needs a value, e.g. \`${key}:${key === 'from' || key === 'to' ? '2027-01-31' : 'Germany'}\`.`,
      };
    if ((key === 'from' || key === 'to') && !isRealDate(value)) {
      return { filters, problem: `\`${key}:${value}\` is not a date; write it as YYYY-MM-DD.` };
    }
    if (value.length > 100) return { filters, problem: `\`${key}:\` is longer than 100 characters.` };
    filters[key] = value;
  }
  if (filters.from && filters.to && filters.from > filters.to) {
    return { filters, problem: `\`from:${filters.from}\` is after \`to:${filters.to}\`.` };
  }
  const text = keywords.join(' ').trim();
  if (text.length > 200) return { filters, problem: 'The search words are longer than 200 characters.' };
  if (text) filters.keywords = text;
  return { filters };
}

/** Words, keeping "quoted phrases" and `key:"quoted value"` together. */
function tokenize(text: string): string[] {
  return [...text.matchAll(/(?:\w+:)?"[^"]*"|\S+/g)].map((match) => match[0]);
}

/** Slack sends links as `<url|label>` and escapes `&`, `<`, `>`; undo that before parsing. */
function fromSlackText(text: string): string {
  return text
    .replace(/<((?:https?|mailto):[^|>]+)(?:\|[^>]*)?>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

export function parseCommand(input: string): ParseResult {
  const text = fromSlackText(input).replace(/\s+/g, ' ').trim();
  if (!text) return { ok: true, command: { name: 'help' } };
  const [first = '', ...rest] = tokenize(text);
  const word = first.toLowerCase();
  const spec = specFor(word);
  if (!spec)
    return { ok: false, problem: `\`${first.slice(0, 40)}\` is not an /events command.`, showHelp: true };
  const fail = (problem: string): ParseResult => ({ ok: false, problem, spec });
  const argText = rest.join(' ').trim();

  const oneEventId = (): string | ParseResult => {
    const id = rest[0];
    if (!id) return fail('The event id is missing.');
    if (!EVENT_ID.test(id))
      return fail(`\`${id.slice(0, 40)}\` is not an event id (letters, digits, - and _, up to 100).`);
    return id;
  };

  switch (word) {
    case 'help':
    case 'credits':
    case 'files':
    case 'spend':
      return { ok: true, command: { name: word } };
    case 'search': {
      const { filters, problem } = parseFilters(rest);
      if (problem) return fail(problem);
      if (Object.keys(filters).length === 0) return fail('Give some search words or a filter.');
      return { ok: true, command: { name: 'search', filters } };
    }
    case 'show':
    case 'fit':
    case 'recommend':
    case 'unlock':
    case 'visitors':
    case 'full-access': {
      if (rest.length > 1) return fail('Give exactly one event id.');
      const id = oneEventId();
      return typeof id === 'string' ? { ok: true, command: { name: word, eventId: id } } : id;
    }
    case 'exhibitors':
    case 'people': {
      const id = oneEventId();
      if (typeof id !== 'string') return id;
      const extra = rest.slice(1).join(' ').trim().slice(0, 200);
      if (word === 'exhibitors')
        return { ok: true, command: { name: word, eventId: id, ...(extra ? { keyword: extra } : {}) } };
      return { ok: true, command: { name: word, eventId: id, ...(extra ? { query: extra } : {}) } };
    }
    case 'similar': {
      if (!argText) return fail('Give a company website or a description of your audience.');
      if (argText.length > 500) return fail('The description is longer than 500 characters.');
      const url = asCompanyUrl(argText);
      return {
        ok: true,
        command: { name: 'similar', ...(url ? { companyUrl: url } : { targetAudience: argText }) },
      };
    }
    case 'person-events': {
      const id = rest[0];
      if (!id) return fail('The personnel id is missing.');
      if (!PERSONNEL_ID.test(id) || rest.length > 1)
        return fail(`\`${id.slice(0, 40)}\` is not a personnel id (digits only).`);
      return { ok: true, command: { name: word, personnelId: id } };
    }
    case 'who': {
      const name = argText.replace(/"/g, '').trim();
      if (!name) return fail('The full name is missing.');
      if (name.length > 200) return fail('The name is longer than 200 characters.');
      return { ok: true, command: { name: 'who', fullName: name } };
    }
    case 'company':
    case 'exhibitor': {
      const name = argText.replace(/"/g, '').trim();
      if (!name) return fail('The company name is missing.');
      if (name.length > 200) return fail('The company name is longer than 200 characters.');
      return { ok: true, command: { name: word, companyName: name } };
    }
    case 'emails':
    case 'phones': {
      const ids = rest.flatMap((part) => part.split(',')).filter(Boolean);
      if (ids.length === 0) return fail('Give one or more personnel ids.');
      const bad = ids.find((id) => !PERSONNEL_ID.test(id));
      if (bad) return fail(`\`${bad.slice(0, 40)}\` is not a personnel id (digits only).`);
      const unique = [...new Set(ids)];
      if (unique.length > MAX_CONTACTS) return fail(`At most ${MAX_CONTACTS} people at a time.`);
      return { ok: true, command: { name: word, personnelIds: unique } };
    }
    case 'digest':
      return parseDigest(rest, fail);
    default:
      return { ok: false, problem: `\`${first}\` is not an /events command.`, showHelp: true };
  }
}

function parseDigest(words: string[], fail: (problem: string) => ParseResult): ParseResult {
  const [action = '', ...rest] = words;
  switch (action.toLowerCase()) {
    case 'off':
      return { ok: true, command: { name: 'digest-off' } };
    case 'status':
      return { ok: true, command: { name: 'digest-status' } };
    case 'now':
      return { ok: true, command: { name: 'digest-now' } };
    case 'on': {
      let time: string | undefined;
      let timeZone: string | undefined;
      const remaining = [...rest];
      if (remaining[0] && TIME.test(remaining[0])) {
        const [hours = '0', minutes = '00'] = (remaining.shift() ?? '').split(':');
        time = `${hours.padStart(2, '0')}:${minutes}`;
      } else if (remaining[0] && /^\d{1,2}:\d{2}$/.test(remaining[0])) {
        return fail(`\`${remaining[0]}\` is not a time; use HH:MM between 00:00 and 23:59.`);
      }
      if (remaining[0]?.includes('/') || remaining[0]?.toUpperCase() === 'UTC') {
        const zone = remaining.shift() ?? '';
        if (!isValidTimeZone(zone))
          return fail(`\`${zone.slice(0, 60)}\` is not a time zone; use a name like Europe/Berlin.`);
        timeZone = zone;
      }
      const { filters, problem } = parseFilters(remaining);
      if (problem) return fail(problem);
      return {
        ok: true,
        command: { name: 'digest-on', ...(time ? { time } : {}), ...(timeZone ? { timeZone } : {}), filters },
      };
    }
    default:
      return fail(
        action ? `\`${action.slice(0, 40)}\` is not a digest action.` : 'Say on, off, status or now.',
      );
  }
}

/** A lone http(s) URL or bare domain is a company website; anything else is audience text. */
function asCompanyUrl(text: string): string | undefined {
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
