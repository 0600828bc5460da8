import type { KnownBlock } from '@slack/types';
import type {
  Digest,
  DigestEvent,
  DigestEventUnlock,
  DigestUnlock,
  EventUnlockAction,
} from '../../../domain/digest.ts';
import { GIVE_UP_AFTER_HOURS } from '../../../domain/poll-cadence.ts';
import { localDate, parseLocalTime, zonedInstant } from '../../../time/local-time.ts';
import type { DigestFilters, DigestSubscription } from '../../../domain/ports/index.ts';
import { threadLink } from '../../kit/thread-link.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { actions, button, context, header, section } from '../../views/blocks.ts';
import { fitBand } from '../../views/fit-band.ts';
import {
  code,
  formatCredits,
  formatLink,
  formatDateRange,
  formatPlace,
  mentionUser,
  outOfTen,
  slackDate,
  utcDay,
  utcTime,
} from '../../views/format.ts';
import { calendarPeriodOf } from '../../../domain/periods.ts';
import { andMore, fitToLimits, LIMITS, linesToSections } from '../../views/limits.ts';
import type { SlackMessage } from '../../views/types.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn } from '../../views/mrkdwn.ts';
import { confirmedByWords } from '../../kit/charge-words.ts';

/** `in Berlin, Germany matching “fintech” from 2027-03-01`: what narrows the events, or `` when nothing does. */
function narrowing(filters: DigestFilters): Mrkdwn {
  const place = [filters.city, filters.country ?? filters.region].filter(Boolean).join(', ');
  const period = calendarPeriodOf(filters.from, filters.to);
  const dates = period
    ? `in ${period.label}`
    : filters.from && filters.to
      ? `between ${filters.from} and ${filters.to}`
      : filters.from
        ? `from ${filters.from}`
        : filters.to
          ? `until ${filters.to}`
          : '';
  const parts = [place ? `in ${place}` : '', filters.keywords ? `matching “${filters.keywords}”` : '', dates];
  return escapeMrkdwn(parts.filter(Boolean).join(' '));
}

/** `events in Germany matching “fintech”`, or `all upcoming events`. */
export function describeFilters(filters: DigestFilters): Mrkdwn {
  const narrowed = narrowing(filters);
  return narrowed ? mk`events ${narrowed}` : mk`all upcoming events`;
}

/** `every day at 08:30 Europe/Berlin (07:30 UTC today)`; the UTC time only when it differs. */
export function describeSchedule(time: string, timeZone: string, now: Date): Mrkdwn {
  const what = mk`every day at ${escapeMrkdwn(time)} ${escapeMrkdwn(timeZone)}`;
  const [year = 0, month = 1, day = 1] = localDate(now, timeZone).split('-').map(Number);
  const utc = utcTime(zonedInstant({ year, month, day }, parseLocalTime(time), timeZone));
  return utc === `${time} UTC` ? what : mk`${what} (${utc} today)`;
}

function eventBlocks({ event, fit, unlocked }: DigestEvent): KnownBlock[] {
  const name = escapeMrkdwn(event.name?.trim() || `Event ${event.eventId}`);
  const place = formatPlace(event);
  const when = formatDateRange(event.dateStart, event.dateEnd);
  const score = fit
    ? mk`Fit *${outOfTen(fit.score)}* · ${fitBand(fit.score, fit.recommendation)}`
    : 'Fit not scored today';
  const value = { eventId: event.eventId };
  const access = unlocked ? ' · Unlocked' : '';
  const blocks: KnownBlock[] = [
    section(
      mk`*${name}* · ${when}${place ? mk` · ${place}` : ''}\n${score} · ID ${code(event.eventId)}${access}`,
    ),
  ];
  // An event this workspace already unlocked is not offered again.
  const buttons = actions([
    button('Fit', ACTION_IDS.digestFit, value),
    unlocked ? undefined : button('Unlock', ACTION_IDS.digestUnlock, value),
  ]);
  if (buttons) blocks.push(buttons);
  return blocks;
}

