import type { KnownBlock } from '@slack/types';
import { type AlertRow, shownName } from '../../../domain/watch/index.ts';
import type {
  WatchAlertAccount,
  WatchAlertMessage,
  WatchAlertRow,
  WatchNoticeMessage,
  WatchShow,
} from '../../../domain/ports/index.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { actions, button, context, header, section } from '../../views/blocks.ts';
import { formatDateRange, plural } from '../../views/format.ts';
import { fitToLimits, linesToSections } from '../../views/limits.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn, withoutBold } from '../../views/mrkdwn.ts';
import type { SlackMessage } from '../../views/types.ts';
import { fitBand } from '../../views/fit-band.ts';
import type { WatchRowValue } from './buttons.ts';
import { contactUnlockButtons } from '../../kit/row-buttons.ts';

/*
 * The account watch's messages. An alert row carries the team's fit score for its show when the check
 * could read it (one free call per shown show); the Fit button shows the whole card.
 */

const kindWord = (account: Pick<WatchAlertAccount, 'kind'>) =>
  account.kind === 'competitor' ? 'competitor' : 'target';

/** An account as the watch's words name it (its key, when given, tells a domain added by its domain). */
export type NamedAccount = Pick<WatchAlertAccount, 'label' | 'kind' | 'companyName'> & { key?: string };

/**
 * `*Acme Robotics* (competitor)`; once resolved, the service's company name, with the domain it was
 * added by as a detail: `*Stark Robotics* (starkrobotics.example, target)`.
 */
export function accountWords(account: NamedAccount): Mrkdwn {
  const domain = account.companyName && account.key?.startsWith('domain:') ? account.key.slice(7) : null;
  const detail = domain ? mk`${escapeMrkdwn(domain)}, ${kindWord(account)}` : kindWord(account);
  return mk`*${escapeMrkdwn(shownName(account))}* (${detail})`;
}

/** `Robotics Expo · 3–5 May 2027 · Munich`. */
export function showWords(show: WatchShow): Mrkdwn {
  const parts = [
    mk`*${escapeMrkdwn(show.name ?? `Event ${show.eventId}`)}*`,
    formatDateRange(show.dateStart, show.dateEnd),
    show.city ? escapeMrkdwn(show.city) : null,
  ];
  return joinMrkdwn(
    parts.filter((part) => part !== null),
    ' · ',
  );
}

const peopleWords = (row: WatchAlertRow) =>
  row.people.length === 0
    ? mk`No one of theirs on the show’s people list yet.`
    : mk`Going: ${joinMrkdwn(
        row.people.map((person) =>
          escapeMrkdwn(person.title ? `${person.name} (${person.title})` : person.name),
        ),
        ', ',
      )}`;

/** `Fit 7.8 / 10, Recommended`; nothing when the check could not read the score. */
const fitWords = (row: WatchAlertRow) => {
  if (!row.fit || !Number.isFinite(row.fit.score)) return null;
  const score = Math.min(10, Math.max(0, row.fit.score));
  return mk`Fit ${escapeMrkdwn(score.toFixed(1))} / 10, ${fitBand(score, row.fit.recommendation)}`;
};

function rowBlocks(row: WatchAlertRow): KnownBlock[] {
  const exhibitorId = row.account.exhibitorIds[0];
  const value: WatchRowValue = {
    eventId: row.show.eventId,
    label: row.account.label.slice(0, 200),
    ...(exhibitorId ? { exhibitorId } : {}),
  };
  const unlock = contactUnlockButtons({
    emails: row.people.map((person) => person.personnelId),
    phones: [],
    eventId: row.show.eventId,
  });
  const buttons = actions([
    button('Fit', ACTION_IDS.watchFit, value),
    button('People', ACTION_IDS.watchPeople, value),
    ...unlock,
    button('Mute this account', ACTION_IDS.watchMute, value),
  ]);
  return [
    section(
      joinMrkdwn(
        [
          mk`${accountWords(row.account)} will exhibit at ${showWords(row.show)}`,
          fitWords(row),
          peopleWords(row),
        ].filter((line) => line !== null),
        '\n',
      ),
    ),
    ...(buttons ? [buttons] : []),
  ];
}

/** The channel's one alert of a check: new appearances by date, at most 10 rows, then "and N more". */
export function watchAlertMessage(alert: WatchAlertMessage): SlackMessage {
  const total = alert.rows.length + alert.more;
  const title =
    total === 1
      ? mk`A watched account will exhibit`
      : mk`${plural(total, 'new appearance')} of watched accounts`;
  const first = alert.rows[0];
  const text = first
    ? mk`${escapeMrkdwn(shownName(first.account))} will exhibit at ${escapeMrkdwn(first.show.name ?? `event ${first.show.eventId}`)}${total > 1 ? mk` (and ${total - 1} more)` : ''}`
    : title;
  const more = actions([button('Show all', ACTION_IDS.watchShowAll, { alert: true })]);
  const blocks: KnownBlock[] = [
    header(title),
    ...alert.rows.flatMap(rowBlocks),
    ...(alert.more > 0
      ? [
          context(mk`…and ${alert.more} more. Show all lists every row of this alert.`),
          ...(more ? [more] : []),
        ]
      : []),
    context('Seen at this channel’s watch check. Changes to these shows are said in this thread.'),
  ];
  return fitToLimits({ text, blocks });
}

/** Show all on an alert: each of its rows still ahead (account, show, dates, city), answered privately. */
export function alertRowsAnswer(rows: readonly AlertRow[]): SlackMessage {
  if (rows.length === 0)
    return fitToLimits({
      text: 'None of this alert’s shows is still ahead.',
      blocks: [
        section(
          'None of this alert’s shows is still ahead (past, or no longer listing the account). `/events watch list` lists every account’s shows.',
        ),
      ],
    });
  const title = mk`*This alert’s ${plural(rows.length, 'appearance')}, by date*`;
  const lines = rows.map(
    ({ account, show }) =>
      mk`${accountWords(account)} will exhibit at ${showWords(show)}${account.muted ? ' _(muted)_' : ''}`,
  );
  return fitToLimits({
    text: withoutBold(title),
    blocks: [section(title), ...linesToSections(lines, 40, 'appearances')],
  });
}

/** A show that moved or dropped a watched account, said once (in the thread of the alert that told it). */
export function watchNoticeMessage(notice: WatchNoticeMessage): SlackMessage {
  const lines = [
    ...notice.changed.map(({ account, before, now }) =>
      before.dateStart !== now.dateStart || before.dateEnd !== now.dateEnd
        ? mk`${accountWords(account)}: ${showWords(before)} moved to ${formatDateRange(now.dateStart, now.dateEnd)}${now.city && now.city !== before.city ? mk` in ${escapeMrkdwn(now.city)}` : ''}.`
        : mk`${accountWords(account)}: ${showWords(before)} is now in ${escapeMrkdwn(now.city ?? 'a city not announced')}.`,
    ),
    ...notice.dropped.map(
      ({ account, show }) =>
        mk`${accountWords(account)} is no longer listed as an exhibitor of ${showWords(show)}.`,
    ),
  ];
  const text = joinMrkdwn(lines, '\n');
  return fitToLimits({ text: withoutBold(text), blocks: [section(text)] });
}
