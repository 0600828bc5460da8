import type { Button, ConfirmationDialog, KnownBlock } from '@slack/types';
import type { MayConfirm } from '../../domain/approval.ts';
import { ACTION_IDS } from '../views/action-ids.ts';
import { actions, button, context, plainText, section } from '../views/blocks.ts';
import { mentionUser, slackDate, utcTime } from '../views/format.ts';
import { fitToLimits, LIMITS } from '../views/limits.ts';
import {
  creditsWords,
  chargingPriceWords,
  confirmDialogWords,
  mayHaveSpentWords,
  priceWords,
  otherPagesWords,
  settledWords,
  spendWords,
  spentWords,
  unchargedPriceWords,
} from './money-words.ts';
import type { Price, SlackMessage } from '../views/types.ts';
import type { AskAgainValue } from './job-values.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn, trimMrkdwn, truncate } from '../views/mrkdwn.ts';

/*
 * The one confirm-before-charge card and its "Spend credits?" dialog: every charge's card (charges),
 * the LinkedIn activity card (follow-up) and the Home's Confirm buttons are built here, so their words
 * change in one place. Tests read the words from `CONFIRMATION_WORDS`.
 */

/** The card's heading and the dialog's fixed words. */
export const CONFIRMATION_WORDS = {
  heading: 'Confirm before spending credits',
  dialogTitle: 'Spend credits?',
  goBack: 'Go back',
  needsApprover: 'Needs an approver',
  noApprover: 'none is set up (ask an admin)',
  orAnApprover: 'or an approver',
  canConfirm: 'can confirm',
} as const;

/** The card names at most this many approvers (a user group may hold many), then counts the rest. */
export const NAMED_APPROVERS = 5;

/** The approvers by name, the rest counted: `@Carol, @Dan, 4 more`; `last` joins the final one. */
function approverNames(approvers: readonly string[], last: ', ' | ' or '): Mrkdwn {
  const named = approvers.slice(0, NAMED_APPROVERS).map(mentionUser);
  const more = approvers.length - named.length;
  const names = more > 0 ? [...named, mk`${more} more`] : named;
  const final = names.pop() ?? mk``;
  return names.length === 0 ? final : mk`${joinMrkdwn(names, ', ')}${last}${final}`;
}

/**
 * Who may confirm, said on the pending card before anyone clicks: `@Alice or an approver (@Carol, @Dan)
 * can confirm`, or `Needs an approver: @Carol or @Dan` when the price needs one (src/domain/approval.ts).
 */
export function mayConfirmWords({ requestedBy, approvers }: MayConfirm): Mrkdwn {
  const W = CONFIRMATION_WORDS;
  if (requestedBy === undefined)
    return mk`${W.needsApprover}: ${approvers.length > 0 ? approverNames(approvers, ' or ') : W.noApprover}.`;
  const others = approvers.length > 0 ? mk` ${W.orAnApprover} (${approverNames(approvers, ', ')})` : '';
  return mk`${mentionUser(requestedBy)}${others} ${W.canConfirm}.`;
}

/**
 * Who may confirm, in the dialog's plain text (it shows no mention, and the same dialog to everyone):
 * so a requester who needs an approver learns it before the question, not after it.
 */
export function dialogMayConfirmWords({ requestedBy, approvers }: MayConfirm): string {
  if (requestedBy !== undefined) return 'Only the person who asked or an approver can confirm.';
  return approvers.length > 0
    ? `Only an approver can confirm this (the card names ${approvers.length === 1 ? 'them' : `all ${approvers.length}`}); anyone else's Confirm spends nothing.`
    : 'No approver is set up, so no one can confirm this yet: ask an admin.';
}

/**
 * The dialog of every Confirm button, repeating the price first, then who may confirm: a cut gives way
 * on the description.
 */
export function spendCreditsDialog(
  price: Price,
  description: string,
  mayConfirm?: MayConfirm,
): ConfirmationDialog {
  const who = mayConfirm ? dialogMayConfirmWords(mayConfirm) : '';
  const room = LIMITS.confirmText - (who ? who.length + 1 : 0);
  const what = truncate(confirmDialogWords(price, description), room);
  return {
    title: plainText(CONFIRMATION_WORDS.dialogTitle),
    text: plainText(who ? `${what} ${who}` : what),
    confirm: plainText(spendWords(price)),
    deny: plainText(CONFIRMATION_WORDS.goBack),
  };
}

/** Confirm, asking again in the "Spend credits?" dialog; `description` is what will happen. */
export function confirmButton(
  confirmationId: string,
  price: Price,
  description: string,
  mayConfirm?: MayConfirm,
): Button | undefined {
  return button(
    'Confirm',
    ACTION_IDS.confirmYes,
    { confirmationId },
    { style: 'primary', confirm: spendCreditsDialog(price, description, mayConfirm) },
  );
}

/** Cancel needs no dialog: nothing is charged. */
export const cancelButton = (confirmationId: string): Button | undefined =>
  button('Cancel', ACTION_IDS.confirmNo, { confirmationId });

