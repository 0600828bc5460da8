import type { Button, KnownBlock } from '@slack/types';
import type { DigestFilters, LedgerEntry } from '../../../domain/ports/index.ts';
import { ACTION_IDS, type ActionId } from '../../views/action-ids.ts';
import { actions, context, fieldsSection, header, plainText, section } from '../../views/blocks.ts';
import { creditsWords, priceWords } from '../../kit/money-words.ts';
import { cancelButton, confirmButton, mayConfirmWords } from '../../kit/confirmation-card.ts';
import type { MayConfirm } from '../../../domain/approval.ts';
import { chargeKindWords, chargeTargetWords } from '../../views/messages.ts';
import { confirmedByWords } from '../../kit/charge-words.ts';
import { needsAttentionBlocks, type UnknownCharge } from './needs-attention-views.ts';
import { threadLink } from '../../kit/thread-link.ts';
import { describeFilters, describeSchedule } from '../digests/index.ts';
import {
  code,
  formatCredits,
  formatLink,
  formatNumber,
  mentionChannel,
  mentionUser,
  slackDate,
  utcTime,
} from '../../views/format.ts';
import { andMore, linesToSections } from '../../views/limits.ts';
import type { HomeView, Price } from '../../views/types.ts';
import { type HomeWatches, watchHomeBlocks } from '../watch/index.ts';
import { type HomePlans, planHomeBlocks } from '../plan/index.ts';
import { escapeMrkdwn, mk, type Mrkdwn, truncate } from '../../views/mrkdwn.ts';

/** A confirmation the Home's user can act on (as the requester, or as an approver). */
export interface HomeConfirmation {
  id: string;
  description: string;
  price: Price;
  requestedBy: string;
  channelId: string;
  deadline: string;
  /** Why this user cannot confirm it (separation of duties), when they cannot; they may still cancel. */
  confirmRefusal?: string;
  /** Who may confirm it, as its card in the channel says. */
  mayConfirm?: MayConfirm;
}

export interface HomeUnlockTask {
  kind: 'email' | 'phone';
  people: number;
  channelId: string;
  threadTs: string;
  createdAt: string;
}

export interface HomeDigest {
  channelId: string;
  time: string;
  timeZone: string;
  filters: DigestFilters;
}

export interface HomeCharge {
  at: string;
  /** Who confirmed what the user asked for: shown when someone else did, or the watch budget did. */
  requestedBy: string;
  confirmedBy: string;
  preApproval?: LedgerEntry['preApproval'];
  action: string;
  credits: number;
  eventId?: string | undefined;
  personnelIds?: readonly string[] | undefined;
  status?: 'pending' | 'charged' | 'refused' | 'unknown' | undefined;
  outcomeUnknown?: boolean | undefined;
}

/** Everything the Home shows; a source that could not be read is `null` and says so. */
export interface HomeInput {
  userId: string;
  now: Date;
  /** The answer to the user's last click on the Home, shown at the top. */
  notice?: Mrkdwn;
  balance: number | null;
  /** The workspace's credits spent today (UTC), refused charges left out; null when unreadable. */
  spentToday: number | null;
  dailyCap?: number;
  confirmations: readonly HomeConfirmation[] | null;
  tasks: readonly HomeUnlockTask[] | null;
  digests: readonly HomeDigest[] | null;
  /** The watches of the channels the user is in; absent when the Home has no watch section wired. */
  watches?: HomeWatches | null;
  /** The plans of the channels the user is in; absent when the Home has no plan section wired. */
  plans?: HomePlans | null;
  /** The charges this user asked for today (whoever confirmed them), oldest first. */
  charges: readonly HomeCharge[] | null;
  /** The "Workspace settings" button (the key and rules, for admins; refused to others with who can). */
  settingsButton?: boolean;
  /** Workspace admins only: recent charges whose outcome is unknown. */
  needsAttention?: readonly UnknownCharge[];
}

/** Slack's limit for a Home tab; each list below is cut well before it with a count of the rest. */
export const HOME_BLOCK_LIMIT = 100;
const MAX_CONFIRMATIONS = 10;
const MAX_DIGESTS = 10;
const MAX_LINES = 20;
const UNAVAILABLE = mk`_Could not be read just now; open the tab again in a moment._`;

const divider: KnownBlock = { type: 'divider' };

