import { RETURN_WINDOW, yearPeriod } from '../../../domain/outcome-return.ts';
import { type Period, parseQuarter } from '../../../domain/periods.ts';
import { shown } from '../../kit/command-arguments.ts';
import type { CommandArgs, Parsed } from '../../kit/command-types.ts';

/** What `return` asks for: one show, a quarter or a year, or (none) the last full quarter. */
export type ReturnCommand = { name: 'return'; eventId?: string; period?: Period };

const USAGE = 'return [<event id> | <quarter> | <year>]';

function parseReturn({ words, fail }: CommandArgs): Parsed<ReturnCommand> {
  const [word, ...extra] = words;
  if (extra.length > 0)
    return fail(`\`return\` takes one show, quarter or year; ${shown(extra.join(' '))} is extra.`);
  if (!word) return { ok: true, command: { name: 'return' } };
  const period = parseQuarter(word) ?? yearPeriod(word);
  if (period) return { ok: true, command: { name: 'return', period } };
  if (/^\d+$/.test(word)) return { ok: true, command: { name: 'return', eventId: word } };
  return fail(`${shown(word)} is not an event id, a quarter (\`Q2-2027\`) or a year (\`2027\`).`);
}

/** The returns room's `/events` word: `return [<event id> | Q2-2027 | 2027]`. */
export const RETURN_COMMANDS = {
  return: {
    usage: USAGE,
    example: 'return Q2-2027',
    summary:
      'What shows brought for what they cost: meetings, leads, pipeline and won, per show and in total',
    details:
      'Without a show or period, the last full quarter. Counts the channel’s outcome entries logged from ' +
      `${RETURN_WINDOW.beforeDays} days before a show starts to ${RETURN_WINDOW.afterDays} days after it ends, for the plan’s shows ` +
      'and the shows with entries; pipeline and won are split into sourced (the account’s first entry in the workspace ' +
      'was for that show) and influenced. Cost is the credits spent on a show × the credit price plus its costs beyond ' +
      'credits. Free.',
    // Read as the plan is: guests read the channel's plan, so they read what its shows returned.
    audience: 'guests' as const,
    parse: parseReturn,
  },
};
