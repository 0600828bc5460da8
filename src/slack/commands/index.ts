import { type Audience, narrowest, SPENDING_AUDIENCE } from '../../domain/audience.ts';
import type { ChargeAction } from '../../domain/charging.ts';
import { PRICES } from '../../domain/prices.ts';
import { ACCOUNT_COMMANDS } from '../features/account/commands.ts';
import { CHARGE_COMMANDS } from '../features/charges/commands.ts';
import { COMPARE_COMMANDS } from '../features/compare/commands.ts';
import { priceWords } from '../kit/money-words.ts';
import { DIGEST_COMMANDS } from '../features/digests/commands.ts';
import { EVENT_COMMANDS } from '../features/events/commands.ts';
import { LIST_COMMANDS } from '../features/lists/commands.ts';
import { WATCH_COMMANDS } from '../features/watch/commands.ts';
import { PLAN_COMMANDS } from '../features/plan/commands.ts';
import { OUTCOME_COMMANDS } from '../features/outcomes/commands.ts';
import { RETURN_COMMANDS } from '../features/returns/commands.ts';
import { nearestWord } from './nearest-word.ts';
import type {
  CommandArgs,
  CommandDefinition,
  CommandOf,
  CommandSpec,
  Parsed,
  Refusal,
  WordAudience,
} from '../kit/command-types.ts';
import { plainText, tokenize } from './words.ts';
import { shown } from '../kit/command-arguments.ts';

export type { CommandSpec } from '../kit/command-types.ts';

/**
 * The `/events` command registry: every feature room adds its words here, one line per room, in the
 * order help lists them. `/events <word> …` text becomes a typed command (or a refusal that names
 * what was wrong and shows the word's usage); help and did-you-mean are generated from these words.
 */
const ROOMS = [
  LIST_COMMANDS,
  EVENT_COMMANDS,
  COMPARE_COMMANDS,
  ACCOUNT_COMMANDS,
  CHARGE_COMMANDS,
  DIGEST_COMMANDS,
  WATCH_COMMANDS,
  PLAN_COMMANDS,
  OUTCOME_COMMANDS,
  RETURN_COMMANDS,
  // Every word says whom it is for: a definition without its audience does not compile.
] as const satisfies readonly Readonly<Record<string, { audience: WordAudience }>>[];

type HelpCommand = { name: 'help'; /** a command word: explain just that one */ topic?: string };
/** The commands one room's words read. */
type CommandsOf<R> = { [W in keyof R]: CommandOf<R[W]> }[keyof R];
/** Every command the registered words read (each room's on its own: a union has only common keys). */
export type Command =
  | HelpCommand
  | ((typeof ROOMS)[number] extends infer R ? (R extends unknown ? CommandsOf<R> : never) : never);
export type ParseResult = Parsed<Command>;

type AllOf<T extends readonly unknown[]> = T extends readonly [infer First, ...infer Rest]
  ? First & AllOf<Rest>
  : unknown;
/** Every registered word with its definition: the worker answers each (`Answers<CommandWords>`). */
export type CommandWords = { help: typeof HELP } & AllOf<typeof ROOMS>;

const HELP: CommandDefinition<HelpCommand> = {
  usage: 'help [command]',
  example: 'help',
  summary: 'List the commands, or explain one',
  audience: 'anyone',
  parse: parseHelp,
};

/** Every word with its definition, `help` first. */
const COMMANDS = new Map<string, CommandDefinition<Command>>([
  ['help', HELP],
  ...ROOMS.flatMap((room): [string, CommandDefinition<Command>][] => Object.entries(room)),
]);

/** The help texts of the registered words, in the order help lists them. */
export const COMMAND_SPECS: readonly CommandSpec[] = [...COMMANDS].map(
  ([word, { parse: _parse, charge: _charge, audience: _audience, ...help }]) => ({ word, ...help }),
);

/** The spec of a command word, for `/events help <command>`. */
export const commandSpec = (word: string): CommandSpec | undefined =>
  COMMAND_SPECS.find((spec) => spec.word === word.toLowerCase());

/** A command's word: its name, or the word its name extends (`digest-on` is read by `digest`). */
export const wordOf = (command: Command): string =>
  COMMANDS.has(command.name) ? command.name : command.name.slice(0, command.name.indexOf('-'));

/** The credit-spending action a command asks for, if it is one (its word's `charge`). */
export const chargeActionOf = (command: Command): ChargeAction | undefined =>
  COMMANDS.get(wordOf(command))?.charge?.(command);

/** A word's declared audience for one of its commands; a command its word does not name is for nobody but admins. */
const declaredFor = (audience: WordAudience, name: string): Audience =>
  typeof audience === 'string' ? audience : (audience[name] ?? 'admins');