/** A button with a plain string value (or none), for the listeners that take a channel id as is. */
function rawButton(label: string, actionId: ActionId, value?: string, style?: 'primary' | 'danger'): Button {
  return {
    type: 'button',
    action_id: actionId,
    text: plainText(label),
    ...(value !== undefined ? { value } : {}),
    ...(style ? { style } : {}),
  };
}

/** The user's App Home: credits, what waits for them, their unlocks, the digests, their charges today. */
export function homeView(input: HomeInput): HomeView {
  const blocks: KnownBlock[] = [
    header('Event Intelligence'),
    // The notice is the bot's own mrkdwn (it may mention people), already escaped where it quotes data.
    ...(input.notice ? [section(mk`:information_source: ${truncate(input.notice, 2900)}`)] : []),
    ...creditBlocks(input),
    {
      type: 'actions',
      block_id: 'home-open',
      elements: [
        rawButton('Search events', ACTION_IDS.openSearch, undefined, 'primary'),
        rawButton('Research a company', ACTION_IDS.openResearch),
        ...(input.settingsButton ? [rawButton('Workspace settings', ACTION_IDS.openWorkspaceSettings)] : []),
      ],
    },
    ...needsAttentionBlocks(input.needsAttention ?? []),
    divider,
    header('Waiting for you'),
    ...confirmationBlocks(input.confirmations),
    divider,
    header('Your unlocks in progress'),
    ...taskBlocks(input.tasks),
    divider,
    header('Daily digests'),
    ...digestBlocks(input.digests, input.now),
    ...(input.watches !== undefined
      ? [divider, header('Account watches'), ...watchHomeBlocks(input.watches, UNAVAILABLE)]
      : []),
    ...(input.plans !== undefined
      ? [divider, header('Channel plans'), ...planHomeBlocks(input.plans, UNAVAILABLE)]
      : []),
    divider,
    header('Your charges today'),
    ...chargeBlocks(input.charges),
    context(mk`Updated ${slackDate(input.now, '{date_short_pretty} {time}', utcTime(input.now))}`),
  ];
  return { type: 'home', blocks: blocks.slice(0, HOME_BLOCK_LIMIT) };
}

function creditBlocks({ balance, spentToday, dailyCap }: HomeInput): KnownBlock[] {
  const balanceText = creditsWords(balance);
  const spent = creditsWords(spentToday);
  const cap =
    dailyCap === undefined
      ? 'No daily cap'
      : spentToday === null
        ? mk`Daily cap ${formatNumber(dailyCap)}`
        : spentToday >= dailyCap
          ? mk`Daily cap of ${formatNumber(dailyCap)} reached`
          : mk`${formatCredits(dailyCap - spentToday)} left under the daily cap of ${formatNumber(dailyCap)}`;
  return [
    fieldsSection([
      mk`*Credit balance*\n${escapeMrkdwn(balanceText)}`,
      mk`*Spent today (UTC)*\n${escapeMrkdwn(spent)}\n${cap}`,
    ]),
  ];
}

function confirmationBlocks(confirmations: HomeInput['confirmations']): KnownBlock[] {
  if (confirmations === null) return [section(UNAVAILABLE)];
  if (confirmations.length === 0) return [context('No confirmations are waiting for you.')];
  const shown = confirmations.slice(0, MAX_CONFIRMATIONS);
  const blocks = shown.flatMap((confirmation, index) => confirmationRow(confirmation, index));
  if (confirmations.length > shown.length)
    blocks.push(context(andMore(confirmations.length - shown.length, 'confirmations')));
  return blocks;
}

/** The card's Confirm (with the same "are you sure" dialog) and Cancel, on the same action ids. */
function confirmationRow(confirmation: HomeConfirmation, index: number): KnownBlock[] {
  const deadline = new Date(confirmation.deadline);
  const expiry = Number.isNaN(deadline.getTime())
    ? ''
    : mk` · expires ${slackDate(deadline, '{time}', utcTime(deadline))}`;
  const refusal = confirmation.confirmRefusal
    ? mk`\n:lock: ${truncate(escapeMrkdwn(confirmation.confirmRefusal), 500)}`
    : confirmation.mayConfirm
      ? mk`\n${mayConfirmWords(confirmation.mayConfirm)}`
      : '';
  const what = truncate(escapeMrkdwn(confirmation.description), 1500);
  const row = actions(
    [
      confirmation.confirmRefusal
        ? undefined
        : confirmButton(
            confirmation.id,
            confirmation.price,
            confirmation.description,
            confirmation.mayConfirm,
          ),
      cancelButton(confirmation.id),
    ],
    `home-confirmation-${index}`,
  );
  return [
    section(
      mk`*${what}*\n${escapeMrkdwn(priceWords(confirmation.price))} · asked by ${mentionUser(confirmation.requestedBy)} in ${mentionChannel(confirmation.channelId)}${expiry}${refusal}`,
    ),
    ...(row ? [row] : []),
  ];
}

