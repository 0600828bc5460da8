import type { Audience } from '../../domain/audience.ts';
import type { ChargeAction } from '../../domain/charging.ts';

/**
 * What a feature room gives the command registry for each of its `/events` words: the help (usage,
 * example, summary, credits, details), the parser, and the charge the command asks for, if any.
 */
export interface CommandSpec {
  word: string;
  usage: string;
  example: string;
  summary: string;
  /** How credits are spent, in words; absent for free commands. */
  credits?: string;
  /** How the arguments are read, for `/events help <command>`. */
  details?: string;
}

/** A command that could not be read: what was wrong, and how to go on. */
export interface Refusal {
  ok: false;
  problem: string;
  spec?: CommandSpec;
  showHelp?: boolean;
  /** The command text the user probably meant (`fit 26855` for `fitt 26855`), without `/events`. */
  suggestion?: string;
  /** The suggestion spends credits: how, in words (`50 if anything matches, per page`). */
  suggestionCharges?: string;
}

export type Parsed<C> = { ok: true; command: C } | Refusal;

/** A refusal that shows the command's usage. */
export type Fail = (problem: string) => Refusal;

/** What a command's parser is given: the words after the command word, and how to refuse them. */
export interface CommandArgs {
  words: string[];
  /** The words as one string. */
  text: string;
  /** The same as typed, line breaks kept: a pasted list reads one entry a line. */
  lines: string;
  fail: Fail;
}

/**
 * Whom a word is for (src/domain/audience.ts): one audience, or one for each command its parser reads,
 * by name (`plan` reads `plan-show`, `plan-budget`, …; write it `satisfies Record<C['name'], Audience>`).
 */
export type WordAudience = Audience | { readonly [commandName: string]: Audience };

/** A room's words, each declaring its audience (`satisfies AudienceDeclared` keeps the literals). */
export type AudienceDeclared = Readonly<
  Record<string, { readonly audience: WordAudience; readonly [field: string]: unknown }>
>;

/** One `/events` word of a room: its help, its parser and, for a paid command, the charge it asks for. */
export interface CommandDefinition<C> extends Omit<CommandSpec, 'word'> {
  parse: (args: CommandArgs) => Parsed<C>;
  /** Who may run it: checked by the worker's dispatcher before any answer runs. */
  audience: WordAudience;
  /** The credit-spending action the command asks for (confirmed first); absent or undefined: free. */
  // A method, so that a word's definition stands among the registry's (whose commands are wider).
  charge?(this: void, command: C): ChargeAction | undefined;
}

/** A room's words, each key the word typed after `/events`, in the order help lists them. */
export type RoomCommands<C> = Readonly<Record<string, CommandDefinition<C>>>;

/** The command a parser's result carries when it reads one. */
type ReadBy<P> = P extends { ok: true; command: infer C } ? C : never;
/** The commands one word's definition reads (`digest` reads `digest-on`, `digest-off`, …). */
export type CommandOf<D> = D extends { parse: (args: CommandArgs) => infer P } ? ReadBy<P> : never;
