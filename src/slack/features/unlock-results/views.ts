import type { KnownBlock } from '@slack/types';
import { GIVE_UP_AFTER_HOURS } from '../../../domain/poll-cadence.ts';
import type { UnlockOutcome, UnlockResult } from '../../../domain/unlock-result.ts';
import type { UnlockWaiting } from '../../../domain/unlock-waiting.ts';
import { actions, context, section } from '../../views/blocks.ts';
import { confirmationCard } from '../../kit/confirmation-card.ts';
import { mentionUser, personLabel, plural } from '../../views/format.ts';
import { fitToLimits, LIMITS, linesToSections } from '../../views/limits.ts';
import { unlockOutcomeWords } from '../../kit/money-words.ts';
import { FOLLOW_UP_BLOCKS, followUpButtons } from '../follow-up/index.ts';
import type { Price, SlackMessage } from '../../views/types.ts';
import { escapeMrkdwn, mk } from '../../views/mrkdwn.ts';
import { exportButton } from '../../kit/row-buttons.ts';

type Kind = UnlockResult['kind'];

const WHAT = {
  email: { one: 'email', many: 'emails', unlock: 'email unlock' },
  phone: { one: 'phone number', many: 'phone numbers', unlock: 'phone unlock' },
} as const satisfies Record<Kind, { one: string; many: string; unlock: string }>;

/**
 * The thread reply when an unlock finished: one line per person asked for, with the email or phone, or
 * why there is none; then the people skipped before the unlock started.
 */
export function unlockResultReply(
  result: UnlockResult,
  names: Readonly<Record<string, string>> = {},
  /** The card's thread: the follow-up buttons answer there. */
  threadTs?: string,
  /** The event whose people list the unlock started from: the follow-up buttons carry it. */
  fromEventId?: string,
): SlackMessage {
  const what = WHAT[result.kind];
  const unlocked = result.people.filter((person) => person.value !== null).length;
  const title =
    result.status === 'failed' && unlocked === 0
      ? mk`:x: *The ${what.unlock} failed* — nothing was unlocked.`
      : mk`:white_check_mark: *${escapeMrkdwn(plural(unlocked, what.one, what.many))} unlocked* of ${result.people.length}.`;
  const lines = result.people.map(
    (person) =>
      mk`• ${personLabel(person.personnelId, names)} — ${
        person.value !== null
          ? escapeMrkdwn(person.value)
          : mk`_${escapeMrkdwn(person.problem ?? 'not unlocked')}_`
      }`,
  );
  const skipped = result.skipped.map(
    (skip) => mk`• ${personLabel(skip.personnelId, names)} — _skipped: ${escapeMrkdwn(skip.reason)}_`,
  );
  const blocks: KnownBlock[] = [section(title)];
  blocks.push(...linesToSections(lines, LIMITS.blocksPerMessage - 5 - FOLLOW_UP_BLOCKS, 'people'));
  if (skipped.length > 0) blocks.push(...linesToSections(skipped, 2, 'skipped'));
  const exportRow = unlockedContactsExport(result);
  if (exportRow) blocks.push(exportRow);
  blocks.push(...followUpButtons(result, names, threadTs, fromEventId));
  blocks.push(context('Contacts unlocked here stay unlocked for the account.'));
  const text = mk`${escapeMrkdwn(plural(unlocked, what.one, what.many))} unlocked of ${result.people.length}${
    result.skipped.length > 0 ? mk`, ${result.skipped.length} skipped` : ''
  }.`;
  return fitToLimits({ text, blocks });
}

/** "Export CSV" of the people of an unlock result: their profiles, with what is unlocked (free reads). */
function unlockedContactsExport(result: UnlockResult): KnownBlock | undefined {
  const personnelIds = result.people.map((person) => person.personnelId);
  if (personnelIds.length === 0 || personnelIds.length > 100) return undefined;
  return actions([exportButton({ list: 'contacts', query: { personnelIds }, page: 1 })], 'export');
}

/** A task submitted with a key since replaced (an unlock or its follow-up): the bot cannot read it. */
export function unlockAccountChangedReply(task: { requestedBy: string }): SlackMessage {
  const text =
    ':warning: I stopped waiting for these results: the service key they were asked for with is no longer connected, so I cannot fetch them.';
  return fitToLimits({
    text,
    blocks: [
      section(mk`${text} ${mentionUser(task.requestedBy)}`),
      context(
        'They are on the service account that was connected when this was confirmed: check them on the service, with that account.',
      ),
    ],
  });
}

/** The one thread reply when the service has not finished a task by the poller's deadline. */
export function unlockTimeoutReply(task: {
  kind: Kind;
  personnelIds: readonly string[];
  requestedBy: string;
}): SlackMessage {
  const what = WHAT[task.kind];
  const text = mk`:hourglass: No result after ${GIVE_UP_AFTER_HOURS} hours: I stopped waiting for the ${what.unlock} of ${escapeMrkdwn(plural(task.personnelIds.length, 'person', 'people'))}.`;
  return fitToLimits({
    text,
    blocks: [
      section(mk`${text} ${mentionUser(task.requestedBy)}`),
      context(
        'Run the unlock again later to see what arrived: contacts already unlocked are skipped and not charged again.',
      ),
    ],
  });
}

/** What the confirmation card showed when the charge went through, read back from the confirmation. */
export interface UnlockCard {
  description: string;
  price: Price;
  requestedBy: string;
  confirmedBy: string;
  creditsSpent: number;
  /** Null when it could not be read after the charge; undefined when none was stored. */
  balanceAfter: number | null | undefined;
}

/** The confirmation card again, its "Unlocking…" line replaced by how the unlock ended. */
export function unlockCardUpdate(card: UnlockCard, kind: Kind, outcome: UnlockOutcome): SlackMessage {
  return chargedCard(card, [unlockOutcomeWords(kind, outcome)]);
}

/** The confirmation card while the service works on the unlock: results pending, and what is happening. */
export function unlockWaitingCard(card: UnlockCard, waiting: UnlockWaiting): SlackMessage {
  return chargedCard(card, [unlockWaitingWords(waiting)], { resultsPending: true });
}

const AGE_UNIT = { seconds: 's', minutes: 'min', hours: 'h' } as const;

/** "Waiting for the service: 3 contacts, started 15 s ago; results usually arrive within a minute." */
export function unlockWaitingWords(waiting: UnlockWaiting): string {
  const { unit, count } = waiting.startedAgo;
  const started = count === 0 ? 'just started' : `started ${count} ${AGE_UNIT[unit]} ago`;
  const expected =
    waiting.expected === 'within-a-minute'
      ? 'results usually arrive within a minute'
      : `this one is taking longer than most; I will keep checking for up to ${GIVE_UP_AFTER_HOURS} hours`;
  return `Waiting for the service: ${plural(waiting.contacts, 'contact', 'contacts')}, ${started}; ${expected}.`;
}

function chargedCard(card: UnlockCard, outcome: string[], pending: { resultsPending?: true } = {}) {
  return confirmationCard({
    state: 'succeeded',
    description: card.description,
    price: card.price,
    requestedBy: card.requestedBy,
    confirmedBy: card.confirmedBy,
    outcome,
    creditsSpent: card.creditsSpent,
    balanceAfter: card.balanceAfter,
    ...pending,
  });
}
