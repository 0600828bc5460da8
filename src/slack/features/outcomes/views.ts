import type { OutcomeEntry } from '../../../domain/ports/records.ts';
import { moneyWords } from '../../kit/money-words.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { actions, button, context, plainText, section } from '../../views/blocks.ts';
import { code, formatDateRange, mentionUser, utcDateTime } from '../../views/format.ts';
import { fitToLimits } from '../../views/limits.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn } from '../../views/mrkdwn.ts';
import type { SlackMessage } from '../../views/types.ts';
import type { OutcomeValue } from './buttons.ts';
import { KIND_LABELS, OUTCOME_EXAMPLE, OUTCOME_USAGE, outcomeUsage } from './outcome-words.ts';

/** An outcome's card in the channel: what the show brought, whose, and Delete; once deleted, that it was. */

/** `Lead (B)`, `Won 48,000 EUR`. */
function whatWords(entry: OutcomeEntry): Mrkdwn {
  const grade = entry.grade ? ` (${entry.grade})` : '';
  const amount = entry.hundredths === undefined ? '' : ` ${moneyWords(entry.hundredths, entry.currency)}`;
  return escapeMrkdwn(`${KIND_LABELS[entry.kind]}${grade}${amount}`);
}

const showWords = (entry: OutcomeEntry): Mrkdwn =>
  mk`*${escapeMrkdwn(entry.showName ?? `Event ${entry.eventId}`)}* (${formatDateRange(entry.showDateStart, entry.showDateEnd)}, event ${escapeMrkdwn(entry.eventId)})`;

function accountWords(entry: OutcomeEntry): Mrkdwn {
  const company =
    entry.company && entry.company.name.toLowerCase() !== entry.account.toLowerCase()
      ? mk` (watched: ${escapeMrkdwn(entry.company.name)})`
      : entry.company
        ? mk` (watched)`
        : mk``;
  return mk`Account: *${escapeMrkdwn(entry.account)}*${company}`;
}

const deleteButton = (entry: OutcomeEntry) =>
  button('Delete', ACTION_IDS.outcomeDelete, { id: entry.id } satisfies OutcomeValue, {
    style: 'danger',
    confirm: {
      title: plainText('Delete this entry?'),
      text: plainText('It leaves the show’s return; the record keeps who deleted it and when.'),
      confirm: plainText('Delete'),
      deny: plainText('Keep'),
    },
  });

/** The card of an entry as it is now: logged (with Delete) or deleted (no buttons). */
export function outcomeCard(entry: OutcomeEntry): SlackMessage {
  const deleted = entry.deletedAt !== undefined;
  const headline = mk`${whatWords(entry)} from ${showWords(entry)}`;
  const lines = [
    deleted ? mk`~${headline}~` : mk`:bar_chart: ${headline}`,
    accountWords(entry),
    ...(entry.note ? [mk`Note: ${escapeMrkdwn(entry.note)}`] : []),
  ];
  const edit = entry.history.findLast((change) => change.action === 'edited');
  const logged = mk`Logged by ${mentionUser(entry.loggedBy)} · entry ${code(entry.id)}${
    edit ? mk` · edited by ${mentionUser(edit.by)} on ${utcDateTime(new Date(edit.at))}` : mk``
  }`;
  const footer =
    deleted && entry.deletedBy
      ? mk`${logged} · *Deleted* by ${mentionUser(entry.deletedBy)} on ${utcDateTime(new Date(entry.deletedAt ?? ''))}; the record keeps it.`
      : logged;
  const blocks = [
    section(joinMrkdwn(lines, '\n')),
    context(footer),
    ...(deleted ? [] : [actions([deleteButton(entry)])]),
  ].filter((block) => block !== undefined);
  const text = deleted
    ? mk`Deleted: ${whatWords(entry)}, ${escapeMrkdwn(entry.account)}`
    : mk`${whatWords(entry)}: ${escapeMrkdwn(entry.account)}, logged by ${mentionUser(entry.loggedBy)}`;
  return fitToLimits({ text, blocks });
}

/** A refusal found when the entry is run (the show, the currency): what was wrong, nothing logged, the usage. */
export function outcomeRefusal(problem: string): SlackMessage {
  const text = mk`:x: ${escapeMrkdwn(problem)} Nothing was logged.`;
  return fitToLimits({
    text,
    blocks: [
      section(text),
      section(
        mk`*Usage:* ${code(`/events ${OUTCOME_USAGE}`)}\n*Example:* ${code(`/events ${OUTCOME_EXAMPLE}`)}`,
      ),
      context(escapeMrkdwn(outcomeUsage())),
    ],
  });
}