/** What every state of the card repeats: the action in words, its price, who asked. */
interface ConfirmationBase {
  /** What will happen, in the user's words (e.g. "Unlock all exhibitors and people of Fintech Expo"). */
  description: string;
  price: Price;
  requestedBy: string;
}

export type ConfirmationCardInput =
  | (ConfirmationBase & {
      state: 'pending';
      confirmationId: string;
      /** Current balance; null when the service could not say. */
      balance: number | null;
      /** When the confirmation lapses (an ISO string or a Date): its stored deadline. */
      expiresAt: Date | string;
      /** Who may confirm (src/domain/approval.ts `whoMayConfirm`): the card names them. */
      mayConfirm: MayConfirm;
      /** Show all of the people a contact unlock names, after Cancel (when there are many). */
      showAll?: Button | undefined;
      /** A paid search's page: the card says which, and that any other page is charged again. */
      searchPage?: number;
      /**
       * False for the first post of the card: its buttons are added by an update once the store knows
       * the card's ts, so a card whose post was answered too late to be recorded never has live buttons.
       */
      buttons?: boolean;
    })
  | (ConfirmationBase & { state: 'running'; confirmedBy: string })
  | (ConfirmationBase & {
      state: 'succeeded';
      confirmedBy: string;
      /** What came of it, one line each, already in the user's words (escaped here). */
      outcome: readonly string[];
      creditsSpent: number;
      /** Null when it could not be read after the charge; undefined when there is none to tell. */
      balanceAfter?: number | null | undefined;
      /** Charged, but the results (an unlock task) are still to come: not "Done" yet. */
      resultsPending?: boolean;
    })
  | (ConfirmationBase & {
      state: 'failed';
      /** The error in the user's words; never a stack. */
      errorMessage: string;
      creditsSpent?: number;
      confirmedBy?: string;
    })
  | (ConfirmationBase & {
      /** Charged or not, the service never said: `price` is the most it may have spent. */
      state: 'unknown';
      /** Why it is not known and what to do, in the user's words. */
      explanation: string;
      confirmedBy?: string;
    })
  | (ConfirmationBase & { state: 'cancelled'; cancelledBy: string; restart?: AskAgainValue })
  | (ConfirmationBase & {
      state: 'expired';
      /** The charge asked for again, for a "Start again" button (`askAgainValue`). */
      restart?: AskAgainValue;
    });

/** The input of one state of the card. */
type StateInput<S extends ConfirmationCardInput['state']> = Extract<ConfirmationCardInput, { state: S }>;

/** The buttons under a card: only a pending card can be confirmed; a closed one may offer to ask again. */
type CardButtons =
  { kind: 'confirm'; card: StateInput<'pending'> } | { kind: 'restart'; again: AskAgainValue };

/** What one state of the card shows, before it becomes Block Kit. Texts are escaped mrkdwn. */
interface CardView {
  /** One section each; the first says what happened and to what. */
  sections: Mrkdwn[];
  /** The small print under them: price or credits spent, who asked, who confirmed. */
  footnote: Mrkdwn;
  /** The notification text. */
  text: Mrkdwn;
  buttons?: CardButtons;
}

/** What every state repeats, as mrkdwn. */
interface CardWords {
  what: Mrkdwn;
  asked: Mrkdwn;
}

/**
 * The confirm-before-charge card and its later states. Only `pending` has Confirm and Cancel; every
 * other state replaces the card in place so it cannot be pressed twice.
 */
export function confirmationCard(input: ConfirmationCardInput): SlackMessage {
  const view = cardView(input);
  const blocks: KnownBlock[] = [...view.sections.map((text) => section(text)), context(view.footnote)];
  const row = view.buttons && buttonRow(view.buttons);
  if (row) blocks.push(row);
  return fitToLimits({ text: view.text, blocks });
}

function cardView(input: ConfirmationCardInput): CardView {
  const words: CardWords = {
    what: escapeMrkdwn(input.description),
    asked: mk`Asked by ${mentionUser(input.requestedBy)}`,
  };
  const { what, asked } = words;
  switch (input.state) {
    case 'pending':
      return pendingView(input, words);
    case 'running':
      return {
        sections: [
          mk`:hourglass_flowing_sand: Charging… confirmed by ${mentionUser(input.confirmedBy)}\n${what}`,
        ],
        footnote: mk`${escapeMrkdwn(chargingPriceWords(input.price))} · ${asked}`,
        text: mk`Charging… ${what}`,
      };
    case 'succeeded':
      return succeededView(input, words);
    case 'failed':
      return failedView(input, words);
    case 'unknown':
      return unknownView(input, words);
    case 'cancelled':
      return {
        sections: [
          mk`:no_entry_sign: *Cancelled* by ${mentionUser(input.cancelledBy)} — nothing was charged.\n${what}`,
        ],
        footnote: mk`${escapeMrkdwn(unchargedPriceWords(input.price))} · ${asked}`,
        text: mk`Cancelled: ${what}. Nothing was charged.`,
        ...restartButton(input.restart),
      };
    case 'expired':
      return {
        sections: [mk`:hourglass: *Expired* — nothing was charged.\n${what}`],
        footnote: mk`${escapeMrkdwn(unchargedPriceWords(input.price))} · ${asked}`,
        text: mk`Expired: ${what}. Nothing was charged.`,
        ...restartButton(input.restart),
      };
  }
}

