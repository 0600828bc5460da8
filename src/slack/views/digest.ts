import type { KnownBlock } from '@slack/types';
import type { Digest, DigestEvent, DigestUnlock } from '../../domain/digest.ts';
import type { DigestFilters } from '../../store/index.ts';
import { ACTION_IDS } from './action-ids.ts';
import { actions, button, context, header, section } from './blocks.ts';
import { fitBand } from './fit-card.ts';
import {
  code,
  formatCredits,
  formatDateRange,
  formatPlace,
  mentionChannel,
  mentionUser,
  outOfTen,
  slackDate,
  utcDay,
  utcTime,
} from './format.ts';
import { andMore, escapeMrkdwn, fitToLimits, LIMITS, linesToSections } from './limits.ts';
import type { SlackMessage } from './types.ts';

/** `fintech · country Germany · from 2027-03-01`, or `all events`. */
export function describeFilters(filters: DigestFilters): string {
  const parts = [
    filters.keywords ? `“${filters.keywords}”` : '',
    filters.country ? `country ${filters.country}` : '',
    filters.city ? `city ${filters.city}` : '',
    filters.from ? `from ${filters.from}` : '',
    filters.to ? `to ${filters.to}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? escapeMrkdwn(parts.join(' · ')) : 'all events';
}

function eventBlocks({ event, fit }: DigestEvent): KnownBlock[] {
  const name = escapeMrkdwn(event.name?.trim() || `Event ${event.eventId}`);
  const place = formatPlace(event);
  const when = formatDateRange(event.dateStart, event.dateEnd);
  const score = fit
    ? `Fit *${outOfTen(fit.score)}* · ${fitBand(fit.score, fit.recommendation)}`
    : 'Fit not scored today';
  const value = { eventId: event.eventId };
  const blocks: KnownBlock[] = [
    section(`*${name}* · ${when}${place ? ` · ${place}` : ''}\n${score} · ID ${code(event.eventId)}`),
  ];
  const buttons = actions([
    button('Fit', ACTION_IDS.digestFit, value),
    button('Unlock', ACTION_IDS.digestUnlock, value),
  ]);
  if (buttons) blocks.push(buttons);
  return blocks;
}

/** A link to the thread of the card the unlock was confirmed on. */
export function threadLink(channelId: string, threadTs: string): string {
  return `https://slack.com/archives/${encodeURIComponent(channelId)}/p${threadTs.replace('.', '')}`;
}

function unlockLine(unlock: DigestUnlock): string {
  const what = unlock.kind === 'email' ? 'Emails' : 'Phone numbers';
  const label = `${what} for ${unlock.people} ${unlock.people === 1 ? 'person' : 'people'}`;
  const link = `<${threadLink(unlock.channelId, unlock.threadTs)}|${label}>`;
  const outcome = unlock.outcome;
  const result = !outcome
    ? 'finished'
    : outcome.status === 'timed-out'
      ? 'no result after 24 h'
      : `${outcome.unlocked} unlocked${outcome.notUnlocked > 0 ? `, ${outcome.notUnlocked} not` : ''}`;
  return `• ${link} — ${result} · asked by ${mentionUser(unlock.requestedBy)}`;
}

/**
 * The digest: credits first (with a warning when one event unlock would not be covered), then the
 * best-fitting upcoming events with Fit / Unlock buttons, then the unlocks that finished in the last 24 h.
 */
export function digestMessage(digest: Digest): SlackMessage {
  const day = formatDateRange(digest.localDate, null);
  const balance =
    digest.balance === null
      ? 'Balance unavailable right now'
      : `*${formatCredits(digest.balance)}* available`;
  const credits = [`${balance} · ${formatCredits(digest.spentLast24h)} spent in the last 24 h`];
  if (digest.lowBalance) {
    credits.push(
      `:warning: The balance would not cover an event unlock (${formatCredits(digest.eventUnlockCredits)}).`,
    );
  }
  const blocks: KnownBlock[] = [
    header(digest.schedule ? `Daily digest · ${day}` : `Digest · ${day}`),
    section(credits.join('\n')),
    section(`*Upcoming events* — ${describeFilters(digest.filters)}, next 90 days, best fit first`),
  ];

  const events = digest.events;
  if (events === null) blocks.push(context('Events could not be loaded from the service right now.'));
  else if (events.length === 0) blocks.push(context('No upcoming events match.'));
  else {
    for (const event of events) blocks.push(...eventBlocks(event));
    if (digest.moreEvents > 0) blocks.push(context(andMore(digest.moreEvents, 'matching events')));
  }

  if (digest.unlocks.length > 0) {
    blocks.push(section('*Unlocks finished in the last 24 h*'));
    // Whatever room is left, keeping two blocks for the footer and the `…and N more` line.
    const room = Math.max(1, LIMITS.blocksPerMessage - blocks.length - 2);
    blocks.push(...linesToSections(digest.unlocks.map(unlockLine), room, 'unlocks'));
  }

  const footer = digest.schedule
    ? `Every day at ${escapeMrkdwn(digest.schedule.time)} ${escapeMrkdwn(digest.schedule.timeZone)} · ${code('/events digest off')} to stop`
    : `${code('/events digest on')} to get this every morning`;
  blocks.push(context(footer));

  const count =
    events === null
      ? 'events unavailable'
      : `${events.length} upcoming ${events.length === 1 ? 'event' : 'events'}`;
  const warning = digest.lowBalance ? ' Low balance.' : '';
  const text = `Digest for ${day}: ${digest.balance === null ? 'balance unavailable' : formatCredits(digest.balance)}, ${count}.${warning}`;
  return fitToLimits({ text, blocks });
}

/** The subscription as the channel's commands describe it. */
export interface DigestSubscriptionView {
  channelId: string;
  time: string;
  timeZone: string;
  filters: DigestFilters;
  status: 'active' | 'disabled';
  nextRunAt: string;
  lastRunAt?: string;
  disabledReason?: string;
}

const DISABLED_REASONS: Record<string, string> = {
  channel_not_found: 'the channel could not be found',
  is_archived: 'the channel was archived',
  not_in_channel: 'the bot was removed from the channel',
  restricted_action: 'posting here is restricted',
};

function nextTime(subscription: DigestSubscriptionView): string {
  const next = new Date(subscription.nextRunAt);
  if (Number.isNaN(next.getTime())) return '';
  return ` Next: ${slackDate(next, '{date_short_pretty} at {time}', `${utcDay(next)} ${utcTime(next)}`)}.`;
}

const notice = (text: string): SlackMessage => fitToLimits({ text, blocks: [section(text)] });

/** The answer to `digest on`: what was stored, when the first digest comes. */
export function digestSubscribedMessage(
  subscription: DigestSubscriptionView,
  options: { zoneGuessed?: boolean } = {},
): SlackMessage {
  const zone = escapeMrkdwn(subscription.timeZone);
  const guessed = options.zoneGuessed
    ? ' (your Slack time zone was not available; add a zone to change it)'
    : '';
  return notice(
    `:newspaper: Daily digest on for ${mentionChannel(subscription.channelId)}: every day at ${escapeMrkdwn(
      subscription.time,
    )} ${zone}${guessed}, events matching ${describeFilters(subscription.filters)}.${nextTime(subscription)} ${code(
      '/events digest now',
    )} shows one now.`,
  );
}

/** The answer to `digest off`. */
export function digestOffMessage(existed: boolean): SlackMessage {
  return notice(
    existed
      ? 'Daily digest off for this channel.'
      : 'There is no digest in this channel: nothing to turn off.',
  );
}

/** The answer to `digest status`. */
export function digestStatusMessage(subscription: DigestSubscriptionView | null): SlackMessage {
  if (!subscription) {
    return notice(
      `No digest in this channel. ${code('/events digest on [HH:MM] [time zone] [filters]')} starts one.`,
    );
  }
  const what = `every day at ${escapeMrkdwn(subscription.time)} ${escapeMrkdwn(subscription.timeZone)}, events matching ${describeFilters(subscription.filters)}`;
  if (subscription.status === 'disabled') {
    const reason = subscription.disabledReason
      ? (DISABLED_REASONS[subscription.disabledReason] ?? escapeMrkdwn(subscription.disabledReason))
      : 'it was stopped';
    return notice(
      `The digest here (${what}) stopped: ${reason}. ${code('/events digest on')} starts it again.`,
    );
  }
  const last = subscription.lastRunAt ? new Date(subscription.lastRunAt) : undefined;
  const lastLine =
    last && !Number.isNaN(last.getTime())
      ? ` Last run: ${slackDate(last, '{date_short_pretty} at {time}', `${utcDay(last)} ${utcTime(last)}`)}.`
      : '';
  return notice(`:newspaper: Daily digest on: ${what}.${nextTime(subscription)}${lastLine}`);
}
