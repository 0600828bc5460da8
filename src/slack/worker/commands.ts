import {
  type Answers,
  type AnswerTools,
  type CommandAnswer,
  tryHelpMessage,
} from '../kit/command-answers.ts';
import {
  audienceOf,
  chargeActionOf,
  type Command,
  commandLabel,
  type CommandWords,
  parseCommand,
  wordOf,
} from '../commands/index.ts';
import { refusalFor } from '../kit/permissions.ts';
import type { Job, JobContext } from '../kit/jobs.ts';
import { BUTTON_COMMANDS } from '../commands/buttons.ts';
import { buttonRun, OUT_OF_DATE } from '../kit/command-buttons.ts';
import { errorMessage } from '../views/messages.ts';
import type { Answer } from '../kit/answer.ts';
import type { AskToConfirm } from '../features/charges/jobs.ts';
import type { WorkerDeps } from '../kit/worker-deps.ts';
import { withPublicShowIds } from '../kit/show-ids.ts';
import { accountAnswers } from '../features/account/answers.ts';
import { chargeAnswers } from '../features/charges/answers.ts';
import { compareAnswers } from '../features/compare/answers.ts';
import { digestAnswers } from '../features/digests/answers.ts';
import { eventAnswers } from '../features/events/answers.ts';
import { listAnswers } from '../features/lists/answers.ts';
import { planAnswers } from '../features/plan/answers.ts';
import { outcomeAnswers } from '../features/outcomes/answers.ts';
import { returnAnswers } from '../features/returns/answers.ts';
import { watchAnswers } from '../features/watch/answers.ts';

export type RunCommand = CommandAnswer<Command>;
type ButtonJob = Extract<Job, { kind: 'button' }>;

/**
 * Every registered word's answer, each from its room's `answers.ts`: a word (or a room) without its
 * answer does not compile. Words that always spend credits have none (they are confirmed first).
 */
export function answersOf(tools: AnswerTools): Answers<CommandWords> {
  return {
    // The listener answers help itself; one that reaches the worker (shared, say) gets the pointer.
    help: (_command, context) => tools.answer(context, tryHelpMessage()),
    ...listAnswers(tools),
    ...eventAnswers(tools),
    ...compareAnswers(tools),
    ...accountAnswers(tools),
    ...chargeAnswers(tools),
    ...digestAnswers(tools),
    ...watchAnswers(tools),
    ...planAnswers(tools),
    ...outcomeAnswers(tools),
    ...returnAnswers(tools),
  };
}

/**
 * The words whose shows are kept or compared (the plan, compare): their ids go on as the shows' public
 * ids (`src/domain/show-ids.ts`). A charge is converted while its card is read (`askToConfirm`), and
 * `plan add` keeps the public id of the detail it reads anyway: neither waits for a read of its own.
 * The other words only show what the service answers, and their cards name the show by the public id
 * the service answers with, at no extra call.
 */
const KEEPING_WORDS: ReadonlySet<string> = new Set(['plan', 'compare', 'return']);
const keepsShows = (command: Command) =>
  KEEPING_WORDS.has(wordOf(command)) &&
  chargeActionOf(command) === undefined &&
  !('name' in command && command.name === 'plan-add');

/** `/events` commands: a charge asked for (its word's `charge`), or the word's own answer. */
export function commandJobs(deps: WorkerDeps, answer: Answer, askToConfirm: AskToConfirm) {
  // By word: each answer is handed only the commands its own word's parser reads (`wordOf`).
  const answers = answersOf({ deps, answer }) as unknown as Readonly<Record<string, RunCommand | undefined>>;

  const runCommand: RunCommand = async (given, context, text) => {
    // Whom the command is for, checked before anything runs or is asked for (kit/permissions.ts).
    const refusal = await refusalFor(deps, audienceOf(given), context, `\`/events ${commandLabel(given)}\``);
    if (refusal) return answer(context, errorMessage(refusal));
    const command = keepsShows(given) ? await withPublicShowIds(deps.showIds, given) : given;
    const action = chargeActionOf(command);
    if (action) {
      // A decision for the channel: the card is public, and the "working…" line goes.
      await askToConfirm(action, context);
      if (context.placeholder) await deps.slack.deleteOriginal(context);
      return;
    }
    const run = answers[wordOf(command)];
    return run ? run(command, context, text) : answer(context, tryHelpMessage());
  };

  /** An `/events` command, typed or from a form, parsed again here. */
  async function commandJob({ text, context }: { text: string; context: JobContext }): Promise<void> {
    const parsed = parseCommand(text);
    if (!parsed.ok) return answer(context, errorMessage(parsed.problem));
    return runCommand(parsed.command, context, text);
  }

  /** A button standing for an `/events` command: its value read again into the typed command, no text parsed. */
  async function buttonJob({ action, value, context }: ButtonJob): Promise<void> {
    const run = buttonRun(BUTTON_COMMANDS, action, value);
    if (!run) return answer(context, errorMessage(OUT_OF_DATE));
    return runCommand(run.command, context, run.words);
  }

  return { runCommand, commandJob, buttonJob };
}

/** The words a button's job stands for (its "found nothing for …" answer names them); undefined when out of date. */
export const buttonWords = ({ action, value }: ButtonJob): string | undefined =>
  buttonRun(BUTTON_COMMANDS, action, value)?.words;
