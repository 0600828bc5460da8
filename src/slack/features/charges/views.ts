import type { KnownBlock } from '@slack/types';
import { ChargeActionSchema, unlockOf } from '../../../domain/charging.ts';
import { chargeOutcomeLines, commandTextOf, describeStoredAction } from './charge-words.ts';
import { storedOutcome } from '../../../domain/confirmations.ts';
import type { Confirmation } from '../../../domain/ports/index.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { showAllPeopleButton } from '../lists/people-views.ts';
import { actions, button, context, plainText, section } from '../../views/blocks.ts';
import { mentionUser, slackDate, utcTime } from '../../views/format.ts';
import { fitToLimits } from '../../views/limits.ts';
import {
  creditsWords,
  cardPrice,
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
import type { Price, SlackMessage } from '../../views/types.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn, trimMrkdwn } from '../../views/mrkdwn.ts';

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
      /** When the confirmation lapses (an ISO string or a Date). */
      expiresAt: Date | string;
      /** Set when only these approvers (not the requester) may confirm: separation of duties. */
      approvers?: readonly string[];
      /** The people of a contact unlock: a large set gets a Show all button. */
      personnelIds?: readonly string[];
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
  | (ConfirmationBase & { state: 'cancelled'; cancelledBy: string; restart?: string })
  | (ConfirmationBase & {
      state: 'expired';
      /** The command that asks again, for a "Start again" button. */
      restart?: string;
    });

/** The input of one state of the card. */
type StateInput<S extends ConfirmationCardInput['state']> = Extract<ConfirmationCardInput, { state: S }>;

/** The buttons under a card: only a pending card can be confirmed; a closed one may offer to ask again. */
type CardButtons = { kind: 'confirm'; card: StateInput<'pending'> } | { kind: 'restart'; command: string };

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
  const expires = typeof input.expiresAt === 'string' ? new Date(input.expiresAt) : input.expiresAt;
  const expiry = Number.isNaN(expires.getTime())
    ? 'Expires soon'
    : mk`Expires at ${slackDate(expires, '{time}', utcTime(expires))}`;
  const short =
    typeof input.balance === 'number' && input.balance < input.price.credits && !input.price.upTo
      ? '\n:warning: The balance is lower than the price; the charge will probably be refused.'
      : '';
  const approval = input.approvers
    ? mk`\n:lock: Needs an approver other than the requester: ${input.approvers.length > 0 ? joinMrkdwn(input.approvers.map(mentionUser), ', ') : 'none is set up (ask an admin)'}.`
    : '';
  const paging =
    input.searchPage === undefined
      ? ''
      : mk`\n:page_facing_up: *Page ${input.searchPage}.* ${escapeMrkdwn(otherPagesWords(input.price.credits))}`;
  return {
    sections: [
      mk`:credit_card: *Confirm before spending credits*\n${what}`,
      mk`*Price:* ${price}\n*Balance:* ${balance}${short}${approval}${paging}`,
    ],
    footnote: mk`${asked} · ${expiry}`,
    text: mk`Confirm: ${what} — ${price}. Balance: ${balance}.`,
    ...(input.buttons === false ? {} : { buttons: { kind: 'confirm', card: input } }),
  };
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

/** A closed card offers to ask again when the command that asked is known. */
const restartButton = (command: string | undefined): Pick<CardView, 'buttons'> =>
  command ? { buttons: { kind: 'restart', command } } : {};

const buttonRow = (buttons: CardButtons) =>
  buttons.kind === 'confirm' ? confirmRow(buttons.card) : restartRow(buttons.command);

const restartRow = (command: string) =>
  actions([button('Start again', ACTION_IDS.confirmRestart, { text: command })], 'restart');

/** Confirm (asking again in a dialog that repeats the price), Cancel, and Show all for many people. */
function confirmRow(card: StateInput<'pending'>) {
  const value = { confirmationId: card.confirmationId };
  const spend = spendWords(card.price);
  return actions(
    [
      button('Confirm', ACTION_IDS.confirmYes, value, {
        style: 'primary',
        confirm: {
          title: plainText('Spend credits?'),
          // Price first: if the text is cut to fit, the description gives way, not the price.
          text: plainText(confirmDialogWords(card.price, card.description)),
          confirm: plainText(spend),
          deny: plainText('Go back'),
        },
      }),
      button('Cancel', ACTION_IDS.confirmNo, value),
      card.personnelIds ? showAllPeopleButton(card.personnelIds) : undefined,
    ],
    'confirmation',
  );
}

/** The most a charge the service cannot account for may have spent: what it reserved. */
const reservedPrice = (confirmation: Confirmation) => ({
  ...cardPrice(confirmation),
  credits: confirmation.reserved ?? confirmation.price.credits,
});

/**
 * What to do about a charge whose outcome is unknown. True to the reconciler: it never tries a charge
 * again, and settles one as unknown only after asking the service, so nothing checks it later.
 */
function unknownNextWords(confirmation: Confirmation): string {
  const settled = 'The bot does not try it again, and nothing checks it later.';
  if (storedOutcome(confirmation).reason === 'account-gone') return settled;
  const action = ChargeActionSchema.safeParse(confirmation.action);
  const command = action.success ? commandTextOf(action.data) : undefined;
  if (action.success && unlockOf(action.data) && command)
    return `${settled} To find out, run \`/events ${command}\`: if it went through, the bot says so, and what was unlocked is not charged again.`;
  // Every reason's words already say which balance to check.
  return `${settled} Running it again is charged again.`;
}

/**
 * Why a charge did not go through: the words stored with it, or, for a charge the reconciler could not
 * account for, its reason worded with what may have been spent. Undefined when nothing says why.
 */
export function failureWords(confirmation: Confirmation): string | undefined {
  const outcome = storedOutcome(confirmation);
  if (outcome.message) return outcome.message;
  const spent = () => mayHaveSpentWords(reservedPrice(confirmation));
  switch (outcome.reason) {
    case 'worker-died':
      return `The bot was interrupted while charging and the service cannot say whether it went through: ${spent()}. Check the balance with \`/events credits\`.`;
    case 'account-gone':
      return `The bot was interrupted while charging, and the service key it charged with is no longer connected, so the bot cannot ask the service whether the charge went through. On the service account that was connected when this was confirmed, ${spent()}. Check that account's balance and usage with the service.`;
    default:
      return undefined;
  }
}

/**
 * The card of a confirmation as stored: what the worker shows when a charge settles and what the
 * reconciler shows after a crash, so both say the same. A pending one is shown as running (the card
 * is only rebuilt from the store once the confirmation was decided or claimed).
 */
export function storedConfirmationCard(confirmation: Confirmation): SlackMessage {
  const base = {
    description: describeStoredAction(confirmation.action),
    price: cardPrice(confirmation),
    requestedBy: confirmation.requestedBy,
  };
  const confirmedBy = confirmation.confirmedBy ?? confirmation.requestedBy;
  const outcome = storedOutcome(confirmation);
  const action = ChargeActionSchema.safeParse(confirmation.action);
  const command = action.success ? commandTextOf(action.data) : undefined;
  const restart = command ? { restart: command } : {};
  switch (confirmation.status) {
    case 'pending':
    case 'running':
      return confirmationCard({ ...base, state: 'running', confirmedBy });
    case 'succeeded':
      return confirmationCard({
        ...base,
        state: 'succeeded',
        confirmedBy,
        outcome: chargeOutcomeLines(outcome),
        creditsSpent: outcome.creditsSpent ?? confirmation.price.credits,
        balanceAfter: outcome.balanceAfter,
        ...(outcome.resultsPending ? { resultsPending: true } : {}),
      });
    case 'failed':
      if (outcome.outcomeUnknown)
        return confirmationCard({
          ...base,
          price: reservedPrice(confirmation),
          state: 'unknown',
          explanation: [failureWords(confirmation), unknownNextWords(confirmation)].filter(Boolean).join(' '),
          ...(confirmation.confirmedBy ? { confirmedBy: confirmation.confirmedBy } : {}),
        });
      return confirmationCard({
        ...base,
        state: 'failed',
        errorMessage: failureWords(confirmation) ?? 'That did not work. Nothing more will be attempted.',
        ...(outcome.creditsSpent !== undefined ? { creditsSpent: outcome.creditsSpent } : {}),
        ...(confirmation.confirmedBy ? { confirmedBy: confirmation.confirmedBy } : {}),
      });
    case 'cancelled':
      return confirmationCard({
        ...base,
        state: 'cancelled',
        cancelledBy: confirmation.cancelledBy ?? confirmedBy,
        ...restart,
      });
    case 'expired':
      return confirmationCard({ ...base, state: 'expired', ...restart });
  }
}
