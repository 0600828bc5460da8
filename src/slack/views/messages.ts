import type { KnownBlock } from '@slack/types';
import type { ChargeAction } from '../../domain/charging.ts';
import { context, fieldsSection, header, section } from './blocks.ts';
import {
  code,
  formatCredits,
  formatNumber,
  fromUnixTimestamp,
  mentionChannel,
  slackDate,
  utcDay,
} from './format.ts';
import { fitToLimits } from './limits.ts';
import { botText, type BotText, escapeMrkdwn, mk, type Mrkdwn, truncate } from './mrkdwn.ts';
import type { CreditBalance, SlackMessage } from './types.ts';

/** Keeps only what a user should read: no stack frames, no walls of text. */
function userWords(message: string): string {
  const withoutStack = message.split(/\n\s+at\s/)[0] ?? '';
  return truncate(withoutStack.trim() || 'Something went wrong.', 500);
}

/** An error in the user's words. */
export function errorMessage(userMessage: string): SlackMessage {
  const text = mk`:x: ${escapeMrkdwn(userWords(userMessage))}`;
  return fitToLimits({ text, blocks: [section(text)] });
}

/** A short notice written by the bot itself (mrkdwn kept, so `<@U…>` mentions render); never service text. */
export function botNotice<T extends string>(mrkdwnText: BotText<T>): SlackMessage {
  const text = mk`:information_source: ${botText(mrkdwnText)}`;
  return fitToLimits({ text, blocks: [section(text)] });
}

/** "⏳ Fetching exhibitors…" while slow work runs. */
export function workingMessage(what: string): SlackMessage {
  const words = escapeMrkdwn(what.trim().replace(/[.…]+$/, ''));
  const text = mk`:hourglass_flowing_sand: ${words}…`;
  return fitToLimits({ text, blocks: [context(text)] });
}

const ofAmount = (balance: number, amount: number | undefined) =>
  typeof amount === 'number' && amount > 0
    ? mk`${formatNumber(balance)} of ${formatNumber(amount)}`
    : formatNumber(balance);

const dayToken = (timestamp: number) => {
  const date = fromUnixTimestamp(timestamp);
  return slackDate(date, '{date_short}', utcDay(date));
};

/** The credit balance: total, and each bucket with its expiry and the next reset. */
export function creditsCard(balance: CreditBalance): SlackMessage {
  const fields: Mrkdwn[] = [];
  if (typeof balance.subscriptionBalance === 'number') {
    fields.push(mk`*Subscription*\n${ofAmount(balance.subscriptionBalance, balance.subscriptionAmount)}`);
  }
  if (typeof balance.addonBalance === 'number') {
    const expiry =
      typeof balance.addonExpireAt === 'number' ? mk`\nexpires ${dayToken(balance.addonExpireAt)}` : '';
    fields.push(mk`*Add-on*\n${ofAmount(balance.addonBalance, balance.addonAmount)}${expiry}`);
  }
  if (typeof balance.giftBalance === 'number') {
    fields.push(mk`*Gift*\n${ofAmount(balance.giftBalance, balance.giftAmount)}`);
  }
  if (typeof balance.resetAt === 'number')
    fields.push(mk`*Subscription resets*\n${dayToken(balance.resetAt)}`);

  const total = mk`*${formatCredits(balance.totalBalance)}* available${
    typeof balance.totalAmount === 'number' && balance.totalAmount > 0
      ? mk` of ${formatNumber(balance.totalAmount)}`
      : ''
  }`;
  const blocks: KnownBlock[] = [header('Credits'), section(total)];
  if (fields.length > 0) blocks.push(fieldsSection(fields));
  blocks.push(context('One pool, shared with the web app. Charges ask for confirmation first.'));
  return fitToLimits({ text: mk`${formatCredits(balance.totalBalance)} available.`, blocks });
}

/** Ledger `action` is the charge action's kind; typed so a new kind without words does not compile. */
const ACTION_WORDS: Record<ChargeAction['kind'], string> = {
  'event-unlock': 'Event unlock',
  'visitors-unlock': 'Visitor unlock',
  'full-access-unlock': 'Full access',
  'email-unlock': 'Email unlock',
  'phone-unlock': 'Phone unlock',
  'people-by-name': 'Events by person name',
  'exhibitor-events': 'Events by company',
  'exhibitor-search': 'Exhibitor search',
  'linkedin-activity': 'LinkedIn activity',
};

// own keys only: a stored `constructor` must not pick up Object.prototype's
const isChargeKind = (action: string): action is ChargeAction['kind'] => Object.hasOwn(ACTION_WORDS, action);

/** A ledger entry's action in plain words (a CSV cell): a stored unknown kind as it is. */
export const chargeKindText = (action: string): string =>
  isChargeKind(action) ? ACTION_WORDS[action] : action;

/** A ledger entry's action in words (`/events spend` and the Home tab): a stored unknown kind as it is. */
export const chargeKindWords = (action: string): Mrkdwn => escapeMrkdwn(chargeKindText(action));

/** What a charge was for, after its kind: the event, or how many contacts (nothing when neither). */
export function chargeTargetWords(charge: {
  eventId?: string | undefined;
  personnelIds?: readonly string[] | undefined;
}): Mrkdwn {
  const count = charge.personnelIds?.length ?? 0;
  if (charge.eventId) return mk` ${code(charge.eventId)}`;
  return count > 0 ? mk` (${count} ${count === 1 ? 'contact' : 'contacts'})` : mk``;
}

/** The service knows no such id: which id, and where to look instead. */
export function notFoundText(commandText: string): Mrkdwn {
  const ids = commandText.trim().split(/\s+/).slice(1).join(' ');
  const what = ids ? mk`\`${escapeMrkdwn(ids.slice(0, 100))}\`` : 'that';
  return mk`The service found nothing for ${what}. Check the id, or find events with \`/events search <words>\` (e.g. \`/events search fintech country:Brazil\`).`;
}

/** The bot is not in the channel: how to invite it. */
export function inviteBotMessage(channelId: string): SlackMessage {
  const text = mk`I'm not in ${mentionChannel(channelId)} yet, so I can't post there. Invite me with ${code('/invite @eventbot')} and run the command again.`;
  return fitToLimits({ text, blocks: [section(mk`:wave: ${text}`)] });
}
