import type { Audience } from '../../../domain/audience.ts';
import { looksLikeTime, readTimeOfDay, readTimeZone } from '../../kit/schedule-reading.ts';
import { bareWord, subWords, KEY_TOKEN, shown } from '../../kit/command-arguments.ts';
import type { CommandArgs, Parsed } from '../../kit/command-types.ts';
import { readSearchFilters, type SearchFilters } from '../../kit/filter-reading.ts';

/** The digests room's `/events` word: `digest on | off | status | now`, read as four commands. */

export type DigestCommand =
  | {
      name: 'digest-on';
      time?: string;
      timeZone?: string;
      /** How a zone word was read, to repeat in the answer (`EST read as America/New_York`). */
      note?: string;
      filters: SearchFilters;
    }
  | { name: 'digest-off' | 'digest-status' | 'digest-now' };

/** `[time] [zone] [key:value…]`: a bare word that is neither time nor zone is an error, never a keyword. */
function parseDigestOn({ words, fail }: CommandArgs): Parsed<DigestCommand> {
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
  const { filters, problem } = readSearchFilters(words.slice(index));
  if (problem) return fail(problem);
  return {
    ok: true,
    command: { name: 'digest-on', ...(time ? { time } : {}), ...(zone ?? {}), filters },
  };
}

export const DIGEST_COMMANDS = {
  digest: {
    usage: 'digest on [time] [time zone] [key:value filters] | off | status | now',
    example: 'digest on 08:30 Europe/Berlin keywords:fintech',
    summary: 'A daily digest in this channel',
    details:
      'Time: `08:30`, `8am` or `8:30pm` (default 09:00). Zone: `Europe/Berlin`, `EST` or `UTC+2` ' +
      '(default: your Slack time zone). Then filters only, as key:value: `keywords:fintech` (several ' +
      'words: a show matches any), `country:Germany` or `region:DACH`, `city:`, `when:Q2-2027` or ' +
      '`from:`, `to:`.',
    audience: {
      'digest-on': 'members',
      'digest-off': 'members',
      'digest-now': 'members',
      'digest-status': 'guests',
    } satisfies Record<DigestCommand['name'], Audience>,
    parse: subWords('digest', {
      on: parseDigestOn,
      off: bareWord('digest-off', 'digest off'),
      status: bareWord('digest-status', 'digest status'),
      now: bareWord('digest-now', 'digest now'),
    }),
  },
};
