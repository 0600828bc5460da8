import { isTypedEventId, PERSONNEL_ID_PATTERN } from '../../../domain/ids.ts';
import { parseSpendPeriod } from '../../../domain/periods.ts';
import { bareWord, oneEventId, shown } from '../../kit/command-arguments.ts';
import type { CommandArgs, Parsed, AudienceDeclared } from '../../kit/command-types.ts';
import { listedCredits } from '../../kit/money-words.ts';
import { type AskAgain, CONTACTS_AT_ONCE } from '../../kit/job-values.ts';

/**
 * The charges room's `/events` words: the balance and the spend by period (free), and every command
 * that spends credits, each with the charge it asks for (a confirmation card names the price first).
 */

const UNLOCK_EVENT_WORD =
  'Personnel ids, separated by spaces or commas; `event:26855` names the event they are from (the ' +
  "people list's buttons add it), and the service then checks they belong to it.";
const PAID_PAGE_WORD =
  'Every page is a new search, charged again when it is non-empty: the results come 20 a page in the ' +
  "card's thread, and Previous / Next (or `page:2`) ask for a confirmation first.";
const MAX_CONTACTS = CONTACTS_AT_ONCE;

const SPEND_PERIODS =
  '`today` (the default), `week`, `month` or `quarter` (the current one; `this month` reads the same), ' +
  'a month as `2027-03` or a quarter as `Q2-2027`, all in UTC';
const THIS_PERIOD = new Set(['week', 'month', 'quarter']);
/** Which words name a period does not depend on the day: any instant tells them apart. */
const ANY_DAY = new Date(0);

export type SpendCommand = {
  name: 'spend';
  /** a word `parseSpendPeriod` reads */ period: string;
  export?: true;
};

/** `spend [period] [export]`: the period read again by the worker against its own clock. */
function parseSpend({ words, fail }: CommandArgs): Parsed<SpendCommand> {
  const lower = words.map((word) => word.toLowerCase());
  const exporting = lower.includes('export');
  const said = lower.filter((word) => word !== 'export');
  const [first, second] = said;
  const wanted = first === 'this' && said.length === 2 && THIS_PERIOD.has(second ?? '') ? [second] : said;
  const period = wanted[0] ?? 'today';
  if (wanted.length > 1 || !parseSpendPeriod(period, ANY_DAY))
    return fail(
      `${shown(words.filter((word) => word.toLowerCase() !== 'export').join(' '))} is not a period. Say ${SPEND_PERIODS}.`,
    );
  return { ok: true, command: { name: 'spend', period, ...(exporting ? { export: true as const } : {}) } };
}

/** `spend`'s period as its parser keeps it (lower case), or undefined for a word that names none. */
export function spendPeriodOf(word: string): string | undefined {
  const period = word.toLowerCase();
  return /^\S+$/.test(period) && parseSpendPeriod(period, ANY_DAY) ? period : undefined;
}

/** A paid search's later page (`page:N`): a search, and a charge, of its own. */
const pageOf = (page: number | undefined) => (page ? { page } : {});

/** The first id of a "name" made only of ids (`27317 27053`): a paid name search for it makes no sense. */
const firstIdOf = (name: string) => (/^\d+(?:[\s,]+\d+)*$/.test(name) ? /^\d+/.exec(name)?.[0] : undefined);
const idWords = (name: string) => (/^\d+$/.test(name) ? 'is an id' : 'are ids');

/** A paid search's trailing `page:N` (its Previous / Next stand for these words), and the rest. */
function searchPageOf(text: string): { rest: string; page?: number; problem?: string } {
  const match = /(?:^|\s)page:(\S*)$/i.exec(text);
  if (!match) return { rest: text };
  const page = /^\d{1,4}$/.test(match[1] ?? '') ? Number(match[1]) : 0;
  if (page < 1) return { rest: text, problem: `${shown(match[0].trim())}: a page is a number from 1.` };
  return { rest: text.slice(0, match.index).trim(), ...(page > 1 ? { page } : {}) };
}

