import { isTypedEventId } from '../../domain/ids.ts';
import { closest } from './closest-word.ts';
import type { CommandArgs, Fail, Parsed, Refusal } from './command-types.ts';

/** Argument readers more than one room's words share. */

/** `country:…`; not `https://…`, and not times or zones (`08:30`, `UTC+5:30`), which start otherwise. */
export const KEY_TOKEN = /^([A-Za-z][\w-]*):(?!\/\/)(.*)$/;

/** A user's word, shown back in backticks: short, and unable to end the code span. */
export const shown = (word: string) => `\`${word.slice(0, 40).replace(/`/g, "'")}\``;

/** A lone http(s) URL or bare domain is a company website; anything else is audience text. */
export function asCompanyUrl(text: string): string | undefined {
  if (/\s/.test(text)) return undefined;
  const candidate = /^https?:\/\//i.test(text)
    ? text
    : /^[\w-]+(\.[\w-]+)+(\/\S*)?$/.test(text)
      ? `https://${text}`
      : '';
  if (!candidate) return undefined;
  try {
    return new URL(candidate).toString();
  } catch {
    return undefined;
  }
}

/** The event id a command starts with, or the refusal that says what is wrong with it. */
export function eventIdOf(words: readonly string[], fail: Fail): string | Parsed<never> {
  const id = words[0];
  if (!id) return fail('The event id is missing.');
  // The service takes any 1–100 characters; its ids are numbers, so a word without a digit is a slip.
  if (!isTypedEventId(id))
    return fail(`${shown(id)} is not an event id; ids look like \`26855\` (see \`/events search\`).`);
  return id;
}

/** A command that takes one event id and nothing else (`fit 26855`, `unlock 26855`). */
export function oneEventId<N extends string>(name: N) {
  return ({ words, fail }: CommandArgs): Parsed<{ name: N; eventId: string }> => {
    const id = eventIdOf(words, fail);
    if (typeof id !== 'string') return id;
    if (words.length > 1)
      return fail(`\`${name}\` takes one event id; ${shown(words.slice(1).join(' '))} is extra.`);
    return { ok: true, command: { name, eventId: id } };
  };
}

/** A command that takes nothing after it (`credits`; `digest off`, said as `said`). */
export function bareWord<N extends string>(name: N, said: string = name) {
  return ({ words, text, fail }: CommandArgs): Parsed<{ name: N }> => {
    if (words[0]) return fail(`\`${said}\` takes nothing after it; ${shown(text)} is extra.`);
    return { ok: true, command: { name } };
  };
}

type Parser = (args: CommandArgs) => Parsed<unknown>;

/**
 * A word read by its sub-words (`digest on | off | status | now`): each sub-word's own parser, handed
 * the words after it; a missing one is asked for, and a typo answered with the nearest sub-word.
 */
export function subWords<P extends Readonly<Record<string, Parser>>>(word: string, parsers: P) {
  const names = Object.keys(parsers);
  const said = `${names.slice(0, -1).join(', ')} or ${names.at(-1) ?? ''}`;
  return ({ words, lines, fail }: CommandArgs): ReturnType<P[keyof P]> | Refusal => {
    const [action = '', ...rest] = words;
    const name = action.toLowerCase();
    // Own keys only: `constructor` is no sub-word.
    const parse = Object.hasOwn(parsers, name) ? parsers[name] : undefined;
    const restLines = lines.startsWith(action) ? lines.slice(action.length).trim() : rest.join(' ');
    if (parse)
      return parse({ words: rest, text: rest.join(' '), lines: restLines, fail }) as ReturnType<P[keyof P]>;
    if (!action) return fail(`Say ${said}.`);
    const guess = closest(action, names);
    return fail(
      `${shown(action)} is not a ${word} action.${guess ? ` Did you mean \`${word} ${guess}\`?` : ''}`,
    );
  };
}
