import type { Button, Checkboxes, KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { FORM_IDS } from '../../views/form-ids.ts';
import {
  DEFAULT_OUTREACH,
  type FollowUpResult,
  type OutreachProblem,
  type OutreachSkipReason,
} from '../../../domain/follow-up.ts';
import type { UnlockResult } from '../../../domain/unlock-result.ts';
import type { MayConfirm } from '../../../domain/approval.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { actions, button, context, input, plainText, section } from '../../views/blocks.ts';
import { confirmationCard } from '../../kit/confirmation-card.ts';
import { mentionUser, personLabel, plural } from '../../views/format.ts';
import { fitToLimits, LIMITS, linesToSections } from '../../views/limits.ts';
import { FIELD_ACTION } from '../../views/modal-inputs.ts';
import type { Price, SlackMessage } from '../../views/types.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn, truncate } from '../../views/mrkdwn.ts';
import type { FollowUpValue } from '../../kit/job-values.ts';

type Names = Readonly<Record<string, string>>;

/** People with their own buttons under an email unlock's results: two buttons each, 12 fit one block. */
export const PEOPLE_WITH_BUTTONS = 12;
/** At most this many blocks come from `followUpButtons`. */
export const FOLLOW_UP_BLOCKS = 3;

const nameOf = (personnelId: string, names: Names) => names[personnelId]?.trim() || `Person ${personnelId}`;

/** Who a follow-up button is for: the people, the unlock's thread, and the event of their list. */
interface ButtonTarget {
  personnelIds: readonly string[];
  names: Names;
  threadTs: string | undefined;
  eventId: string | undefined;
}

/** The people's names a button carries, when they fit its value; else none (ids are enough). */
function followUpButton(
  text: string,
  actionId: typeof ACTION_IDS.followUpOutreach | typeof ACTION_IDS.followUpLinkedin,
  suffix: string,
  target: ButtonTarget,
): Button | undefined {
  const { personnelIds, names, threadTs, eventId } = target;
  const known = Object.fromEntries(personnelIds.filter((id) => names[id]).map((id) => [id, names[id] ?? '']));
  const label = truncate(text, LIMITS.buttonText);
  const element =
    button(label, actionId, { personnelIds, names: known, threadTs, eventId }) ??
    button(label, actionId, { personnelIds, threadTs, eventId });
  return element && { ...element, action_id: `${actionId}.${suffix}` };
}

/**
 * Under an email unlock's results: "Draft outreach for all" (free), then per person (the first 12
 * found) "Draft outreach" and "LinkedIn activity" (which asks for a confirmation). At most two
 * actions blocks of at most 25 buttons. `eventId`: the event whose people list the unlock started
 * from, carried so the drafts are written for it.
 */
export function followUpButtons(
  result: UnlockResult,
  names: Names = {},
  threadTs?: string,
  eventId?: string,
): KnownBlock[] {
  if (result.kind !== 'email') return [];
  const found = result.people.filter((person) => person.value !== null).map((person) => person.personnelId);
  if (found.length === 0) return [];
  const target = (personnelIds: readonly string[]): ButtonTarget => ({
    personnelIds,
    names,
    threadTs,
    eventId,
  });
  const blocks: (KnownBlock | undefined)[] = [
    actions(
      [
        followUpButton(
          found.length === 1 ? 'Draft outreach' : mk`Draft outreach for all ${found.length}`,
          ACTION_IDS.followUpOutreach,
          'all',
          target(found),
        ),
        found.length === 1
          ? followUpButton('LinkedIn activity', ACTION_IDS.followUpLinkedin, 'all', target(found))
          : undefined,
      ],
      'follow-up-all',
    ),
  ];
  if (found.length > 1) {
    const each = found
      .slice(0, PEOPLE_WITH_BUTTONS)
      .flatMap((id, index) => [
        followUpButton(
          `Draft · ${nameOf(id, names)}`,
          ACTION_IDS.followUpOutreach,
          String(index),
          target([id]),
        ),
        followUpButton(
          `LinkedIn · ${nameOf(id, names)}`,
          ACTION_IDS.followUpLinkedin,
          String(index),
          target([id]),
        ),
      ]);
    blocks.push(actions(each, 'follow-up-people'));
    if (found.length > PEOPLE_WITH_BUTTONS)
      blocks.push(
        context(
          mk`Buttons for the first ${PEOPLE_WITH_BUTTONS}; “Draft outreach for all” covers all ${found.length}.`,
        ),
      );
  }
  return blocks.filter((block) => block !== undefined);
}

/** The one thread reply with the drafts (or LinkedIn activity) once every person's is over. */
export function followUpReply(result: FollowUpResult, names: Names = {}): SlackMessage {
  return result.kind === 'outreach' ? draftsReply(result, names) : linkedinReply(result, names);
}

/** Why someone got no drafts, in words that say what to do about it. */
const SKIP_WORDS = {
  'no-event':
    'the service links them to no event, and they were not taken from an event’s people list, so there is no event to write the message for. Open the people list of the show you want to meet them at (`/events people <event id>`), unlock their emails there, then Draft outreach.',
  'not-found': 'the service does not know this person id. Take them from an event’s people list again.',
  'invalid-id': 'this is not a personnel id the service takes. Take them from an event’s people list again.',
  'not-at-event':
    'the service says they are not on the event the drafts were for. Draft for them from the people list of a show they attend.',
  refused:
    'the service refused to draft for them without saying why. Try Draft outreach for them again later.',
} as const satisfies Record<OutreachSkipReason, string>;

const PROBLEM_WORDS: Record<OutreachProblem, string> = {
  'no-event': 'no event to write the message for. Draft for them again from an event’s people list.',
  'generation-failed':
    'the service could not write a draft for this person. Try Draft outreach for them again.',
};

/** A stored skip reason in words (mrkdwn); a reason stored as words (an unlock's, an older task's) escaped. */
function skipWords(reason: string): Mrkdwn {
  return Object.hasOwn(SKIP_WORDS, reason)
    ? mk`${SKIP_WORDS[reason as OutreachSkipReason]}`
    : escapeMrkdwn(reason);
}

/** Names listed on one skipped line before "and N more". */
const NAMES_PER_REASON = 10;

/** One line per reason: who was skipped for it, by name, then why and what to do. */
function skippedLines(skipped: FollowUpResult['skipped'], names: Names): Mrkdwn[] {
  const byReason = new Map<string, string[]>();
  for (const skip of skipped)
    byReason.set(skip.reason, [...(byReason.get(skip.reason) ?? []), skip.personnelId]);
  return [...byReason].map(([reason, ids]) => {
    const listed = ids.slice(0, NAMES_PER_REASON).map((id) => personLabel(id, names));
    if (ids.length > NAMES_PER_REASON) listed.push(mk`${ids.length - NAMES_PER_REASON} more`);
    return mk`• Skipped ${joinMrkdwn(listed, ', ')}: ${skipWords(reason)}`;
  });
}

function draftsReply(result: Extract<FollowUpResult, { kind: 'outreach' }>, names: Names): SlackMessage {
  const ready = result.people.filter((person) => person.drafts);
  const title = mk`:memo: *Outreach drafts* for ${ready.length} of ${result.people.length}. Nothing was sent: copy, edit and send them yourself.`;
  const lines = result.people.map((person) => {
    if (!person.drafts)
      return mk`• ${personLabel(person.personnelId, names)} — _${escapeMrkdwn(PROBLEM_WORDS[person.problem ?? 'generation-failed'])}_`;
    const email = person.drafts.email ? mk`\n>*Email:* ${escapeMrkdwn(person.drafts.email)}` : '';
    const linkedin = person.drafts.linkedin ? mk`\n>*LinkedIn:* ${escapeMrkdwn(person.drafts.linkedin)}` : '';
    return mk`• ${personLabel(person.personnelId, names)}${email}${linkedin}`;
  });
  const blocks: KnownBlock[] = [section(title)];
  blocks.push(...linesToSections(lines, LIMITS.blocksPerMessage - 4, 'people'));
  const skipped = skippedLines(result.skipped, names);
  if (skipped.length > 0) blocks.push(...linesToSections(skipped, 2, 'skipped'));
  blocks.push(context('Drafted by the service for each person’s next event. Drafting spends no credits.'));
  return fitToLimits({ text: mk`Outreach drafts for ${ready.length} of ${result.people.length}.`, blocks });
}

function activityWords(activity: {
  level: string | null;
  isActive: boolean | null;
  latestPostAt: string | null;
}) {
  const level = activity.level ? mk`${escapeMrkdwn(activity.level)} activity` : 'activity level unknown';
  const active = activity.isActive === null ? '' : activity.isActive ? ', active' : ', not active';
  const latest = activity.latestPostAt
    ? mk`, last post ${escapeMrkdwn(activity.latestPostAt.slice(0, 10))}`
    : '';
  return mk`${level}${active}${latest}`;
}

function linkedinReply(result: Extract<FollowUpResult, { kind: 'linkedin' }>, names: Names): SlackMessage {
  const ready = result.people.filter((person) => person.activity);
  const title = mk`:bar_chart: *LinkedIn activity* for ${ready.length} of ${result.people.length}.`;
  const lines = result.people.map(
    (person) =>
      mk`• ${personLabel(person.personnelId, names)} — ${
        person.activity
          ? activityWords(person.activity)
          : mk`_${escapeMrkdwn(person.problem ?? 'no result')}_`
      }`,
  );
  const blocks: KnownBlock[] = [
    section(title),
    ...linesToSections(lines, LIMITS.blocksPerMessage - 4, 'people'),
  ];
  const skipped = skippedLines(result.skipped, names);
  if (skipped.length > 0) blocks.push(...linesToSections(skipped, 2, 'skipped'));
  return fitToLimits({ text: mk`LinkedIn activity for ${ready.length} of ${result.people.length}.`, blocks });
}

/** The one thread reply when a follow-up never finished. */
export function followUpTimeoutReply(task: {
  followUp?: { kind: string } | undefined;
  requestedBy: string;
}): SlackMessage {
  const what = task.followUp?.kind === 'linkedin' ? 'LinkedIn activity analysis' : 'outreach drafts';
  const text = mk`:hourglass: The ${what} did not arrive: I stopped waiting.`;
  return fitToLimits({
    text,
    blocks: [section(mk`${text} ${mentionUser(task.requestedBy)}`), context('Try the button again later.')],
  });
}

/** The Draft outreach modal's callback id (not `modal.…`: its submission is the follow-up's own). */
export const OUTREACH_MODAL = FORM_IDS.outreach;

/** Who the drafts are for and where they go, carried by the modal (`private_metadata`). */
export type OutreachTarget = FollowUpValue & { channelId: string };

const choice = (text: string, value: string): PlainTextOption => ({ text: plainText(text), value });

/** Checkboxes with the options whose value is in `initial` ticked. */
function checkboxes(options: PlainTextOption[], initial: readonly string[] = []): Checkboxes {
  const ticked = options.filter((candidate) => initial.includes(candidate.value ?? ''));
  return {
    type: 'checkboxes',
    action_id: FIELD_ACTION,
    options,
    ...(ticked.length > 0 ? { initial_options: ticked } : {}),
  };
}

/**
 * What to draft, asked when Draft outreach is clicked: the channels, the LinkedIn variants and a
 * purpose, as the service's generation request takes them, with the usual choice preselected.
 */
export function outreachModal(target: OutreachTarget): ModalView {
  const who =
    target.personnelIds.length === 1
      ? nameOf(target.personnelIds[0] ?? '', target.names ?? {})
      : plural(target.personnelIds.length, 'person', 'people');
  return {
    type: 'modal',
    callback_id: OUTREACH_MODAL,
    title: plainText('Draft outreach'),
    submit: plainText('Draft'),
    close: plainText('Cancel'),
    private_metadata: JSON.stringify(target),
    blocks: [
      section(
        mk`Drafts for *${escapeMrkdwn(who)}*, posted in the thread. Nothing is sent, and drafting spends no credits.`,
      ),
      input(
        'channels',
        'Channels',
        checkboxes(
          [choice('Email', 'email'), choice('LinkedIn message', 'linkedin_message')],
          DEFAULT_OUTREACH.channels,
        ),
        { optional: false },
      ),
      input(
        'linkedin_types',
        'LinkedIn messages',
        checkboxes(
          [
            choice('Connection note', 'connection_note'),
            choice('InMail', 'inmail'),
            choice('Message to a connection', 'connected_message'),
          ],
          DEFAULT_OUTREACH.linkedinMessageTypes,
        ),
        { hint: 'Used when LinkedIn is chosen.' },
      ),
      input(
        'purpose',
        'Purpose',
        {
          type: 'plain_text_input',
          action_id: FIELD_ACTION,
          max_length: 500,
          placeholder: plainText('Book a product demo'),
        },
        { hint: 'What the message should ask for or offer.' },
      ),
    ],
  };
}

/** Told only to whoever clicked Draft outreach: how many are drafted for, and who is skipped and why. */
export function outreachStartedNotice(
  started: { drafting: number; skipped: FollowUpResult['skipped'] },
  names: Names = {},
): SlackMessage {
  const { drafting, skipped } = started;
  const head =
    drafting === 0
      ? mk`No drafts could be started for these people.`
      : mk`Drafting outreach for ${escapeMrkdwn(plural(drafting, 'person', 'people'))}${
          skipped.length > 0 ? mk` (${skipped.length} skipped)` : ''
        }… The drafts will arrive in this thread. Drafting spends no credits.`;
  const blocks: KnownBlock[] = [section(mk`:information_source: ${head}`)];
  blocks.push(...linesToSections(skippedLines(skipped, names), 3, 'skipped'));
  return fitToLimits({ text: head, blocks });
}

/** LinkedIn activity's price: none is published (the amount reserved under the cap is not shown). */
const LINKEDIN_PRICE: Price = { credits: 0, upTo: true, kind: 'linkedin-activity' };

/**
 * The LinkedIn activity confirmation card: like every charge's card, but the price is unknown, so it
 * says so (no "up to") and the final state reads the credits spent from the balance.
 */
export function linkedinPendingCard(input: {
  description: string;
  requestedBy: string;
  mayConfirm: MayConfirm;
  confirmationId: string;
  balance: number | null;
  buttons: boolean;
  /** The confirmation's own deadline (ISO), which the card says. */
  deadline: string;
}): SlackMessage {
  const { deadline, ...card } = input;
  return confirmationCard({ ...card, state: 'pending', price: LINKEDIN_PRICE, expiresAt: deadline });
}

/** The card once the analysis ran (or failed): the stored outcome, with the price as unpublished. */
export function linkedinFinalCard(input: {
  description: string;
  requestedBy: string;
  confirmedBy: string;
  succeeded: boolean;
  lines: readonly string[];
  creditsSpent: number | undefined;
  balanceAfter: number | null | undefined;
}): SlackMessage {
  const card = confirmationCard(
    input.succeeded
      ? {
          state: 'succeeded',
          description: input.description,
          price: LINKEDIN_PRICE,
          requestedBy: input.requestedBy,
          confirmedBy: input.confirmedBy,
          outcome: input.lines,
          creditsSpent: input.creditsSpent ?? 0,
          balanceAfter: input.balanceAfter,
        }
      : {
          state: 'failed',
          description: input.description,
          price: LINKEDIN_PRICE,
          requestedBy: input.requestedBy,
          confirmedBy: input.confirmedBy,
          errorMessage: input.lines.join(' '),
          ...(input.creditsSpent !== undefined ? { creditsSpent: input.creditsSpent } : {}),
        },
  );
  return card;
}