function parseWho({
  text: words,
  fail,
}: CommandArgs): Parsed<{ name: 'who'; fullName: string; page?: number }> {
  const { rest: text, page, problem } = searchPageOf(words);
  if (problem) return fail(problem);
  const name = text.replace(/"/g, '').trim();
  if (!name) return fail('The full name is missing.');
  // An id here would be a paid search for a name nobody has.
  const id = firstIdOf(name);
  if (id)
    return fail(
      `${shown(name)} ${idWords(name)}, not a name; for a person's events use \`/events person-events ${id}\`.`,
    );
  if (name.length > 200) return fail('The name is longer than 200 characters.');
  return { ok: true, command: { name: 'who', fullName: name, ...(page ? { page } : {}) } };
}

/** `company` and `exhibitor`: a company name (never an id), and its page. */
function companyName<N extends 'company' | 'exhibitor'>(word: N) {
  return ({ text: words, fail }: CommandArgs): Parsed<{ name: N; companyName: string; page?: number }> => {
    const { rest: text, page, problem } = searchPageOf(words);
    if (problem) return fail(problem);
    const name = text.replace(/"/g, '').trim();
    if (!name) return fail('The company name is missing.');
    const id = firstIdOf(name);
    if (id)
      return fail(
        `${shown(name)} ${idWords(name)}, not a company name; for an event's exhibitors use \`/events exhibitors ${id}\`.`,
      );
    if (name.length > 200) return fail('The company name is longer than 200 characters.');
    return { ok: true, command: { name: word, companyName: name, ...(page ? { page } : {}) } };
  };
}

type ContactUnlock<N> = {
  name: N;
  personnelIds: string[];
  /** `event:<id>`: the people are from this event's list (sent as the unlock's `event_id`). */
  eventId?: string;
};

/** Personnel ids, separated by spaces or commas; each counted once. */
function personnelIds<N extends 'emails' | 'phones'>(word: N) {
  return ({ words: all, fail }: CommandArgs): Parsed<ContactUnlock<N>> => {
    // `event:26855`: the people are from this event's list (the unlock sends it as `event_id`).
    const eventWords = all.filter((part) => /^event:/i.test(part));
    const eventId = eventWords[0]?.slice('event:'.length);
    if (eventWords.length > 1) return fail('`event:` is given twice.');
    if (eventId !== undefined && !isTypedEventId(eventId))
      return fail(`${shown(eventId)} is not an event id.`);
    const words = all.filter((part) => !/^event:/i.test(part));
    const ids = words.flatMap((part) => part.split(',')).filter(Boolean);
    if (ids.length === 0) return fail('Give one or more personnel ids.');
    const bad = ids.find((id) => !PERSONNEL_ID_PATTERN.test(id));
    if (bad) return fail(`${shown(bad)} is not a personnel id; ids are digits, like \`100001\`.`);
    const unique = [...new Set(ids)];
    if (unique.length > MAX_CONTACTS) return fail(`At most ${MAX_CONTACTS} people at a time.`);
    return { ok: true, command: { name: word, personnelIds: unique, ...(eventId ? { eventId } : {}) } };
  };
}

/**
 * The command that asks for a charge again (Start again, a paid search's Previous / Next): each word's
 * `charge` read backwards, so the command asks for that very action.
 */
export function commandAsking(action: AskAgain) {
  switch (action.kind) {
    case 'event-unlock':
      return { name: 'unlock' as const, eventId: action.eventId };
    case 'visitors-unlock':
      return { name: 'visitors' as const, eventId: action.eventId };
    case 'full-access-unlock':
      return { name: 'full-access' as const, eventId: action.eventId };
    case 'email-unlock':
      return contactsAsking('emails', action);
    case 'phone-unlock':
      return contactsAsking('phones', action);
    case 'people-by-name':
      return { name: 'who' as const, fullName: action.fullName, ...laterPage(action.page) };
    case 'exhibitor-events':
      return { name: 'company' as const, companyName: action.companyName, ...laterPage(action.page) };
    case 'exhibitor-search':
      return { name: 'exhibitor' as const, companyName: action.companyName, ...laterPage(action.page) };
  }
}

const laterPage = (page: number | undefined) => (page && page > 1 ? { page } : {});

function contactsAsking<N extends 'emails' | 'phones'>(
  name: N,
  { personnelIds, fromEventId }: { personnelIds: string[]; fromEventId?: string | undefined },
): ContactUnlock<N> {
  return { name, personnelIds: [...new Set(personnelIds)], ...(fromEventId ? { eventId: fromEventId } : {}) };
}

/** A contact unlock's event context (`event:<id>`, from an event's people list). */
const fromEvent = (eventId: string | undefined) => (eventId ? { fromEventId: eventId } : {});

export const CHARGE_COMMANDS = {
  credits: { usage: 'credits', example: 'credits', summary: 'Credit balance', parse: bareWord('credits'), audience: 'guests' },
  spend: {
    usage: 'spend [today|week|month|quarter|YYYY-MM|Qn-YYYY] [export]',
    example: 'spend month',
    summary: 'Credits this workspace spent in a period, by person, show and action',
    details:
      `The period: ${SPEND_PERIODS}. The card's Export CSV (or \`export\` after the period) sends ` +
      'one row per charge of the period to your direct messages with the app. Free.',
    parse: parseSpend,
    // The ledger names who asked, who confirmed, the show and the channel of every charge.
    audience: 'members',
  },
  who: {
    usage: 'who <full name>',
    example: 'who Jane Smith',
    summary: 'Events of people with this exact name',
    credits: `${listedCredits('people-by-name')} if anything matches, per page`,
    details: PAID_PAGE_WORD,
    parse: parseWho,
    audience: 'members',
    charge: ({ fullName, page }: { fullName: string; page?: number }) => ({
      kind: 'people-by-name' as const,
      fullName,
      ...pageOf(page),
    }),
  },
  company: {
    usage: 'company <company name>',
    example: 'company Acme Analytics',
    summary: 'Events where a company exhibits',
    credits: `${listedCredits('exhibitor-events')} if anything matches, per page`,
    details: PAID_PAGE_WORD,
    parse: companyName('company'),
    audience: 'members',
    charge: ({ companyName, page }: { companyName: string; page?: number }) => ({
      kind: 'exhibitor-events' as const,
      companyName,
      ...pageOf(page),
    }),
  },
  exhibitor: {
    usage: 'exhibitor <company name>',
    example: 'exhibitor Acme Analytics',
    summary: 'Exhibitor records by company name',
    credits: `${listedCredits('exhibitor-search')} if anything matches, per page`,
    details: PAID_PAGE_WORD,
    parse: companyName('exhibitor'),
    audience: 'members',
    charge: ({ companyName, page }: { companyName: string; page?: number }) => ({
      kind: 'exhibitor-search' as const,
      companyName,
      ...pageOf(page),
    }),
  },
  unlock: {
    usage: 'unlock <event_id>',
    example: 'unlock 26855',
    summary: 'Unlock all exhibitors and personnel of an event',
    credits: `per precheck, ${listedCredits('event-unlock')} typical`,
    parse: oneEventId('unlock'),
    audience: 'members',
    charge: ({ eventId }: { eventId: string }) => ({ kind: 'event-unlock' as const, eventId }),
  },
  visitors: {
    usage: 'visitors <event_id>',
    example: 'visitors 26855',
    summary: 'Unlock registered visitors (after the event unlock)',
    credits: listedCredits('visitors-unlock'),
    parse: oneEventId('visitors'),
    audience: 'members',
    charge: ({ eventId }: { eventId: string }) => ({ kind: 'visitors-unlock' as const, eventId }),
  },
  'full-access': {
    usage: 'full-access <event_id>',
    example: 'full-access 26855',
    summary: 'Unlock event and visitors in one step',
    credits: `0–${listedCredits('full-access-unlock')}, from precheck`,
    parse: oneEventId('full-access'),
    audience: 'members',
    charge: ({ eventId }: { eventId: string }) => ({ kind: 'full-access-unlock' as const, eventId }),
  },
  emails: {
    usage: 'emails <personnel_id…>',
    example: 'emails 100001 100002 100003',
    summary: 'Unlock contact emails',
    credits: `${listedCredits('email-unlock')} per contact`,
    details: UNLOCK_EVENT_WORD,
    parse: personnelIds('emails'),
    audience: 'members',
    charge: ({ personnelIds, eventId }: ContactUnlock<'emails'>) => ({
      kind: 'email-unlock' as const,
      personnelIds,
      ...fromEvent(eventId),
    }),
  },
  phones: {
    usage: 'phones <personnel_id…>',
    example: 'phones 100001 100002',
    summary: 'Unlock phone numbers',
    credits: `${listedCredits('phone-unlock')} per contact`,
    details: UNLOCK_EVENT_WORD,
    parse: personnelIds('phones'),
    audience: 'members',
    charge: ({ personnelIds, eventId }: ContactUnlock<'phones'>) => ({
      kind: 'phone-unlock' as const,
      personnelIds,
      ...fromEvent(eventId),
    }),
  },
} satisfies AudienceDeclared;