function unlockLine(unlock: DigestUnlock): Mrkdwn {
  const what = unlock.kind === 'email' ? 'Emails' : 'Phone numbers';
  const label = `${what} for ${unlock.people} ${unlock.people === 1 ? 'person' : 'people'}`;
  const link = formatLink(threadLink(unlock.channelId, unlock.threadTs), label);
  const outcome = unlock.outcome;
  const result = !outcome
    ? 'finished'
    : outcome.status === 'timed-out'
      ? mk`no result after ${GIVE_UP_AFTER_HOURS} h`
      : mk`${outcome.unlocked} unlocked${outcome.notUnlocked > 0 ? mk`, ${outcome.notUnlocked} not` : ''}`;
  return mk`• ${link} — ${result} · asked by ${mentionUser(unlock.requestedBy)}`;
}

const EVENT_UNLOCK_WORDS = {
  'event-unlock': 'Event unlock',
  'visitors-unlock': 'Visitors unlock',
  'full-access-unlock': 'Full access unlock',
} as const satisfies Record<EventUnlockAction, string>;

function eventUnlockLine(unlock: DigestEventUnlock): Mrkdwn {
  const id = code(unlock.eventId);
  const target = unlock.eventName ? mk`*${escapeMrkdwn(unlock.eventName)}* (${id})` : mk`event ${id}`;
  return mk`• ${EVENT_UNLOCK_WORDS[unlock.action]} — ${target} · ${formatCredits(unlock.credits)} · asked by ${mentionUser(unlock.requestedBy)}${confirmedByWords(unlock)}`;
}

/** Every unlock of the last 24 h, event and contact alike, oldest first. */
function unlockLines(digest: Digest): Mrkdwn[] {
  const lines = [
    ...digest.eventUnlocks.map((unlock) => ({ at: unlock.at, line: eventUnlockLine(unlock) })),
    ...digest.unlocks.map((unlock) => ({ at: unlock.finishedAt, line: unlockLine(unlock) })),
  ];
  return lines.sort((a, b) => Date.parse(a.at) - Date.parse(b.at)).map(({ line }) => line);
}

const nextDigest = (next: Date) =>
  slackDate(next, '{date_short_pretty} at {time}', `${utcDay(next)} ${utcTime(next)}`);

/**
 * The digest: credits first (with a warning when one event unlock would not be covered), then the
 * best-fitting upcoming events with Fit / Unlock buttons, then the unlocks that finished in the last 24 h.
 */
export function digestMessage(digest: Digest): SlackMessage {
  const day = formatDateRange(digest.localDate, null);
  const balance =
    digest.balance === null
      ? mk`Balance unavailable right now`
      : mk`*${formatCredits(digest.balance)}* available`;
  const credits = [mk`${balance} · ${formatCredits(digest.spentLast24h)} spent in the last 24 h`];
  if (digest.lowBalance) {
    credits.push(
      mk`:warning: The balance would not cover an event unlock (${formatCredits(digest.eventUnlockCredits)}).`,
    );
  }
  const narrowed = narrowing(digest.filters);
  const blocks: KnownBlock[] = [
    header(digest.schedule ? `Daily digest · ${day}` : `Digest · ${day}`),
    section(joinMrkdwn(credits, '\n')),
    section(mk`*Upcoming events*${narrowed ? mk` ${narrowed}` : ''}, next 90 days, best fit first`),
  ];

  const events = digest.events;
  if (events === null) blocks.push(context('Events could not be loaded from the service right now.'));
  else if (events.length === 0) blocks.push(context('No upcoming events match.'));
  else {
    for (const event of events) blocks.push(...eventBlocks(event));
    if (digest.moreEvents > 0) blocks.push(context(andMore(digest.moreEvents, 'matching events')));
  }

  const unlocks = unlockLines(digest);
  if (unlocks.length > 0) {
    blocks.push(section('*Unlocks finished in the last 24 h*'));
    // Whatever room is left, keeping two blocks for the footer and the `…and N more` line.
    const room = Math.max(1, LIMITS.blocksPerMessage - blocks.length - 2);
    blocks.push(...linesToSections(unlocks, room, 'unlocks'));
  }

  // A channel with a digest is told when the next comes and how to change it; only one without is offered one.
  const schedule = digest.schedule;
  const footer = schedule
    ? mk`Next digest ${nextDigest(new Date(schedule.next))} (every day at ${escapeMrkdwn(schedule.time)} ${escapeMrkdwn(schedule.timeZone)}) · ${code('/events digest on …')} to change it · ${code('/events digest off')} to stop`
    : mk`${code('/events digest on')} to get this every morning`;
  blocks.push(context(footer));

  const count =
    events === null
      ? 'events unavailable'
      : mk`${events.length} upcoming ${events.length === 1 ? 'event' : 'events'}`;
  const warning = digest.lowBalance ? ' Low balance.' : '';
  const text = mk`Digest for ${day}: ${digest.balance === null ? 'balance unavailable' : formatCredits(digest.balance)}, ${count}.${warning}`;
  return fitToLimits({ text, blocks });
}