function pendingView(input: StateInput<'pending'>, { what, asked }: CardWords): CardView {
  const price = escapeMrkdwn(priceWords(input.price));
  const balance = escapeMrkdwn(creditsWords(input.balance));
  const expiry = expiryWords(input.expiresAt);
  const short =
    typeof input.balance === 'number' && input.balance < input.price.credits && !input.price.upTo
      ? '\n:warning: The balance is lower than the price; the charge will probably be refused.'
      : '';
  const approval = mk`\n:lock: ${mayConfirmWords(input.mayConfirm)}`;
  const paging =
    input.searchPage === undefined
      ? ''
      : mk`\n:page_facing_up: *Page ${input.searchPage}.* ${escapeMrkdwn(otherPagesWords(input.price.credits))}`;
  return {
    sections: [
      mk`:credit_card: *${CONFIRMATION_WORDS.heading}*\n${what}`,
      mk`*Price:* ${price}\n*Balance:* ${balance}${short}${approval}${paging}`,
    ],
    footnote: mk`${asked} · ${expiry}`,
    text: mk`Confirm: ${what} — ${price}. Balance: ${balance}.`,
    ...(input.buttons === false ? {} : { buttons: { kind: 'confirm', card: input } }),
  };
}

function expiryWords(expiresAt: StateInput<'pending'>['expiresAt']): Mrkdwn {
  const expires = typeof expiresAt === 'string' ? new Date(expiresAt) : expiresAt;
  return Number.isNaN(expires.getTime())
    ? mk`Expires soon`
    : mk`Expires at ${slackDate(expires, '{time}', utcTime(expires))}`;
}

function succeededView(input: StateInput<'succeeded'>, { what, asked }: CardWords): CardView {
  const lines = joinMrkdwn(
    input.outcome.map((line) => mk`• ${escapeMrkdwn(line)}`),
    '\n',
  );
  const title = input.resultsPending
    ? ':hourglass_flowing_sand: *Charged — results pending*'
    : ':white_check_mark: *Done*';
  const settled = escapeMrkdwn(settledWords(input.price, input.creditsSpent, input.balanceAfter));
  return {
    sections: [mk`${title} — ${what}${lines ? mk`\n${lines}` : ''}`],
    footnote: mk`${settled} · ${asked} · Confirmed by ${mentionUser(input.confirmedBy)}`,
    text: mk`${input.resultsPending ? 'Charged, results pending' : 'Done'}: ${what}. ${settled}.`,
  };
}

function failedView(input: StateInput<'failed'>, { what, asked }: CardWords): CardView {
  // Unknown when the service did not confirm the outcome: then no amount is claimed either way.
  const spentWord =
    input.creditsSpent === undefined ? undefined : escapeMrkdwn(spentWords(input.creditsSpent));
  const spent = spentWord ? mk`${spentWord} · ` : '';
  const by = input.confirmedBy ? mk` · Confirmed by ${mentionUser(input.confirmedBy)}` : '';
  const error = escapeMrkdwn(input.errorMessage);
  return {
    sections: [mk`:x: *That did not work* — ${what}\n${error}`],
    footnote: mk`${spent}${asked}${by}`,
    text: trimMrkdwn(mk`Failed: ${what}. ${error} ${spentWord ? mk`${spentWord}.` : ''}`),
  };
}

function unknownView(input: StateInput<'unknown'>, { what, asked }: CardWords): CardView {
  const title = mk`Outcome unknown: ${escapeMrkdwn(mayHaveSpentWords(input.price))}`;
  const by = input.confirmedBy ? mk` · Confirmed by ${mentionUser(input.confirmedBy)}` : '';
  const explanation = escapeMrkdwn(input.explanation);
  return {
    sections: [mk`:warning: *${title}* — ${what}\n${explanation}`],
    footnote: mk`${asked}${by}`,
    text: mk`${title} — ${what}. ${explanation}`,
  };
}

/** A closed card offers to ask again when a command asked for it. */
const restartButton = (again: AskAgainValue | undefined): Pick<CardView, 'buttons'> =>
  again ? { buttons: { kind: 'restart', again } } : {};

const buttonRow = (buttons: CardButtons) =>
  buttons.kind === 'confirm' ? confirmRow(buttons.card) : restartRow(buttons.again);

const restartRow = (again: AskAgainValue) =>
  actions([button('Start again', ACTION_IDS.confirmRestart, again)], 'restart');

/** Confirm (asking again in a dialog that repeats the price), Cancel, and Show all for many people. */
const confirmRow = (card: StateInput<'pending'>) =>
  actions(
    [
      confirmButton(card.confirmationId, card.price, card.description, card.mayConfirm),
      cancelButton(card.confirmationId),
      card.showAll,
    ],
    'confirmation',
  );
