import { utcDate } from '../../../time/local-time.ts';
import type { Answers, AnswerTools, CommandAnswer } from '../../kit/command-answers.ts';
import type { LIST_COMMANDS } from './commands.ts';
import type { ListCommand, ListOperations } from './definition.ts';
import { EVENTS } from './events.ts';
import { EXHIBITORS } from './exhibitors.ts';
import { PEOPLE } from './people.ts';
import { PERSON_EVENTS } from './person-events.ts';
import { RECOMMEND } from './recommend.ts';
import { SHOWS_FOR } from './shows-for.ts';
import { SIMILAR } from './similar.ts';

const dropUndefined = (query: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined));

/** The lists room's answers: each word opens its list's first page, with Share in channel. */
export function listAnswers({ deps: { eis, now }, answer }: AnswerTools): Answers<typeof LIST_COMMANDS> {
  /** The list's first page, for the query its definition reads from the command (its buttons carry it on). */
  const opens =
    <C>(list: Pick<ListOperations, 'render'> & { command: ListCommand<C> }): CommandAnswer<C> =>
    async (command, context, text) =>
      answer(context, await list.render(dropUndefined(list.command.query(command)), 1, eis, utcDate(now())), {
        text,
      });
  return {
    search: opens(EVENTS),
    exhibitors: opens(EXHIBITORS),
    people: opens(PEOPLE),
    recommend: opens(RECOMMEND),
    'shows-for': opens(SHOWS_FOR),
    similar: opens(SIMILAR),
    'person-events': opens(PERSON_EVENTS),
  };
}
