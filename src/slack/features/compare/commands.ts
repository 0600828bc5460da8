import { isTypedEventId } from '../../../domain/ids.ts';
import { MAX_SHOWS, MIN_SHOWS } from '../../kit/job-values.ts';
import type { CommandArgs, Parsed, AudienceDeclared } from '../../kit/command-types.ts';
import { shown } from '../../kit/command-arguments.ts';

/** The compare room's `/events` word: two to five shows side by side, free. */

export type CompareCommand = { name: 'compare'; eventIds: string[] };

/**
 * The event ids to compare, from words separated by spaces or commas, or what is wrong with them
 * (too few, too many, one that is no id, one given twice), in words the user can act on.
 */
export function readCompareIds(
  text: string,
): { ok: true; eventIds: string[] } | { ok: false; problem: string } {
  const ids = text.split(/[\s,]+/).filter(Boolean);
  const malformed = ids.find((id) => !isTypedEventId(id));
  if (malformed)
    return {
      ok: false,
      problem: `${shown(malformed)} is not an event id; ids look like \`26855\` (see \`/events search\`).`,
    };
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated) return { ok: false, problem: `${shown(repeated)} is given twice: name each show once.` };
  if (ids.length < MIN_SHOWS)
    return {
      ok: false,
      problem: `Give ${MIN_SHOWS} to ${MAX_SHOWS} event ids to compare${ids.length === 1 ? ' (one show alone: `/events fit <event_id>`)' : ''}.`,
    };
  if (ids.length > MAX_SHOWS)
    return {
      ok: false,
      problem: `One comparison holds at most ${MAX_SHOWS} shows; you gave ${ids.length}. Drop some and run it again.`,
    };
  return { ok: true, eventIds: ids };
}

function parseCompare({ text, fail }: CommandArgs): Parsed<CompareCommand> {
  const read = readCompareIds(text);
  return read.ok ? { ok: true, command: { name: 'compare', eventIds: read.eventIds } } : fail(read.problem);
}

export const COMPARE_COMMANDS = {
  compare: {
    usage: 'compare <event_id> <event_id> [...]',
    example: 'compare 26855 26888 26965',
    summary: 'Two to five shows side by side: fit, dates, place, exhibitors, watched accounts, unlock price',
    details:
      'Give 2 to 5 event ids, separated by spaces or commas. Free: the unlock price is only quoted. ' +
      'Lists of shows (search, shows-for) have a Compare… button to pick them from the page.',
    parse: parseCompare,
    audience: 'anyone',
  },
} satisfies AudienceDeclared;
