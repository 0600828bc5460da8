import { PERSONNEL_ID_PATTERN } from '../../../domain/ids.ts';
import type { CommandArgs, CommandDefinition, Parsed } from '../../commands/types.ts';
import type { ListCommand } from './definition.ts';
import { EXHIBITORS } from './exhibitors.ts';
import {
  asCompanyUrl,
  type EventSearchFilters,
  readSearchFilters,
  SEARCH_KEYS,
  shown,
} from './filter-words.ts';
import { PEOPLE } from './people.ts';
import { RECOMMEND } from './recommend.ts';
import { SHOWS_FOR } from './shows-for.ts';

/** The lists room's `/events` words: each opens a free, paged list. */

const FILTER_WORDS =
  'Search words first: a show matches any of them, shows matching more words first (up to 5 words). ' +
  'Then filters `keywords:`, `country:` or `region:` (Europe, DACH, Nordics, North America, LATAM, APAC, ' +
  'Middle East), `city:`, `when:Q2-2027` or `when:2027-03`, or `from:YYYY-MM-DD` and `to:YYYY-MM-DD`, ' +
  '`type:` and `quality:` (labels, comma-separated: `type:Trade Show,Conference`), `visitors:yes` or `no`; ' +
  'a value runs to the next filter, so `country:United States` and `region:North America` need no quotes.';

/** A list's command, as its definition words it and reads its words. */
function listCommand<C>(words: ListCommand<C>): CommandDefinition<C> {
  const { parse, ...help } = words;
  return {
    ...help,
    parse: ({ words, fail }) => {
      const read = parse(words);
      return read.ok ? read : fail(read.problem);
    },
  };
}

function parseSearch({ words, fail }: CommandArgs): Parsed<{ name: 'search'; filters: EventSearchFilters }> {
  const { filters, problem } = readSearchFilters(words, SEARCH_KEYS);
  if (problem) return fail(problem);
  if (Object.keys(filters).length === 0) return fail('Give some search words or a filter.');
  return { ok: true, command: { name: 'search', filters } };
}

type SimilarCommand = { name: 'similar'; companyUrl?: string; targetAudience?: string };

function parseSimilar({ text, fail }: CommandArgs): Parsed<SimilarCommand> {
  if (!text) return fail('Give a company website or a description of your audience.');
  if (text.length > 500) return fail('The description is longer than 500 characters.');
  const url = asCompanyUrl(text);
  return {
    ok: true,
    command: { name: 'similar', ...(url ? { companyUrl: url } : { targetAudience: text }) },
  };
}

function parsePersonEvents({
  words,
  fail,
}: CommandArgs): Parsed<{ name: 'person-events'; personnelId: string }> {
  const id = words[0];
  if (!id) return fail('The personnel id is missing.');
  if (!PERSONNEL_ID_PATTERN.test(id))
    return fail(`${shown(id)} is not a personnel id; ids are digits, like \`100001\`.`);
  if (words.length > 1)
    return fail(`\`person-events\` takes one personnel id; ${shown(words.slice(1).join(' '))} is extra.`);
  return { ok: true, command: { name: 'person-events', personnelId: id } };
}

export const LIST_COMMANDS = {
  search: {
    usage:
      'search <keywords> [country:X] [region:Europe] [city:X] [when:Q2-2027] [from:YYYY-MM-DD] [to:YYYY-MM-DD] [type:X] [quality:X] [visitors:yes|no]',
    example: 'search fintech payments region:Europe',
    summary: 'Find trade shows',
    details: FILTER_WORDS,
    parse: parseSearch,
  },
  exhibitors: listCommand(EXHIBITORS.command),
  people: listCommand(PEOPLE.command),
  recommend: listCommand(RECOMMEND.command),
  /** Recommended events for a company or an audience (issue 14): free, paged. */
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
};
