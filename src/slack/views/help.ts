import { COMMAND_SPECS } from '../command-parser.ts';

/** One `/events` subcommand as the help shows it. */
export interface HelpCommand {
  word: string;
  usage: string;
  example: string;
  summary: string;
  /** How credits are spent, in words; absent for free commands (those with it ask to confirm). */
  credits?: string;
}

/**
 * Every subcommand, its usage and an example. The command parser owns the list (its words are what it
 * accepts); the help renders the same data so the two cannot drift apart.
 */
export const COMMANDS: readonly HelpCommand[] = COMMAND_SPECS;
