import type { Audience } from '../../../domain/audience.ts';
import { WATCH_LIMITS } from '../../../domain/ports/watch.ts';
import { isValidWatchBudget, MAX_WATCH_BUDGET } from '../../../domain/watch/budget.ts';
import { accountsListed, competitorWithoutColon } from '../../../domain/watch/input.ts';
import { didYouMeanAmount } from '../../kit/amount-words.ts';
import { bareWord, KEY_TOKEN, subWords, shown } from '../../kit/command-arguments.ts';
import type { CommandArgs, Parsed } from '../../kit/command-types.ts';
import { readFilterWords, regionWord, whenWord } from '../../kit/filter-reading.ts';
import { tooManyToAddWords } from './list-words.ts';

/** The watch room's `/events` word: `watch add | remove | list | shows | export | import | status | check | budget | off | on | mute | unmute | choose | alert`. */

export type WatchCommand =
  | { name: 'watch-add'; accounts: string }
  | { name: 'watch-remove' | 'watch-mute' | 'watch-unmute'; account: string }
  | { name: 'watch-list'; page: number }
  /** `region`: a region's own spelling (`North America`); `when`: a quarter or month key (`Q2-2027`). */
  | { name: 'watch-shows'; page: number; region?: string; when?: string }
  | { name: 'watch-budget'; credits: number }
  | { name: 'watch-choose'; exhibitorId: string; account: string }
  | {
      name:
        | 'watch-import'
        | 'watch-export'
        | 'watch-status'
        | 'watch-check'
        | 'watch-off'
        | 'watch-on'
        | 'watch-alert';
    };

/** `watch add <names>`: refused whole past the accounts one add takes (never cut to fit). */
function parseAdd({ lines, fail }: CommandArgs): Parsed<WatchCommand> {
  if (!lines) return fail('Name the accounts to watch: company names or domains, comma-separated.');
  const listed = accountsListed(lines);
  if (listed > WATCH_LIMITS.accountsPerAdd) return fail(tooManyToAddWords(listed));
  const meant = competitorWithoutColon(lines);
  if (meant !== undefined)
    return fail(`A competitor is marked with a colon: did you mean ${shown(meant)}? Nothing was added.`);
  return { ok: true, command: { name: 'watch-add', accounts: lines } };
}

const oneAccount =
  (name: 'watch-remove' | 'watch-mute' | 'watch-unmute') =>
  ({ text, fail }: CommandArgs): Parsed<WatchCommand> =>
    text.trim()
      ? { ok: true, command: { name, account: text.trim() } }
      : fail('Name the account, as it is on `/events watch list`.');

function parseList({ words, fail }: CommandArgs): Parsed<WatchCommand> {
  const [page = '1', ...extra] = words;
  if (!/^\d{1,4}$/.test(page) || Number(page) < 1 || extra.length > 0)
    return fail(`\`watch list\` takes a page number; ${shown(words.join(' '))} is not one.`);
  return { ok: true, command: { name: 'watch-list', page: Number(page) } };
}

const SHOWS_FILTERS = { region: { check: regionWord }, when: { check: whenWord } };

/** `watch shows [page] [region:…] [when:…]`: the page number (Previous / Next give it) before the filters. */
function parseShows({ words, fail }: CommandArgs): Parsed<WatchCommand> {
  // Checked first: the filter reader would also offer `keywords:`, which `watch shows` has no use for.
  const otherKey = words
    .map((word) => KEY_TOKEN.exec(word)?.[1])
    .find((key) => key !== undefined && !/^(region|when)$/i.test(key));
  if (otherKey !== undefined)
    return fail(
      `${shown(`${otherKey}:`)} is not a filter of \`watch shows\`; it takes \`region:\` and \`when:\`.`,
    );
  const read = readFilterWords(words, SHOWS_FILTERS);
  if (read.problem) return fail(read.problem);
  const page = read.leading || '1';
  if (!/^\d{1,4}$/.test(page) || Number(page) < 1)
    return fail(
      `\`watch shows\` takes \`region:\` and \`when:\`; ${shown(read.leading)} is neither (write \`watch shows region:Europe when:Q2-2027\`).`,
    );
  const { region, when } = read.values;
  return {
    ok: true,
    command: {
      name: 'watch-shows',
      page: Number(page),
      ...(region ? { region } : {}),
      ...(when ? { when } : {}),
    },
  };
}

