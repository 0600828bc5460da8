import { closest, looksLikeTime, readTimeOfDay, readTimeZone } from '../domain/schedule-words.ts';
import { isTypedEventId, PERSONNEL_ID_PATTERN } from '../domain/ids.ts';
import { asCompanyUrl, isRealDate, KEY_TOKEN, shown } from './features/lists/filter-words.ts';
import type { ListCommand } from './features/lists/definition.ts';
import { type ExhibitorsCommand, EXHIBITORS } from './features/lists/exhibitors.ts';
import { type PeopleCommand, PEOPLE } from './features/lists/people.ts';
import { type RecommendCommand, RECOMMEND } from './features/lists/recommend.ts';
import { type ShowsForCommand, SHOWS_FOR } from './features/lists/shows-for.ts';
import { listedCredits } from './features/charges/money-words.ts';

/**
 * `/events <subcommand> ...` text → a typed command, or a usage problem that names what was wrong and
 * shows an example. Each word lives here once, in `COMMANDS`, with its usage and its own parser; the
 * help card renders that list.
 *
 * How words are read:
 * - Slack formatting is dropped (`*bold*`, `_it_`, `~strike~`, backticks; a link becomes its label, or
 *   its address without one). Mentions, channels and @here/@channel are refused, never searched.
 * - Filters are `key:value`. Search words come before the first filter (or as `keywords:`); a value runs
 *   to the next `key:`, so `country:United States` needs no quotes (`country:"United States"` works too).
 */
export interface CommandSpec {
  word: CommandWord;
  usage: string;
  example: string;
  summary: string;
  /** How credits are spent, in words; absent for free commands. */
  credits?: string;
  /** How the arguments are read, for `/events help <command>`. */
  details?: string;
}

