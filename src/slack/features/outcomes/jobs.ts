import { randomUUID } from 'node:crypto';
import {
  deletion,
  editedOutcome,
  mayChangeOutcome,
  newOutcome,
  OUTCOME_LIMITS,
  startsTooFarAhead,
} from '../../../domain/outcomes.ts';
import type { OutcomeEntry } from '../../../domain/ports/records.ts';
import { utcDate } from '../../../time/local-time.ts';
import type { Answer } from '../../kit/answer.ts';
import type { JobContext } from '../../kit/jobs.ts';
import { slackErrorCode } from '../../slack-errors.ts';
import { mentionUser } from '../../views/format.ts';
import { botNotice, errorMessage } from '../../views/messages.ts';
import { escapeMrkdwn, mk } from '../../views/mrkdwn.ts';
import { checkedWords, type OutcomeDeps, showOf } from './entry-checks.ts';
import type { OutcomeCommand } from './outcome-reading.ts';
import { outcomeCard, outcomeRefusal } from './views.ts';

export type { OutcomeDeps } from './entry-checks.ts';

/** `/events outcome …` in the worker: an entry checked, stored and posted; or one edited or deleted, its card updated. */

type Named<N extends OutcomeCommand['name']> = Extract<OutcomeCommand, { name: N }>;

const newId = () => randomUUID().replace(/-/g, '').slice(0, 8);

/** The entry to store, or what is wrong with it (nothing stored). */
async function entryOf(
  deps: OutcomeDeps,
  context: JobContext,
  command: Named<'outcome'>,
): Promise<OutcomeEntry | { refusal: string }> {
  const { teamId, channelId } = context;
  const [show, words] = await Promise.all([
    showOf(deps, command.eventId),
    checkedWords(deps, { teamId, channelId }, command),
  ]);
  if (!show)
    return {
      refusal: `The service knows no show with the id ${command.eventId}. Find ids with /events search.`,
    };
  if (startsTooFarAhead(show, utcDate(deps.now())))
    return {
      refusal: `${show.name ?? `Event ${show.eventId}`} starts ${show.dateStart ?? ''}, more than ${OUTCOME_LIMITS.aheadDays} days ahead: it has brought nothing yet.`,
    };
  if ('refusal' in words) return words;
  return newOutcome({
    id: newId(),
    teamId,
    channelId,
    show,
    ...words,
    loggedBy: context.userId,
    at: deps.now(),
  });
}

async function logOutcome(deps: OutcomeDeps, context: JobContext, command: Named<'outcome'>, answer: Answer) {
  const entry = await entryOf(deps, context, command);
  if ('refusal' in entry) {
    // From the form (its card would go in a thread): the refusal is the logger's alone, not the thread's.
    if (context.threadTs) return deps.slack.ephemeral(context, outcomeRefusal(entry.refusal));
    return answer(context, outcomeRefusal(entry.refusal));
  }
  // A new id for the rare one already taken.
  const stored = (await deps.store.outcomes.add(entry)) ? entry : { ...entry, id: newId() };
  if (stored !== entry && !(await deps.store.outcomes.add(stored)))
    return answer(
      context,
      errorMessage('The entry could not be stored; please try again. Nothing was logged.'),
    );
  // From Log for a show: in the thread of the message (or card) it was logged from.
  const cardTs = await deps.slack.post(context, outcomeCard(stored), context.threadTs);
  if (!cardTs) return answer(context, outcomeCard(stored)); // the bot is not in the channel: the logger sees it
  await deps.store.outcomes.setCard(stored.teamId, stored.id, cardTs);
  // The card is the answer, for everyone: the "working…" line goes.
  if (context.placeholder) await deps.slack.deleteOriginal(context);
}

/** Whether the user is a workspace admin (the one check's standing: a guest or outsider never is). */
async function isAdmin(deps: OutcomeDeps, context: JobContext): Promise<boolean> {
  const policy = await deps.policyIn(context.channelId || undefined);
  const standing = await deps.workspaceRoles.standing(context.teamId, context.userId, policy);
  return standing.kind === 'member' && standing.admin;
}

/** The entry this user may change, or the refusal to answer (another workspace's is none of theirs). */
async function changeable(deps: OutcomeDeps, context: JobContext, id: string, done: string) {
  const { teamId, userId } = context;
  const entry = await deps.store.outcomes.get(teamId, id);
  if (!entry) return errorMessage(`There is no outcome entry ${id} in this workspace. ${done}`);
  if (entry.deletedAt)
    return botNotice(
      mk`Entry ${escapeMrkdwn(id)} was deleted already, by ${mentionUser(entry.deletedBy ?? '')}.`,
    );
  const admin = entry.loggedBy !== userId && (await isAdmin(deps, context));
  if (!mayChangeOutcome(entry, { userId, admin }))
    return errorMessage(
      `Only the person who logged this entry, or a workspace admin, may change or delete it. ${done}`,
    );
  return entry;
}

/** The entry's card in the channel, as it is now (a card Slack will not update is logged, not thrown). */
async function updateCard(deps: OutcomeDeps, entry: OutcomeEntry) {
  if (!entry.cardTs) return;
  await deps.slack.update(entry.channelId, entry.cardTs, outcomeCard(entry)).catch((error: unknown) =>
    deps.logger.warn('the outcome’s card could not be updated', {
      slackError: slackErrorCode(error),
      error,
    }),
  );
}

async function editOutcome(
  deps: OutcomeDeps,
  context: JobContext,
  command: Named<'outcome-edit'>,
  answer: Answer,
) {
  const entry = await changeable(deps, context, command.id, 'Nothing was changed.');
  if (!('type' in entry)) return answer(context, entry);
  const words = await checkedWords(deps, entry, command);
  if ('refusal' in words) return answer(context, outcomeRefusal(words.refusal));
  const edited = editedOutcome(entry, words, context.userId, deps.now());
  if (!(await deps.store.outcomes.replace(edited, entry.history.length)))
    return answer(
      context,
      errorMessage('The entry changed meanwhile; nothing was changed. Look at its card and try again.'),
    );
  await updateCard(deps, edited);
  return answer(
    context,
    botNotice(mk`Changed entry ${escapeMrkdwn(edited.id)}; what it said before is kept.`),
  );
}

async function deleteOutcome(deps: OutcomeDeps, context: JobContext, id: string, answer: Answer) {
  const entry = await changeable(deps, context, id, 'Nothing was deleted.');
  if (!('type' in entry)) return answer(context, entry);
  const deleted = await deps.store.outcomes.markDeleted(
    entry.teamId,
    id,
    deletion(context.userId, deps.now()),
  );
  if (!deleted) return answer(context, botNotice(mk`Entry ${escapeMrkdwn(id)} was deleted already.`));
  await updateCard(deps, deleted);
  return answer(
    context,
    botNotice(
      mk`Deleted entry ${escapeMrkdwn(id)}; the record keeps it, marked deleted by ${mentionUser(context.userId)}.`,
    ),
  );
}

export function runOutcomeCommand(
  deps: OutcomeDeps,
  command: OutcomeCommand,
  context: JobContext,
  answer: Answer,
) {
  switch (command.name) {
    case 'outcome':
      return logOutcome(deps, context, command, answer);
    case 'outcome-edit':
      return editOutcome(deps, context, command, answer);
    case 'outcome-delete':
      return deleteOutcome(deps, context, command.id, answer);
  }
}
