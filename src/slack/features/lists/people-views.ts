import type { Button } from '@slack/types';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { button } from '../../views/blocks.ts';
import { code, formatNumber, joinPresent } from '../../views/format.ts';
import type { PersonnelItem, SlackMessage } from '../../views/types.ts';
import { NAMED_ON_A_CARD } from '../../kit/charge-words.ts';
import { contactUnlockButtons } from '../../kit/row-buttons.ts';
import { type EventScopedListInput, type ListInput, listCard, titled } from './list-card.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn } from '../../views/mrkdwn.ts';

/**
 * The cards of people lists: an event's people (people.ts) and the people a card named, all of them
 * (contacts.ts), with the buttons that unlock their contacts.
 */

const SOURCE_LABELS: Record<string, Mrkdwn> = {
  exhibitor: mk`Exhibitor`,
  social: mk`Social Signals`,
  visitors: mk`Visitor`,
};

function sourceLabels(sourceType: PersonnelItem['sourceType']): Mrkdwn {
  const sources = typeof sourceType === 'string' ? sourceType.split(',') : (sourceType ?? []);
  const labels = sources
    .map((source) => source.trim())
    .filter(Boolean)
    .map(
      (source) =>
        (Object.hasOwn(SOURCE_LABELS, source) ? SOURCE_LABELS[source] : undefined) ?? escapeMrkdwn(source),
    );
  return joinMrkdwn(labels, ', ');
}

function emailStatus(person: PersonnelItem): Mrkdwn {
  if (person.email?.trim()) return mk`:email: ${escapeMrkdwn(person.email.trim())}`;
  switch (person.contactUnlockStatus) {
    case 'unlocked':
      return mk`Email unlocked (none on file)`;
    case 'unlocking':
      return mk`:hourglass_flowing_sand: Email unlocking…`;
    case 'failed':
      return mk`Email unlock failed`;
    case 'locked':
    case undefined:
      return mk`:lock: Email locked`;
    default:
      return mk`Email ${escapeMrkdwn(person.contactUnlockStatus)}`;
  }
}

function personRow(person: PersonnelItem): Mrkdwn {
  const role = joinPresent([person.title, person.companyName]);
  const facts = [sourceLabels(person.sourceType), mk`ID ${code(person.id)}`, emailStatus(person)].filter(
    Boolean,
  );
  return joinMrkdwn(
    [mk`*${escapeMrkdwn(person.fullName)}*${role ? mk` — ${role}` : ''}`, joinMrkdwn(facts, ' · ')],
    '\n',
  );
}

/** People of one event, preview-gated, with contact unlock buttons for the people shown. */
export function peopleList(input: EventScopedListInput<PersonnelItem>): SlackMessage {
  return listCard({
    kind: 'people',
    title: titled('People'),
    noun: 'people',
    input,
    row: personRow,
    eventId: input.eventId,
    filterable: true,
    exportable: true,
    buttons: (people) => {
      const lockedEmails = people
        .filter((person) => person.contactUnlockStatus !== 'unlocked')
        .map(({ id }) => id);
      // Personnel items carry no phone status, so every person shown can be asked for. No price on the
      // button: only the precheck knows it (some contacts are free or not linked), and the confirmation
      // card shows that one price.
      const phones = people.map(({ id }) => id);
      return contactUnlockButtons({ emails: lockedEmails, phones, eventId: input.eventId });
    },
  });
}

/** The people a card named, all of them, page by page (`showAllPeopleButton`). */
export function contactList(input: ListInput<PersonnelItem>): SlackMessage {
  return listCard({
    kind: 'contacts',
    title: () => 'Contacts',
    noun: 'people',
    input,
    row: personRow,
    exportable: true,
  });
}

/**
 * "Show all" for a card that names a large set of people: opens, privately, a list that pages through
 * every one of them by name, so no card falls back to bare ids.
 */
export function showAllPeopleButton(personnelIds: readonly string[]): Button | undefined {
  if (personnelIds.length <= NAMED_ON_A_CARD) return undefined;
  const value = { list: 'contacts', query: { personnelIds: [...personnelIds] }, page: 1 };
  return button(`Show all ${formatNumber(personnelIds.length)}`, ACTION_IDS.showAllPeople, value);
}