function taskBlocks(tasks: HomeInput['tasks']): KnownBlock[] {
  if (tasks === null) return [section(UNAVAILABLE)];
  if (tasks.length === 0) return [context('No unlocks are running for you.')];
  const lines = tasks.map((task) => {
    const what = task.kind === 'email' ? 'Emails' : 'Phone numbers';
    const label = `${what} for ${task.people} ${task.people === 1 ? 'person' : 'people'}`;
    const started = new Date(task.createdAt);
    const since = Number.isNaN(started.getTime())
      ? ''
      : mk` · started ${slackDate(started, '{time}', utcTime(started))}`;
    return mk`• ${formatLink(threadLink(task.channelId, task.threadTs), label)} in ${mentionChannel(task.channelId)}${since} · results arrive in the thread`;
  });
  return linesToSections(lines.slice(0, MAX_LINES), 5, 'unlocks').concat(
    lines.length > MAX_LINES ? [context(andMore(lines.length - MAX_LINES, 'unlocks'))] : [],
  );
}

function digestBlocks(digests: HomeInput['digests'], now: Date): KnownBlock[] {
  if (digests === null) return [section(UNAVAILABLE)];
  if (digests.length === 0)
    return [
      context(
        mk`No channel you are in has a digest. Set one up in a channel with ${code('/events digest on')}.`,
      ),
    ];
  const shown = [...digests].sort((a, b) => a.channelId.localeCompare(b.channelId)).slice(0, MAX_DIGESTS);
  const blocks = shown.flatMap((digest, index): KnownBlock[] => [
    section(
      mk`${mentionChannel(digest.channelId)} — ${describeSchedule(digest.time, digest.timeZone, now)}\n${describeFilters(digest.filters)}`,
    ),
    {
      type: 'actions',
      block_id: `home-digest-${index}`,
      elements: [
        rawButton('Edit', ACTION_IDS.openDigestSettings, digest.channelId),
        {
          ...rawButton('Turn off', ACTION_IDS.digestOff, digest.channelId, 'danger'),
          confirm: {
            title: plainText('Turn the digest off?'),
            text: plainText('The channel gets no more daily digests until someone turns it on again.'),
            confirm: plainText('Turn off'),
            deny: plainText('Keep it'),
          },
        },
      ],
    },
  ]);
  if (digests.length > shown.length) blocks.push(context(andMore(digests.length - shown.length, 'digests')));
  return blocks;
}

function chargeLine(charge: HomeCharge): Mrkdwn {
  const at = new Date(charge.at);
  const time = Number.isNaN(at.getTime()) ? '' : mk`${slackDate(at, '{time}', utcTime(at))} · `;
  const action = chargeKindWords(charge.action);
  const target = chargeTargetWords(charge);
  const state =
    charge.status === 'pending'
      ? 'charging now'
      : charge.status === 'refused'
        ? 'refused, nothing charged'
        : charge.status === 'unknown' || charge.outcomeUnknown
          ? 'unconfirmed by the service: check the balance'
          : 'settled';
  return mk`• ${time}${action}${target} · *${formatCredits(charge.credits)}* · ${state}${confirmedByWords(charge)}`;
}

function chargeBlocks(charges: HomeInput['charges']): KnownBlock[] {
  if (charges === null) return [section(UNAVAILABLE)];
  if (charges.length === 0) return [context('You have spent no credits today.')];
  // Newest first: the charge that just settled is the one the user looks for.
  const lines = [...charges].reverse().map(chargeLine);
  return linesToSections(lines.slice(0, MAX_LINES), 5, 'charges').concat(
    lines.length > MAX_LINES ? [context(andMore(lines.length - MAX_LINES, 'charges'))] : [],
  );
}
