import type { CommandDefinition } from '../../kit/command-types.ts';
import type { ListCommand } from './definition.ts';
import { EVENTS } from './events.ts';
import { EXHIBITORS } from './exhibitors.ts';
import { PEOPLE } from './people.ts';
import { PERSON_EVENTS } from './person-events.ts';
import { RECOMMEND } from './recommend.ts';
import { SHOWS_FOR } from './shows-for.ts';
import { SIMILAR } from './similar.ts';

/** The lists room's `/events` words: each opens a free, paged list, worded and read by its definition. */

/** A list's command, as its definition words it and reads its words. */
function listCommand<C>(words: ListCommand<C>): CommandDefinition<C> {
  const { parse, query: _query, ...help } = words;
  return {
    ...help,
    parse: ({ words, fail }) => {
      const read = parse(words);
      return read.ok ? read : fail(read.problem);
    },
  };
}

export const LIST_COMMANDS = {
  search: listCommand(EVENTS.command),
  exhibitors: listCommand(EXHIBITORS.command),
  people: listCommand(PEOPLE.command),
  recommend: listCommand(RECOMMEND.command),
  /** Recommended events for a company or an audience (issue 14): free, paged. */
  'shows-for': listCommand(SHOWS_FOR.command),
  similar: listCommand(SIMILAR.command),
  'person-events': listCommand(PERSON_EVENTS.command),
};
