import type { Button, Checkboxes, KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { plural } from '../charges/charge-words.ts';
import { DEFAULT_OUTREACH, type FollowUpResult } from '../../../domain/follow-up.ts';
import type { FollowUpValue } from './buttons.ts';
import type { UnlockResult } from '../../../domain/unlock-result.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { actions, button, context, input, plainText, section } from '../../views/blocks.ts';
import { confirmationCard } from '../charges/views.ts';
import { mentionUser, personLabel } from '../../views/format.ts';
import { escapeMrkdwn, fitToLimits, LIMITS, linesToSections, truncate } from '../../views/limits.ts';
import { FIELD_ACTION } from '../../views/modal-inputs.ts';
import { confirmDialogWords, creditsWords, priceWords, spendWords } from '../charges/money-words.ts';
import type { Price, SlackMessage } from '../../views/types.ts';

type Names = Readonly<Record<string, string>>;

/** People with their own buttons under an email unlock's results: two buttons each, 12 fit one block. */
export const PEOPLE_WITH_BUTTONS = 12;
/** At most this many blocks come from `followUpButtons`. */
export const FOLLOW_UP_BLOCKS = 3;

const nameOf = (personnelId: string, names: Names) => names[personnelId]?.trim() || `Person ${personnelId}`;

/** The people's names a button carries, when they fit its value; else none (ids are enough). */
function followUpButton(
  text: string,
  actionId: typeof ACTION_IDS.followUpOutreach | typeof ACTION_IDS.followUpLinkedin,
  suffix: string,
  personnelIds: readonly string[],
  names: Names,
  threadTs: string | undefined,
): Button | undefined {
  const known = Object.fromEntries(personnelIds.filter((id) => names[id]).map((id) => [id, names[id] ?? '']));
  const element =
    button(truncate(text, LIMITS.buttonText), actionId, { personnelIds, names: known, threadTs }) ??
    button(truncate(text, LIMITS.buttonText), actionId, { personnelIds, threadTs });
  return element && { ...element, action_id: `${actionId}.${suffix}` };
}

/**
 * Under an email unlock's results: "Draft outreach for all" (free), then per person (the first 12
 * found) "Draft outreach" and "LinkedIn activity" (which asks for a confirmation). At most two
 * actions blocks of at most 25 buttons.
 */
export function followUpButtons(result: UnlockResult, names: Names = {}, threadTs?: string): KnownBlock[] {
  if (result.kind !== 'email') return [];
  const found = result.people.filter((person) => person.value !== null).map((person) => person.personnelId);
  if (found.length === 0) return [];
  const blocks: (KnownBlock | undefined)[] = [
    actions(
      [
        followUpButton(
          found.length === 1 ? 'Draft outreach' : `Draft outreach for all ${found.length}`,
          ACTION_IDS.followUpOutreach,
          'all',
          found,
          names,
          threadTs,
        ),
        found.length === 1
          ? followUpButton('LinkedIn activity', ACTION_IDS.followUpLinkedin, 'all', found, names, threadTs)
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
          [id],
          names,
          threadTs,
        ),
        followUpButton(
          `LinkedIn · ${nameOf(id, names)}`,
          ACTION_IDS.followUpLinkedin,
          String(index),
          [id],
          names,
          threadTs,
        ),
      ]);
    blocks.push(actions(each, 'follow-up-people'));
    if (found.length > PEOPLE_WITH_BUTTONS)
      blocks.push(
        context(
          `Buttons for the first ${PEOPLE_WITH_BUTTONS}; “Draft outreach for all” covers all ${found.length}.`,
        ),
      );
  }
  return blocks.filter((block) => block !== undefined);
}

/** The one thread reply with the drafts (or LinkedIn activity) once every person's is over. */
export function followUpReply(result: FollowUpResult, names: Names = {}): SlackMessage {
  return result.kind === 'outreach' ? draftsReply(result, names) : linkedinReply(result, names);
}

function skippedLines(result: FollowUpResult, names: Names): string[] {
  return result.skipped.map(
    (skip) => `• ${personLabel(skip.personnelId, names)} — _skipped: ${escapeMrkdwn(skip.reason)}_`,
  );
}

