import type { Audience } from '../../../domain/audience.ts';
import { OUTCOME_LIMITS, OUTCOME_LOGGERS } from '../../../domain/outcomes.ts';
import type { CommandArgs, Parsed } from '../../kit/command-types.ts';
import { type OutcomeCommand, parseOutcome } from './outcome-reading.ts';
import { kindsWords, OUTCOME_EXAMPLE, OUTCOME_USAGE } from './outcome-words.ts';

export type { OutcomeCommand } from './outcome-reading.ts';

/** The outcomes room's `/events` word: `outcome <event id> <kind> <account> [amount] [note]`, `outcome delete <id>`. */
export const OUTCOME_COMMANDS = {
  outcome: {
    usage: OUTCOME_USAGE,
    example: OUTCOME_EXAMPLE,
    summary:
      'Log what a show brought: a meeting, a graded lead, an opportunity or a deal won, with its account',
    details:
      `${kindsWords()} The account is one word or a "quoted name"; when the channel watches it, the entry is matched to the watch's company. ` +
      "An amount (`48,000`, at most 2 decimals) is in the plan's currency: `48,000 EUR` is refused when the plan's is another. " +
      `The rest is a note, up to ${OUTCOME_LIMITS.noteChars} characters. A show the service does not know, or one starting more than ` +
      `${OUTCOME_LIMITS.aheadDays} days ahead, is refused. The card in the channel has Delete (its logger or a workspace admin; ` +
      'the entry is kept, marked deleted); `outcome edit <entry id> …` says it all again (the same two; what it said before is kept). Free.',
    // Members log; editing and deleting are the logger's or an admin's (the entry decides: src/domain/outcomes.ts).
    audience: {
      outcome: OUTCOME_LOGGERS,
      'outcome-edit': 'authors',
      'outcome-delete': 'authors',
    } satisfies Record<OutcomeCommand['name'], Audience>,
    parse: (args: CommandArgs): Parsed<OutcomeCommand> => parseOutcome(args),
  },
};