function parseBudget({ words, fail }: CommandArgs): Parsed<WatchCommand> {
  const [amount = '', ...extra] = words;
  const credits = Number(amount.replace(/,/g, ''));
  if (!amount || extra.length > 0 || !/^[\d,]+$/.test(amount) || !isValidWatchBudget(credits))
    return fail(
      `Give the credits per month as a whole number from 0 to ${MAX_WATCH_BUDGET.toLocaleString('en-US')} (0: free look-ups only).${didYouMeanAmount(amount, { whole: true })}`,
    );
  return { ok: true, command: { name: 'watch-budget', credits } };
}

/** `watch choose <exhibitor id> <name>`: what an ambiguous account's This one button runs. */
function parseChoose({ words, fail }: CommandArgs): Parsed<WatchCommand> {
  const [exhibitorId = '', ...name] = words;
  if (!/^\d{1,20}$/.test(exhibitorId) || name.length === 0)
    return fail(
      'Give the exhibitor id, then the account as it is on `/events watch list`: `watch choose 4100 Acme Robotics`.',
    );
  return { ok: true, command: { name: 'watch-choose', exhibitorId, account: name.join(' ') } };
}

export const WATCH_COMMANDS = {
  watch: {
    usage:
      'watch add <names or domains> | remove <name> | list [page] | shows [region:Europe] [when:Q2-2027] | export | import | status | check | budget <credits> | off',
    example: 'watch add Acme Robotics, globex.com, competitor:Initech',
    summary: 'This channel follows accounts and hears when one will exhibit',
    details:
      `Names or domains, comma-separated, up to ${WATCH_LIMITS.accountsPerAdd} at once; \`competitor:\` before one marks a competitor. Checked daily and ` +
      'at once after a change, on free look-ups only unless `watch budget` allows paid ones. ' +
      '`shows` ranks the upcoming shows by how many watched accounts exhibit there (targets and competitors apart), free; `region:` and `when:` narrow it as in search. ' +
      '`export` sends the list and its upcoming shows as a CSV; `import` opens a form to paste up to 1,000 lines; `mute <name>` / `unmute <name>` silence one account; `on` turns a watch back on; ' +
      '`choose <exhibitor id> <name>` picks the exhibitor a name shared by several means (the This one buttons run it); ' +
      '`alert` lists every row of a watch alert (its Show all button runs it).',
    // Guests read the channel's watch; members change it; budgets are the approvers' (as the plan's).
    audience: {
      'watch-list': 'guests',
      'watch-shows': 'guests',
      'watch-status': 'guests',
      'watch-alert': 'guests',
      'watch-add': 'members',
      'watch-remove': 'members',
      'watch-mute': 'members',
      'watch-unmute': 'members',
      'watch-choose': 'members',
      'watch-import': 'members',
      'watch-export': 'members',
      'watch-check': 'members',
      'watch-off': 'members',
      'watch-on': 'members',
      'watch-budget': 'approvers',
    } satisfies Record<WatchCommand['name'], Audience>,
    parse: subWords('watch', {
      add: parseAdd,
      remove: oneAccount('watch-remove'),
      list: parseList,
      shows: parseShows,
      export: bareWord('watch-export', 'watch export'),
      import: bareWord('watch-import', 'watch import'),
      status: bareWord('watch-status', 'watch status'),
      check: bareWord('watch-check', 'watch check'),
      budget: parseBudget,
      off: bareWord('watch-off', 'watch off'),
      on: bareWord('watch-on', 'watch on'),
      mute: oneAccount('watch-mute'),
      unmute: oneAccount('watch-unmute'),
      choose: parseChoose,
      alert: bareWord('watch-alert', 'watch alert'),
    }),
  },
};
