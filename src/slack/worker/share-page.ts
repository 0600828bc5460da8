import { utcDate } from '../../time/local-time.ts';
import { parseCommand } from '../commands/index.ts';
import type { Job, JobContext } from '../kit/jobs.ts';
import type { ListKind } from '../kit/job-values.ts';
import { refusalFor } from '../kit/permissions.ts';
import { errorMessage } from '../views/messages.ts';
import type { Answer } from '../kit/answer.ts';
import type { RunCommand } from './commands.ts';
import type { WorkerDeps } from '../kit/worker-deps.ts';
import { listAudience, renderList } from '../features/lists/index.ts';

type ShareJob = Extract<Job, { kind: 'share' }>;
type PageJob = Extract<Job, { kind: 'page' }>;

/** Buttons on answers already shown: Share in channel, and a list's Previous / Next. */
export function shareAndPageJobs(deps: WorkerDeps, answer: Answer, runCommand: RunCommand) {
  const { eis, slack, now } = deps;
  /** Whether the user may read the list (its audience); told why not when they may not. */
  const mayRead = async (list: ListKind, context: JobContext): Promise<boolean> => {
    const refusal = await refusalFor(deps, listAudience(list), context, 'this list');
    if (refusal) await slack.ephemeral(context, errorMessage(refusal));
    return refusal === undefined;
  };

  /** The same command (or list page) again, for everyone (a command is checked where it runs). */
  async function shareJob({ share, context }: ShareJob): Promise<void> {
    if ('list' in share) {
      if (!(await mayRead(share.list, context))) return;
      return answer(context, await renderList(share.list, share.query, share.page, eis, utcDate(now())));
    }
    const parsed = parseCommand(share.text);
    if (!parsed.ok) return slack.ephemeral(context, errorMessage(parsed.problem));
    return runCommand(parsed.command, context, share.text);
  }

  /** Another page of a list: in place of the clicked one, or as a new private message. */
  async function pageJob({ list, query, page, fresh, context }: PageJob): Promise<void> {
    if (!(await mayRead(list, context))) return;
    const message = await renderList(list, query, page, eis, utcDate(now()));
    if (fresh) return slack.ephemeral(context, message);
    if (context.responseUrl) return slack.ephemeral(context, message, { replaceOriginal: true });
    if (context.messageTs) return slack.update(context.channelId, context.messageTs, message);
  }

  return { shareJob, pageJob };
}