function draftsReply(result: Extract<FollowUpResult, { kind: 'outreach' }>, names: Names): SlackMessage {
  const ready = result.people.filter((person) => person.drafts);
  const title = `:memo: *Outreach drafts* for ${ready.length} of ${result.people.length}. Nothing was sent: copy, edit and send them yourself.`;
  const lines = result.people.map((person) => {
    if (!person.drafts)
      return `• ${personLabel(person.personnelId, names)} — _${escapeMrkdwn(person.problem ?? 'no draft')}_`;
    const email = person.drafts.email ? `\n>*Email:* ${escapeMrkdwn(person.drafts.email)}` : '';
    const linkedin = person.drafts.linkedin ? `\n>*LinkedIn:* ${escapeMrkdwn(person.drafts.linkedin)}` : '';
    return `• ${personLabel(person.personnelId, names)}${email}${linkedin}`;
  });
  const blocks: KnownBlock[] = [section(title)];
  blocks.push(...linesToSections(lines, LIMITS.blocksPerMessage - 4, 'people'));
  const skipped = skippedLines(result, names);
  if (skipped.length > 0) blocks.push(...linesToSections(skipped, 2, 'skipped'));
  blocks.push(context('Drafted by the service for each person’s next event. Drafting spends no credits.'));
  return fitToLimits({ text: `Outreach drafts for ${ready.length} of ${result.people.length}.`, blocks });
}

function activityWords(activity: {
  level: string | null;
  isActive: boolean | null;
  latestPostAt: string | null;
}) {
  const level = activity.level ? `${escapeMrkdwn(activity.level)} activity` : 'activity level unknown';
  const active = activity.isActive === null ? '' : activity.isActive ? ', active' : ', not active';
  const latest = activity.latestPostAt
    ? `, last post ${escapeMrkdwn(activity.latestPostAt.slice(0, 10))}`
    : '';
  return `${level}${active}${latest}`;
}

function linkedinReply(result: Extract<FollowUpResult, { kind: 'linkedin' }>, names: Names): SlackMessage {
  const ready = result.people.filter((person) => person.activity);
  const title = `:bar_chart: *LinkedIn activity* for ${ready.length} of ${result.people.length}.`;
  const lines = result.people.map(
    (person) =>
      `• ${personLabel(person.personnelId, names)} — ${
        person.activity ? activityWords(person.activity) : `_${escapeMrkdwn(person.problem ?? 'no result')}_`
      }`,
  );
  const blocks: KnownBlock[] = [
    section(title),
    ...linesToSections(lines, LIMITS.blocksPerMessage - 4, 'people'),
  ];
  const skipped = skippedLines(result, names);
  if (skipped.length > 0) blocks.push(...linesToSections(skipped, 2, 'skipped'));
  return fitToLimits({ text: `LinkedIn activity for ${ready.length} of ${result.people.length}.`, blocks });
}

/** The one thread reply when a follow-up never finished. */
export function followUpTimeoutReply(task: {
  followUp?: { kind: string } | undefined;
  requestedBy: string;
}): SlackMessage {
  const what = task.followUp?.kind === 'linkedin' ? 'LinkedIn activity analysis' : 'outreach drafts';
  const text = `:hourglass: The ${what} did not arrive: I stopped waiting.`;
  return fitToLimits({
    text,
    blocks: [section(`${text} ${mentionUser(task.requestedBy)}`), context('Try the button again later.')],
  });
}

/** The Draft outreach modal's callback id (not `modal.…`: its submission is the follow-up's own). */
export const OUTREACH_MODAL = 'followup.outreach';

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
        `Drafts for *${escapeMrkdwn(who)}*, posted in the thread. Nothing is sent, and drafting spends no credits.`,
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

/** Told only to whoever clicked Draft outreach. */
export function outreachStartedNotice(started: { drafting: number; skipped: number }): string {
  if (started.drafting === 0) return 'No drafts could be started for these people (see why in the service).';
  const skipped = started.skipped > 0 ? ` (${started.skipped} skipped)` : '';
  return `Drafting outreach for ${plural(started.drafting, 'person', 'people')}${skipped}… The drafts will arrive in this thread. Drafting spends no credits.`;
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
  confirmationId: string;
  balance: number | null;
  buttons: boolean;
}): SlackMessage {
  const what = escapeMrkdwn(input.description);
  const price = escapeMrkdwn(priceWords(LINKEDIN_PRICE));
  const balance = creditsWords(input.balance);
  const value = { confirmationId: input.confirmationId };
  const row = input.buttons
    ? actions(
        [
          button('Confirm', ACTION_IDS.confirmYes, value, {
            style: 'primary',
            confirm: {
              title: plainText('Spend credits?'),
              text: plainText(
                truncate(confirmDialogWords(LINKEDIN_PRICE, input.description), LIMITS.confirmText),
              ),
              confirm: plainText(spendWords(LINKEDIN_PRICE)),
              deny: plainText('Go back'),
            },
          }),
          button('Cancel', ACTION_IDS.confirmNo, value),
        ],
        'confirmation',
      )
    : undefined;
  const blocks: KnownBlock[] = [
    section(`:credit_card: *Confirm before spending credits*\n${what}`),
    section(`*Price:* ${price}\n*Balance:* ${balance}`),
    context(`Asked by ${mentionUser(input.requestedBy)} · Expires in 15 minutes`),
  ];
  if (row) blocks.push(row);
  return fitToLimits({ text: `Confirm: ${what} — ${price}. Balance: ${balance}.`, blocks });
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
