import type { JobContext } from '../kit/jobs.ts';
import { errorMessage } from '../views/messages.ts';
import type { Answer } from '../kit/answer.ts';
import type { WorkerDeps } from '../kit/worker-deps.ts';
import type { CommandOf } from './command-types.ts';

/**
 * How the worker answers `/events` words. Each room gives, in its `answers.ts`, one answer per word of
 * its `commands.ts` (`Answers<typeof ROOM_COMMANDS>`); the worker's registry (worker/commands.ts)
 * wants one per registered word, so a word without its answer does not compile. Apart from the words,
 * so that the Slack function, which reads commands, loads no room's views or jobs.
 */

/** The answer to `help` in the worker (the listener answers it first), and to what has no answer. */
export const tryHelpMessage = () => errorMessage('Try `/events help` for the list of commands.');

/** What the worker gives a room to answer with: its deps, and where a free answer goes. */
export interface AnswerTools {
  deps: WorkerDeps;
  answer: Answer;
}

/** The answer to one command; `text` is the command as typed (a Share button runs it again). */
export type CommandAnswer<C> = (command: C, context: JobContext, text: string) => Promise<void>;

/** A word every form of which spends credits (its `charge` never says free): confirmed, never answered. */
type AlwaysCharges<D> = D extends { charge: (command: never) => infer Action }
  ? undefined extends Action
    ? false
    : true
  : false;

/** One answer per word of `R`, but for the words that always ask to confirm a charge instead. */
export type Answers<R> = {
  readonly [W in keyof R as AlwaysCharges<R[W]> extends true ? never : W]: CommandAnswer<CommandOf<R[W]>>;
};