/** Whom a command is for: its word's declaration, and members at least when it spends credits. */
export function audienceOf(command: Command): Audience {
  const declared = declaredFor(COMMANDS.get(wordOf(command))?.audience ?? 'admins', command.name);
  return chargeActionOf(command) ? narrowest(declared, SPENDING_AUDIENCE) : declared;
}

/** A command as the user would type it, without its arguments: `plan remove`, `spend`; `plan` for `plan-show`, `plan currency (read)`. */
export function commandLabel(command: Pick<Command, 'name'>): string {
  if (COMMANDS.has(command.name)) return command.name;
  const read = command.name.endsWith('-show') ? command.name.slice(0, -'-show'.length) : command.name;
  if (COMMANDS.has(read)) return read;
  return `${read.replace(/-/g, ' ')}${read === command.name ? '' : ' (read)'}`;
}

/** Each word's declarations, for the permissions table: one row per command it reads when they differ. */
export const COMMAND_AUDIENCES: readonly { word: string; command?: string; audience: Audience; spends: boolean }[] =
  [...COMMANDS].flatMap(([word, { audience, charge }]) =>
    typeof audience === 'string'
      ? [{ word, audience, spends: charge !== undefined }]
      : Object.entries(audience).map(([command, of]) => ({ word, command, audience: of, spends: false })),
  );

export function parseCommand(input: string): ParseResult {
  const typed = plainText(input)
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n\s*/g, '\n')
    .trim();
  const text = typed.replace(/\s+/g, ' ');
  if (!text) return { ok: true, command: { name: 'help' } };
  const [first = '', ...words] = tokenize(text);
  const spec = commandSpec(first);
  const definition = spec && COMMANDS.get(spec.word);
  if (!spec || !definition) return notACommand(first, words);
  const fail = (problem: string): Refusal => ({ ok: false, problem, spec });
  const argText = words.join(' ').trim();
  // A mention as a name or search word would search for Slack's markup (and could offer a paid search).
  if (/<[@#!]/.test(argText)) {
    return fail(
      'Mentions, channels and @here or @channel are not names or search words: type the words themselves.',
    );
  }
  // The command word is one run of letters, so the arguments as typed follow it.
  return definition.parse({ words, text: argText, lines: typed.slice(first.length).trim(), fail });
}

function parseHelp({ words }: CommandArgs): Parsed<HelpCommand> {
  const [word] = words;
  if (!word) return { ok: true, command: { name: 'help' } };
  const topic = commandSpec(word);
  if (topic) return { ok: true, command: { name: 'help', topic: topic.word } };
  return notACommand(word, [], 'help ');
}

/** Every word, and whether any form of it spends credits (`account` does by name). */
const WORDS_TO_GUESS = [...COMMANDS].map(([word, { charge }]) => ({ word, charges: charge !== undefined }));

/**
 * What a suggestion spends, in words, when it does: its word's `credits`, or for a word that charges in
 * some forms only (`account <name>`), the price table's figure for the charge it would ask for.
 */
function chargeWordsOf(word: string, command: Command | undefined): string | undefined {
  const definition = COMMANDS.get(word);
  const action = command ? chargeActionOf(command) : undefined;
  if (!action) return command ? undefined : definition?.credits;
  // A price the service does not publish is said so by `priceWords` (its figure is not read).
  const credits = PRICES[action.kind].credits ?? 0;
  return definition?.credits ?? priceWords({ credits, upTo: true, kind: action.kind });
}

/**
 * A word that is no command, with the command it is nearest to (`fitt` → `fit`; a bare id → `show`).
 * A suggestion with the user's own arguments is offered only if its word reads them (`compare 27317`
 * never becomes `company 27317`: an id is no company name), and one that spends credits says so.
 */
function notACommand(typo: string, rest: string[], prefix = ''): Refusal {
  const bareId = !prefix && /^\d+$/.test(typo);
  const guess = bareId ? 'show' : nearestWord(typo, WORDS_TO_GUESS);
  const refusal: Refusal = {
    ok: false,
    problem: `${shown(typo)} is not an /events command.`,
    showHelp: true,
  };
  if (!guess) return refusal;
  const suggestion = `${prefix}${(bareId ? [guess, typo] : [guess, ...rest]).join(' ')}`;
  const withArguments = bareId || rest.length > 0;
  const read = withArguments ? parseCommand(suggestion) : undefined;
  if (read && !read.ok) return refusal;
  const charges = prefix ? undefined : chargeWordsOf(guess, read?.command);
  return { ...refusal, suggestion, ...(charges ? { suggestionCharges: charges } : {}) };
}

/**
 * Whether a command waits for the workspace's service key: all but `help` (which says how to connect
 * it). Read by `untilConnected` and by the distributed app's commands answered without Bolt.
 */
export function needsServiceKey(text: string): boolean {
  const parsed = parseCommand(text);
  return !(parsed.ok && parsed.command.name === 'help');
}
