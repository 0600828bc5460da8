import type { KnownBlock } from '@slack/types';
import { context, header, section } from '../views/blocks.ts';
import { code } from '../views/format.ts';
import { fitToLimits, linesToSections } from '../views/limits.ts';
import type { SlackMessage } from '../views/types.ts';
import { COMMAND_SPECS, type CommandSpec } from './index.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn } from '../views/mrkdwn.ts';

/** The help card, one word's help, a usage error and "Did you mean …?", from the registered words. */

const SLASH = '/events';
const withSlash = (usage: string) => (usage.startsWith('/') ? usage : `${SLASH} ${usage}`);

function commandLine(command: CommandSpec): Mrkdwn {
  const cost = command.credits ? mk` — credits: *${escapeMrkdwn(command.credits)}*` : '';
  return mk`${code(withSlash(command.usage))}\n      ${escapeMrkdwn(command.summary)}${cost} · e.g. ${code(withSlash(command.example))}`;
}

/** Every subcommand with its usage and an example; commands that spend credits listed apart. */
export function helpText(commands: readonly CommandSpec[] = COMMAND_SPECS): SlackMessage {
  const free = commands.filter((command) => !command.credits).map(commandLine);
  const paid = commands.filter((command) => command.credits).map(commandLine);
  const blocks: KnownBlock[] = [header('eventbot commands')];
  if (free.length > 0) blocks.push(section('*Look-ups (free)*'), ...linesToSections(free, 10, 'commands'));
  if (paid.length > 0) {
    blocks.push(
      section('*Spend credits* (you confirm the price first)'),
      ...linesToSections(paid, 10, 'commands'),
    );
  }
  blocks.push(
    context('Credits are real money, shared with the web app. Nothing is charged before you press Confirm.'),
  );
  const words = commands.map((command) => command.word).join(', ');
  return fitToLimits({ text: mk`eventbot commands: ${escapeMrkdwn(words)}. Try ${SLASH} help.`, blocks });
}

/** A command that could not be read: what was wrong, the usage, an example. */
export function usageError(problem: string, usage: string, example: string): SlackMessage {
  const text = mk`:warning: ${escapeMrkdwn(problem)}`;
  return fitToLimits({
    text: mk`${text} Usage: ${escapeMrkdwn(withSlash(usage))}`,
    blocks: [
      section(text),
      section(mk`*Usage:* ${code(withSlash(usage))}\n*Example:* ${code(withSlash(example))}`),
      context(mk`${code(`${SLASH} help`)} lists every command.`),
    ],
  });
}

/** `/events help <command>`: that command's usage, example, summary and price, nothing else. */
export function commandHelp(command: CommandSpec): SlackMessage {
  const cost = command.credits ? mk` — credits: *${escapeMrkdwn(command.credits)}*` : '';
  const lines = [
    mk`*${escapeMrkdwn(withSlash(command.word))}*: ${escapeMrkdwn(command.summary)}${cost}`,
    mk`*Usage:* ${code(withSlash(command.usage))}`,
    mk`*Example:* ${code(withSlash(command.example))}`,
  ];
  // Details are our own mrkdwn (code spans); escaping keeps them from ever pinging anyone.
  if (command.details) lines.push(escapeMrkdwn(command.details));
  return fitToLimits({
    text: mk`${escapeMrkdwn(withSlash(command.usage))}: ${escapeMrkdwn(command.summary)}`,
    blocks: [section(joinMrkdwn(lines, '\n')), context(mk`${code(`${SLASH} help`)} lists every command.`)],
  });
}

/**
 * A word that is no command: what was wrong, the command it is nearest to, and a few lines of help
 * (the full list is one command away) — the answer should fit on the screen next to the typo.
 */
export function unknownCommand(
  problem: string,
  suggestion?: string,
  /** How the suggested command spends credits (`50 if anything matches, per page`), when it does. */
  suggestionCharges?: string,
  commands: readonly CommandSpec[] = COMMAND_SPECS,
): SlackMessage {
  const warning = mk`:warning: ${escapeMrkdwn(problem)}`;
  const charges = suggestionCharges
    ? mk` That one spends credits: *${escapeMrkdwn(suggestionCharges)}* (a card asks you to confirm first).`
    : '';
  const guess = suggestion ? mk` Did you mean ${code(withSlash(suggestion))}?${charges}` : '';
  const examples = joinMrkdwn(
    commands
      .filter((command) => command.word === 'search' || command.word === 'fit')
      .map((command) => code(withSlash(command.example))),
    ' or ',
  );
  const words = commands.map((command) => command.word).join(', ');
  return fitToLimits({
    text: mk`${warning}${guess}`,
    blocks: [
      section(mk`${warning}${guess}`),
      section(mk`*Commands:* ${escapeMrkdwn(words)}.${examples ? mk`\nTry ${examples}.` : ''}`),
      context(
        mk`${code(`${SLASH} help`)} lists every command with an example; ${code(`${SLASH} help <command>`)} explains one.`,
      ),
    ],
  });
}