/** The subscription as the channel's commands describe it. */
/** What the status and confirmation messages show of a subscription. */
export type DigestSubscriptionView = Pick<
  DigestSubscription,
  'channelId' | 'time' | 'timeZone' | 'filters' | 'status' | 'nextRunAt' | 'lastRunAt' | 'disabledReason'
>;

const DISABLED_REASONS: Record<string, Mrkdwn> = {
  channel_not_found: mk`the channel could not be found`,
  is_archived: mk`the channel was archived`,
  not_in_channel: mk`the bot was removed from the channel`,
  restricted_action: mk`posting here is restricted`,
};

function nextTime(subscription: DigestSubscriptionView): Mrkdwn {
  const next = new Date(subscription.nextRunAt);
  return Number.isNaN(next.getTime()) ? mk`` : mk` Next: ${nextDigest(next)}.`;
}

/** `every day at 08:30 Europe/Berlin (07:30 UTC today) — events in Germany matching “fintech”`. */
const describeSubscription = (subscription: DigestSubscriptionView, now: Date) =>
  mk`${describeSchedule(subscription.time, subscription.timeZone, now)} — ${describeFilters(subscription.filters)}`;

const notice = (text: Mrkdwn): SlackMessage => fitToLimits({ text, blocks: [section(text)] });

/** The answer to `digest on`: the schedule as understood, when the first digest comes. */
export function digestSubscribedMessage(
  subscription: DigestSubscriptionView,
  options: { now: Date; zoneGuessed?: boolean; note?: string },
): SlackMessage {
  const note = options.note?.trim()
    ? mk` Note: ${escapeMrkdwn(options.note.trim().replace(/\.$/, ''))}.`
    : '';
  const guessed = options.zoneGuessed
    ? ' Your Slack time zone was not available: add a zone to change it.'
    : '';
  return notice(
    mk`:newspaper: Daily digest on: ${describeSubscription(subscription, options.now)}.${note}${guessed}${nextTime(
      subscription,
    )} ${code('/events digest now')} shows one now.`,
  );
}

/** The answer to `digest off`. */
export function digestOffMessage(existed: boolean): SlackMessage {
  return notice(
    existed
      ? mk`Daily digest off for this channel.`
      : mk`There is no digest in this channel: nothing to turn off.`,
  );
}

/** The answer to `digest status`: the same words as `digest on`'s. */
export function digestStatusMessage(subscription: DigestSubscriptionView | null, now: Date): SlackMessage {
  if (!subscription) {
    return notice(
      mk`No digest in this channel. ${code('/events digest on [HH:MM] [time zone] [filters]')} starts one.`,
    );
  }
  const what = describeSubscription(subscription, now);
  if (subscription.status === 'disabled') {
    const reason = subscription.disabledReason
      ? (DISABLED_REASONS[subscription.disabledReason] ?? escapeMrkdwn(subscription.disabledReason))
      : 'it was stopped';
    return notice(
      mk`The digest here stopped: ${reason}. It ran ${what}. ${code('/events digest on')} starts it again.`,
    );
  }
  const last = subscription.lastRunAt ? new Date(subscription.lastRunAt) : undefined;
  const lastLine =
    last && !Number.isNaN(last.getTime())
      ? mk` Last run: ${slackDate(last, '{date_short_pretty} at {time}', `${utcDay(last)} ${utcTime(last)}`)}.`
      : '';
  return notice(
    mk`:newspaper: Daily digest on: ${what}.${nextTime(subscription)}${lastLine} ${code('/events digest off')} stops it.`,
  );
}