export interface SearchFilters {
  keywords?: string;
  country?: string;
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

export type Command =
  | { name: 'help'; /** a command word: explain just that one */ topic?: string }
  | { name: 'search'; filters: EventSearchFilters }
  | { name: 'show' | 'fit' | 'unlock' | 'visitors' | 'full-access'; eventId: string }
  /** The filtered lists: their words are read by their definitions (`src/slack/features/lists/`). */
  | ExhibitorsCommand
  | PeopleCommand
  | RecommendCommand
  /** Recommended events for a company or an audience (issue 14): free, paged. */
  | ShowsForCommand
  | { name: 'similar'; companyUrl?: string; targetAudience?: string }
  | { name: 'person-events'; personnelId: string }
  | { name: 'credits' | 'spend' }
  /** Paid searches; `page:N` asks for a later page, which is a search (and a charge) of its own. */
  | { name: 'who'; fullName: string; page?: number }
  | { name: 'company' | 'exhibitor'; companyName: string; page?: number }
  | {
      name: 'emails' | 'phones';
      personnelIds: string[];
      /** `event:<id>`: the people are from this event's list (sent as the unlock's `event_id`). */
      eventId?: string;
    }
  /** Account research (issue 14): by exhibitor id (free) or by company name (a paid name search first). */
  | { name: 'account'; exhibitorId: string }
  | { name: 'account'; companyName: string }
  | { name: 'contacts'; companyName: string; role?: string; personName?: string }
  | { name: 'linkedin'; linkedinUrl: string }
  | { name: 'brief'; eventId: string }
  | {
      name: 'digest-on';
      time?: string;
      timeZone?: string;
      /** How a zone word was read, to repeat in the answer (`EST read as America/New_York`). */
      note?: string;
      filters: SearchFilters;
    }
  | { name: 'digest-off' | 'digest-status' | 'digest-now' };

/** The first word of a command: its name, except that the four digest commands share `digest`. */
export type CommandWord = Exclude<Command['name'], `digest-${string}`> | 'digest';

export type ParseResult =
  | { ok: true; command: Command }
  | {
      ok: false;
      problem: string;
      spec?: CommandSpec;
      showHelp?: boolean;
      /** The command text the user probably meant (`fit 26855` for `fitt 26855`), without `/events`. */
      suggestion?: string;
    };

type Fail = (problem: string) => ParseResult;

/** What a command's parser is given: the words after the command word, and how to refuse them. */
interface CommandArgs<W extends CommandWord> {
  word: W;
  words: string[];
  /** The words as one string. */
  text: string;
  /** A refusal that shows this command's usage. */
  fail: Fail;
}

/** A command's help text and its parser, which is handed only its own word. */
interface CommandDefinition<W extends CommandWord> extends Omit<CommandSpec, 'word'> {
  parse: (args: CommandArgs<W>) => ParseResult;
}

const FILTER_WORDS =
  'Search words first, then filters `keywords:`, `country:`, `city:`, `from:YYYY-MM-DD`, `to:YYYY-MM-DD`, ' +
  '`type:` and `quality:` (labels, comma-separated: `type:Trade Show,Conference`), `visitors:yes` or `no`; ' +
  'a value runs to the next filter, so `country:United States` needs no quotes.';

const UNLOCK_EVENT_WORD =
  'Personnel ids, separated by spaces or commas; `event:26855` names the event they are from (the ' +
  "people list's buttons add it), and the service then checks they belong to it.";
const PAID_PAGE_WORD =
  'Every page is a new search, charged again when it is non-empty: the results come 20 a page in the ' +
  "card's thread, and Previous / Next (or `page:2`) ask for a confirmation first.";

/** A list's command, as its definition words it and reads its words. */
function listCommand<W extends CommandWord>(words: ListCommand<Command>): CommandDefinition<W> {
  const { parse, ...help } = words;
  return {
    ...help,
    parse: ({ words, fail }) => {
      const read = parse(words);
      return read.ok ? read : fail(read.problem);
    },
  };
}

/** Every command word, in the order help lists them; the compiler wants exactly one entry per word. */
const COMMANDS: { [W in CommandWord]: CommandDefinition<W> } = {
  help: {
    usage: 'help [command]',
    example: 'help',
    summary: 'List the commands, or explain one',
    parse: parseHelp,
  },
  search: {
    usage:
      'search <keywords> [country:X] [city:X] [from:YYYY-MM-DD] [to:YYYY-MM-DD] [type:X] [quality:X] [visitors:yes|no]',
    example: 'search fintech country:Brazil',
    summary: 'Find trade shows',
    details: FILTER_WORDS,
    parse: parseSearch,
  },
  show: {
    usage: 'show <event_id>',
    example: 'show 26855',
    summary: 'Event details',
    parse: parseEventCommand,
  },
  fit: {
    usage: 'fit <event_id>',
    example: 'fit 26855',
    summary: 'Fit score card for your profile',
    parse: parseEventCommand,
  },
  exhibitors: listCommand(EXHIBITORS.command),
  people: listCommand(PEOPLE.command),
  recommend: listCommand(RECOMMEND.command),
  'shows-for': listCommand(SHOWS_FOR.command),
  similar: {
    usage: 'similar <company_url or audience text>',
    example: 'similar https://acme.example',
    summary: 'Exhibitors like a company or audience',
    parse: parseSimilar,
  },
  'person-events': {
    usage: 'person-events <personnel_id>',
    example: 'person-events 100001',
    summary: 'Events a person is linked to',
    parse: parsePersonEvents,
  },
  account: {
    usage: 'account <exhibitor id | company name>',
    example: 'account 4100',
    summary: `An exhibitor profile and the events it exhibits at, upcoming first (free by id; by name ${listedCredits('exhibitor-search')} if anything matches)`,
    details:
      'An exhibitor id (digits) is free. A company name is looked up first with the company-name search, ' +
      `which costs ${listedCredits('exhibitor-search')} credits if anything matches (a confirmation card asks first); its results give the ids.`,
    parse: parseAccount,
  },
  contacts: {
    usage: 'contacts <company or name> [company:X] [title:X] [name:X]',
    example: 'contacts Acme Analytics title:VP',
    summary: 'People at a company, with Emails / Phones unlock buttons',
    details:
      'The service searches contacts within one company: the words are the company, or, with `company:`, ' +
      "the person's name. Filters: `company:`, `title:` (role or title) and `name:`. The service has no " +
      'level or department filter for contacts; for those use `/events people <event_id>` and Filter….',
    parse: parseContacts,
  },
  linkedin: {
    usage: 'linkedin <LinkedIn profile url>',
    example: 'linkedin https://www.linkedin.com/in/jane-smith-100001',
    summary: "A person's events, from their LinkedIn profile",
    parse: parseLinkedin,
  },
  brief: {
    usage: 'brief <event_id>',
    example: 'brief 26855',
    summary: 'A short summary of an event: dates, place, coverage counts, top categories',
    parse: parseBrief,
  },
  credits: { usage: 'credits', example: 'credits', summary: 'Credit balance', parse: parseBareWord },
  spend: {
    usage: 'spend',
    example: 'spend',
    summary: "Today's credit ledger for this workspace",
    parse: parseBareWord,
  },
  who: {
    usage: 'who <full name>',
    example: 'who Jane Smith',
    summary: 'Events of people with this exact name',
    credits: `${listedCredits('people-by-name')} if anything matches, per page`,
    details: PAID_PAGE_WORD,
    parse: parseWho,
  },
  company: {
    usage: 'company <company name>',
    example: 'company Acme Analytics',
    summary: 'Events where a company exhibits',
    credits: `${listedCredits('exhibitor-events')} if anything matches, per page`,
    details: PAID_PAGE_WORD,
    parse: parseCompanyName,
  },
  exhibitor: {
    usage: 'exhibitor <company name>',
    example: 'exhibitor Acme Analytics',
    summary: 'Exhibitor records by company name',
    credits: `${listedCredits('exhibitor-search')} if anything matches, per page`,
    details: PAID_PAGE_WORD,
    parse: parseCompanyName,
  },
  unlock: {
    usage: 'unlock <event_id>',
    example: 'unlock 26855',
    summary: 'Unlock all exhibitors and personnel of an event',
    credits: `per precheck, ${listedCredits('event-unlock')} typical`,
    parse: parseEventCommand,
  },
  visitors: {
    usage: 'visitors <event_id>',
    example: 'visitors 26855',
    summary: 'Unlock registered visitors (after the event unlock)',
    credits: listedCredits('visitors-unlock'),
    parse: parseEventCommand,
  },
  'full-access': {
    usage: 'full-access <event_id>',
    example: 'full-access 26855',
    summary: 'Unlock event and visitors in one step',
    credits: `0–${listedCredits('full-access-unlock')}, from precheck`,
    parse: parseEventCommand,
  },
  emails: {
    usage: 'emails <personnel_id…>',
    example: 'emails 100001 100002 100003',
    summary: 'Unlock contact emails',
    credits: `${listedCredits('email-unlock')} per contact`,
    details: UNLOCK_EVENT_WORD,
    parse: parsePersonnelIds,
  },
  phones: {
    usage: 'phones <personnel_id…>',
    example: 'phones 100001 100002',
    summary: 'Unlock phone numbers',
    credits: `${listedCredits('phone-unlock')} per contact`,
    details: UNLOCK_EVENT_WORD,
    parse: parsePersonnelIds,
  },
  digest: {
    usage: 'digest on [time] [time zone] [key:value filters] | off | status | now',
    example: 'digest on 08:30 Europe/Berlin keywords:fintech',
    summary: 'A daily digest in this channel',
    details:
      'Time: `08:30`, `8am` or `8:30pm` (default 09:00). Zone: `Europe/Berlin`, `EST` or `UTC+2` ' +
      '(default: your Slack time zone). Then filters only, as key:value: `keywords:fintech`, ' +
      '`country:Germany`, `city:`, `from:`, `to:`.',
    parse: parseDigest,
  },
};

/** The help texts of `COMMANDS`, in the same order. */
export const COMMAND_SPECS: readonly CommandSpec[] = Object.entries(COMMANDS).map(
  // `Object.entries` types the keys as plain strings; they are the keys of `COMMANDS`.
  ([word, { parse: _parse, ...help }]) => ({ word: word as CommandWord, ...help }),
);

// The service takes any 1–100 characters; its ids are numbers, so a word without a digit is a slip.
const isEventId = isTypedEventId;
const FILTER_KEYS = ['keywords', 'country', 'city', 'from', 'to'] as const;
/** The search's filters: the digest's, and the events list's labels and visitor flag. */
const SEARCH_KEYS = [...FILTER_KEYS, 'type', 'quality', 'visitors'] as const;
type FilterKey = (typeof SEARCH_KEYS)[number];
const KEY_ALIASES: Record<string, FilterKey> = { keyword: 'keywords', 'event-type': 'type' };
const DIGEST_ACTIONS = ['on', 'off', 'status', 'now'];
const MAX_CONTACTS = 100;

/** The spec of a command word, for `/events help <command>`. */
export const commandSpec = (word: string): CommandSpec | undefined =>
  COMMAND_SPECS.find((spec) => spec.word === word.toLowerCase());

/** Search words (before the first `key:`) and `key:value` filters, each value running to the next key. */
function parseFilters(
  words: string[],
  keys: readonly FilterKey[] = FILTER_KEYS,
): { filters: EventSearchFilters; problem?: string } {
  const filters: EventSearchFilters = {};
  const firstKey = words.findIndex((word) => KEY_TOKEN.test(word));
  const leading = firstKey === -1 ? words : words.slice(0, firstKey);
  const keywords = [leading.join(' ')];
  let index = firstKey === -1 ? words.length : firstKey;
  while (index < words.length) {
    const [, rawKey = '', first = ''] = KEY_TOKEN.exec(words[index++] ?? '') ?? [];
    const valueWords = [first];
    while (index < words.length && !KEY_TOKEN.test(words[index] ?? '')) valueWords.push(words[index++] ?? '');
    const name = rawKey.toLowerCase();
    const key = keys.find((known) => known === (KEY_ALIASES[name] ?? name));
    if (!key) {
      const guess = closest(name, keys);
      return {
        filters,
        problem: `${shown(`${rawKey}:`)} is not a filter.${guess ? ` Did you mean \`${guess}:\`?` : ''} Filters: ${keys.map((known) => `\`${known}:\``).join(', ')}.`,
      };
    }
    if (/^".*"$/.test(first) && valueWords.length > 1) {
      const extra = valueWords.slice(1).join(' ');
      return {
        filters,
        problem: `${shown(extra)} comes after the quoted \`${key}:\` value; give search words as \`keywords:${extra.slice(0, 40)}\` or before the filters.`,
      };
    }
    const value = valueWords.join(' ').replace(/^"|"$/g, '').trim();
    const example =
      key === 'from' || key === 'to' ? '2027-01-31' : key === 'keywords' ? 'fintech' : 'Germany';
    if (!value) return { filters, problem: `\`${key}:\` needs a value, e.g. \`${key}:${example}\`.` };
    if (key === 'keywords') {
      keywords.push(value);
      continue;
    }
    if (filters[key]) return { filters, problem: `\`${key}:\` is given twice.` };
    if ((key === 'from' || key === 'to') && !isRealDate(value)) {
      const after = value.includes(' ') ? ', and put search words before the filters' : '';
      return {
        filters,
        problem: `${shown(`${key}:${value}`)} is not a date; write it as YYYY-MM-DD${after}.`,
      };
    }
    if (value.length > 100) return { filters, problem: `\`${key}:\` is longer than 100 characters.` };
    if (key === 'visitors') {
      const flag = /^(yes|y|true|1)$/i.test(value) ? 'yes' : /^(no|n|false|0)$/i.test(value) ? 'no' : '';
      if (!flag)
        return {
          filters,
          problem: `${shown(`visitors:${value}`)}: say \`visitors:yes\` or \`visitors:no\`.`,
        };
      filters.visitors = flag;
      continue;
    }
    filters[key] = value;
  }
  if (filters.from && filters.to && filters.from > filters.to) {
    return { filters, problem: `\`from:${filters.from}\` is after \`to:${filters.to}\`.` };
  }
  const text = keywords.join(' ').replace(/"/g, '').replace(/\s+/g, ' ').trim();
  if (text.length > 200) return { filters, problem: 'The search words are longer than 200 characters.' };
  if (text) filters.keywords = text;
  return { filters };
}

/** Words, keeping "quoted phrases" and `key:"quoted value"` together. */
function tokenize(text: string): string[] {
  return [...text.matchAll(/(?:[\w-]+:)?"[^"]*"|\S+/g)].map((match) => match[0]);
}

/**
 * What the user typed, without Slack's markup: links become their label (or address), `&lt;` and co.
 * are undone, and `*bold*`, `_italic_`, `~strike~` and `code` markers at word edges are dropped.
 * Mentions (`<@U1>`, `<!here>`, `<#C1|x>`) stay, so they can be refused.
 */
function plainText(text: string): string {
  return text
    .replace(/<((?:https?|mailto|tel):[^|>]*)(?:\|([^>]*))?>/gi, (_link, address: string, label?: string) =>
      label?.trim() ? label : address.replace(/^(?:mailto|tel):/i, ''),
    )
    .replace(/[\u201C\u201D\u201E]/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/(^|[\s:"])[*_~`]+/g, '$1')
    .replace(/[*_~`]+(?=$|[\s"])/g, '');
}

export function parseCommand(input: string): ParseResult {
  const text = plainText(input).replace(/\s+/g, ' ').trim();
  if (!text) return { ok: true, command: { name: 'help' } };
  const [first = '', ...words] = tokenize(text);
  const spec = commandSpec(first);
  if (!spec) return notACommand(first, words);
  const fail = (problem: string): ParseResult => ({ ok: false, problem, spec });
  const argText = words.join(' ').trim();
  // A mention as a name or search word would search for Slack's markup (and could offer a paid search).
  if (/<[@#!]/.test(argText)) {
    return fail(
      'Mentions, channels and @here or @channel are not names or search words: type the words themselves.',
    );
  }
  return parseArguments({ word: spec.word, words, text: argText, fail });
}

/** Hands the arguments to their word's parser; generic, so the compiler checks the two belong together. */
function parseArguments<W extends CommandWord>(args: CommandArgs<W>): ParseResult {
  const definition: CommandDefinition<W> = COMMANDS[args.word];
  return definition.parse(args);
}

function parseHelp({ words }: CommandArgs<'help'>): ParseResult {
  const [word] = words;
  if (!word) return { ok: true, command: { name: 'help' } };
  const topic = commandSpec(word);
  if (topic) return { ok: true, command: { name: 'help', topic: topic.word } };
  return notACommand(word, [], 'help ');
}

/** A command that takes nothing after it. */
function parseBareWord({ word, words, text, fail }: CommandArgs<'credits' | 'spend'>): ParseResult {
  if (words[0]) return fail(`\`${word}\` takes nothing after it; ${shown(text)} is extra.`);
  return { ok: true, command: { name: word } };
}

function parseSearch({ words, fail }: CommandArgs<'search'>): ParseResult {
  const { filters, problem } = parseFilters(words, SEARCH_KEYS);
  if (problem) return fail(problem);
  if (Object.keys(filters).length === 0) return fail('Give some search words or a filter.');
  return { ok: true, command: { name: 'search', filters } };
}

/** The event id an event command starts with, or the refusal that says what is wrong with it. */
function eventIdOf(words: string[], fail: Fail): string | ParseResult {
  const id = words[0];
  if (!id) return fail('The event id is missing.');
  if (!isEventId(id))
    return fail(`${shown(id)} is not an event id; ids look like \`26855\` (see \`/events search\`).`);
  return id;
}

/** A command that takes one event id and nothing else. */
function parseEventCommand({
  word,
  words,
  fail,
}: CommandArgs<'show' | 'fit' | 'unlock' | 'visitors' | 'full-access'>): ParseResult {
  const id = eventIdOf(words, fail);
  if (typeof id !== 'string') return id;
  if (words.length > 1)
    return fail(`\`${word}\` takes one event id; ${shown(words.slice(1).join(' '))} is extra.`);
  return { ok: true, command: { name: word, eventId: id } };
}

function parseSimilar({ text, fail }: CommandArgs<'similar'>): ParseResult {
  if (!text) return fail('Give a company website or a description of your audience.');
  if (text.length > 500) return fail('The description is longer than 500 characters.');
  const url = asCompanyUrl(text);
  return {
    ok: true,
    command: { name: 'similar', ...(url ? { companyUrl: url } : { targetAudience: text }) },
  };
}

function parsePersonEvents({ word, words, fail }: CommandArgs<'person-events'>): ParseResult {
  const id = words[0];
  if (!id) return fail('The personnel id is missing.');
  if (!PERSONNEL_ID_PATTERN.test(id))
    return fail(`${shown(id)} is not a personnel id; ids are digits, like \`100001\`.`);
  if (words.length > 1)
    return fail(`\`${word}\` takes one personnel id; ${shown(words.slice(1).join(' '))} is extra.`);
  return { ok: true, command: { name: word, personnelId: id } };
}

/** A paid search's trailing `page:N` (its Previous / Next stand for these words), and the rest. */
function searchPageOf(text: string): { rest: string; page?: number; problem?: string } {
  const match = /(?:^|\s)page:(\S*)$/i.exec(text);
  if (!match) return { rest: text };
  const page = /^\d{1,4}$/.test(match[1] ?? '') ? Number(match[1]) : 0;
  if (page < 1) return { rest: text, problem: `${shown(match[0].trim())}: a page is a number from 1.` };
  return { rest: text.slice(0, match.index).trim(), ...(page > 1 ? { page } : {}) };
}

function parseWho({ text: words, fail }: CommandArgs<'who'>): ParseResult {
  const { rest: text, page, problem } = searchPageOf(words);
  if (problem) return fail(problem);
  const name = text.replace(/"/g, '').trim();
  if (!name) return fail('The full name is missing.');
  // An id here would be a paid search for a name nobody has.
  if (/^\d+$/.test(name))
    return fail(
      `${shown(name)} is an id, not a name; for a person's events use \`/events person-events ${name}\`.`,
    );
  if (name.length > 200) return fail('The name is longer than 200 characters.');
  return { ok: true, command: { name: 'who', fullName: name, ...(page ? { page } : {}) } };
}

function parseCompanyName({ word, text: words, fail }: CommandArgs<'company' | 'exhibitor'>): ParseResult {
  const { rest: text, page, problem } = searchPageOf(words);
  if (problem) return fail(problem);
  const name = text.replace(/"/g, '').trim();
  if (!name) return fail('The company name is missing.');
  if (/^\d+$/.test(name))
    return fail(
      `${shown(name)} is an id, not a company name; for an event's exhibitors use \`/events exhibitors ${name}\`.`,
    );
  if (name.length > 200) return fail('The company name is longer than 200 characters.');
  return { ok: true, command: { name: word, companyName: name, ...(page ? { page } : {}) } };
}

/** Personnel ids, separated by spaces or commas; each counted once. */
function parsePersonnelIds({ word, words: all, fail }: CommandArgs<'emails' | 'phones'>): ParseResult {
  // `event:26855`: the people are from this event's list (the unlock sends it as `event_id`).
  const eventWords = all.filter((part) => /^event:/i.test(part));
  const eventId = eventWords[0]?.slice('event:'.length);
  if (eventWords.length > 1) return fail('`event:` is given twice.');
  if (eventId !== undefined && !isEventId(eventId)) return fail(`${shown(eventId)} is not an event id.`);
  const words = all.filter((part) => !/^event:/i.test(part));
  const ids = words.flatMap((part) => part.split(',')).filter(Boolean);
  if (ids.length === 0) return fail('Give one or more personnel ids.');
  const bad = ids.find((id) => !PERSONNEL_ID_PATTERN.test(id));
  if (bad) return fail(`${shown(bad)} is not a personnel id; ids are digits, like \`100001\`.`);
  const unique = [...new Set(ids)];
  if (unique.length > MAX_CONTACTS) return fail(`At most ${MAX_CONTACTS} people at a time.`);
  return { ok: true, command: { name: word, personnelIds: unique, ...(eventId ? { eventId } : {}) } };
}

/** A word that is no command, with the command it is nearest to (`fitt` → `fit`; a bare id → `show`). */
function notACommand(word: string, rest: string[], prefix = ''): ParseResult {
  const bareId = !prefix && /^\d+$/.test(word);
  const guess = bareId
    ? 'show'
    : closest(
        word,
        COMMAND_SPECS.map((spec) => spec.word),
      );
  const suggestion = guess && (bareId ? [guess, word] : [guess, ...rest]).join(' ');
  return {
    ok: false,
    problem: `${shown(word)} is not an /events command.`,
    showHelp: true,
    ...(suggestion ? { suggestion: `${prefix}${suggestion}` } : {}),
  };
}

function parseDigest({ words, fail }: CommandArgs<'digest'>): ParseResult {
  const [action = '', ...rest] = words;
  switch (action.toLowerCase()) {
    case 'off':
    case 'status':
    case 'now':
      if (rest[0])
        return fail(
          `\`digest ${action.toLowerCase()}\` takes nothing after it; ${shown(rest.join(' '))} is extra.`,
        );
      return { ok: true, command: { name: `digest-${action.toLowerCase() as 'off' | 'status' | 'now'}` } };
    case 'on':
      return parseDigestOn(rest, fail);
    default: {
      if (!action) return fail('Say on, off, status or now.');
      const guess = closest(action, DIGEST_ACTIONS);
      return fail(
        `${shown(action)} is not a digest action.${guess ? ` Did you mean \`digest ${guess}\`?` : ''}`,
      );
    }
  }
}

/** `[time] [zone] [key:value…]`: a bare word that is neither time nor zone is an error, never a keyword. */
function parseDigestOn(words: string[], fail: Fail): ParseResult {
  let time: string | undefined;
  let zone: { timeZone: string; note?: string } | undefined;
  let index = 0;
  for (; index < words.length && !KEY_TOKEN.test(words[index] ?? ''); index++) {
    let word = words[index] ?? '';
    // `8 am` is `8am`.
    if (looksLikeTime(word) && /^[ap]\.?m\.?$/i.test(words[index + 1] ?? '')) word += words[++index];
    if (looksLikeTime(word)) {
      if (time) return fail(`Give one time of day; ${shown(word)} is a second one.`);
      const read = readTimeOfDay(word);
      if (!read.ok) return fail(read.problem);
      time = read.time;
      continue;
    }
    const asFilter = `Filters are key:value, e.g. \`keywords:${word.slice(0, 40)}\` or \`country:Germany\`.`;
    if (zone) return fail(`${shown(word)} after the schedule is not a filter. ${asFilter}`);
    const read = readTimeZone(word);
    if (!read.ok) {
      // A plain word with no zone near it was probably meant as a search word: say how to give one.
      const plain = !read.suggestion && /^[a-z]+$/i.test(word) && word !== word.toUpperCase();
      return fail(plain ? `${read.problem} ${asFilter}` : read.problem);
    }
    zone = read.note ? { timeZone: read.timeZone, note: read.note } : { timeZone: read.timeZone };
  }
  const { filters, problem } = parseFilters(words.slice(index));
  if (problem) return fail(problem);
  return {
    ok: true,
    command: { name: 'digest-on', ...(time ? { time } : {}), ...(zone ?? {}), filters },
  };
}

// ---------- account research (issue 14) ----------

/** Digits are an exhibitor id (free); anything else is a company name (a paid name search first). */
function parseAccount({ text, fail }: CommandArgs<'account'>): ParseResult {
  const value = text.replace(/"/g, '').trim();
  if (!value) return fail('Give an exhibitor id or a company name.');
  if (value.length > 200) return fail('The company name is longer than 200 characters.');
  if (/^\d{1,20}$/.test(value)) return { ok: true, command: { name: 'account', exhibitorId: value } };
  return { ok: true, command: { name: 'account', companyName: value } };
}

const CONTACT_KEYS = ['company', 'title', 'name'] as const;
type ContactKey = (typeof CONTACT_KEYS)[number];
const CONTACT_ALIASES: Record<string, ContactKey> = { role: 'title', person: 'name' };
/** Filters the issue asks for that the service's contact search does not have. */
const UNSUPPORTED_CONTACT_KEYS = ['level', 'department', 'seniority'];

/** `Acme title:VP` or `Jane company:Acme title:VP`: the contact search's three fields. */
function parseContacts({ words, fail }: CommandArgs<'contacts'>): ParseResult {
  const values: Partial<Record<ContactKey, string>> = {};
  const leading: string[] = [];
  let index = 0;
  while (index < words.length && !KEY_TOKEN.test(words[index] ?? '')) leading.push(words[index++] ?? '');
  while (index < words.length) {
    const [, rawKey = '', first = ''] = KEY_TOKEN.exec(words[index++] ?? '') ?? [];
    const valueWords = [first];
    while (index < words.length && !KEY_TOKEN.test(words[index] ?? '')) valueWords.push(words[index++] ?? '');
    const name = rawKey.toLowerCase();
    if (UNSUPPORTED_CONTACT_KEYS.includes(name))
      return fail(
        `The service's contact search has no \`${name}:\` filter (only \`company:\`, \`title:\` and \`name:\`); ` +
          'for level or department use `/events people <event_id>` and Filter….',
      );
    const key = CONTACT_KEYS.find((known) => known === (CONTACT_ALIASES[name] ?? name));
    if (!key)
      return fail(`${shown(`${rawKey}:`)} is not a filter. Filters: \`company:\`, \`title:\`, \`name:\`.`);
    const value = valueWords.join(' ').replace(/"/g, '').trim();
    if (!value) return fail(`\`${key}:\` needs a value.`);
    if (value.length > 200) return fail(`\`${key}:\` is longer than 200 characters.`);
    if (values[key]) return fail(`\`${key}:\` is given twice.`);
    values[key] = value;
  }
  const query = leading.join(' ').replace(/"/g, '').trim();
  if (query.length > 200) return fail('The search words are longer than 200 characters.');
  if (query && values.company && values.name)
    return fail(`${shown(query)}: the company and the name are both given.`);
  const companyName = values.company ?? query;
  const personName = values.company ? (values.name ?? (query || undefined)) : values.name;
  if (!companyName) return fail('Give a company name: the service searches contacts within one company.');
  return {
    ok: true,
    command: {
      name: 'contacts',
      companyName,
      ...(values.title ? { role: values.title } : {}),
      ...(personName ? { personName } : {}),
    },
  };
}

/** A public LinkedIn profile address (`linkedin.com/in/…`), with or without `https://`. */
function parseLinkedin({ words, fail }: CommandArgs<'linkedin'>): ParseResult {
  const [raw = ''] = words;
  if (!raw) return fail('Give a LinkedIn profile address, like `https://www.linkedin.com/in/jane-smith`.');
  if (words.length > 1)
    return fail(`\`linkedin\` takes one address; ${shown(words.slice(1).join(' '))} is extra.`);
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    return fail(`${shown(raw)} is not an address.`);
  }
  if (!/(^|\.)linkedin\.com$/i.test(url.hostname) || !/^\/in\/[^/]+/i.test(url.pathname))
    return fail(`${shown(raw)} is not a LinkedIn profile address (\`linkedin.com/in/…\`).`);
  if (url.toString().length > 500) return fail('The address is longer than 500 characters.');
  return { ok: true, command: { name: 'linkedin', linkedinUrl: url.toString() } };
}

function parseBrief({ words, fail }: CommandArgs<'brief'>): ParseResult {
  const id = eventIdOf(words, fail);
  if (typeof id !== 'string') return id;
  if (words.length > 1)
    return fail(`\`brief\` takes one event id; ${shown(words.slice(1).join(' '))} is extra.`);
  return { ok: true, command: { name: 'brief', eventId: id } };
}
