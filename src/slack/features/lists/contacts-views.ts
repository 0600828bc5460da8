import { code, joinPresent } from '../../views/format.ts';
import { type ListInput, listCard } from './list-card.ts';
import type { SlackMessage } from '../../views/types.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn } from '../../views/mrkdwn.ts';
import { contactUnlockButtons } from '../../kit/row-buttons.ts';

/** A contact search item (OpenAPI ContactItem), the members the card reads. */
export interface ContactRow {
  id: string;
  fullName?: string | null;
  title?: string | null;
  companyName?: string | null;
  seniorityLevel?: string | null;
  department?: string | null;
  email?: string | null;
  phone?: string | null;
  contactUnlockStatus: string;
  phoneUnlockStatus?: string | null;
}

function contactLine(person: ContactRow): Mrkdwn {
  const name = person.fullName?.trim() || `Person ${person.id}`;
  const role = joinPresent([person.title, person.companyName]);
  const email = person.email?.trim()
    ? mk`:email: ${escapeMrkdwn(person.email.trim())}`
    : person.contactUnlockStatus === 'unlocking'
      ? mk`:hourglass_flowing_sand: Email unlocking…`
      : mk`:lock: Email locked`;
  const phone = person.phone?.trim()
    ? mk`:telephone_receiver: ${escapeMrkdwn(person.phone.trim())}`
    : undefined;
  const facts = [
    joinPresent([person.seniorityLevel, person.department]),
    mk`ID ${code(person.id)}`,
    email,
    phone,
  ];
  return joinMrkdwn(
    [mk`*${escapeMrkdwn(name)}*${role ? mk` — ${role}` : ''}`, joinMrkdwn(facts.filter(Boolean), ' · ')],
    '\n',
  );
}

/** Emails / Phones for the people shown whose email or phone is still to unlock (the usual confirmation). */
function unlockButtons(people: readonly ContactRow[]) {
  const emails = people
    .filter((person) => !['unlocked', 'unlocking'].includes(person.contactUnlockStatus))
    .map(({ id }) => id);
  const phones = people
    .filter((person) => !['unlocked', 'unlocking'].includes(person.phoneUnlockStatus ?? 'locked'))
    .map(({ id }) => id);
  return contactUnlockButtons({ emails, phones });
}

/** What was searched (the `contact-search` list's query). */
interface ContactSearch {
  companyName: string;
  role?: string | undefined;
  personName?: string | undefined;
}

/** `Acme Analytics · title VP · name Jane`: what was searched, in words. */
function searchedFor({ companyName, role, personName }: ContactSearch): string {
  return [companyName, role ? `title ${role}` : '', personName ? `name ${personName}` : '']
    .filter(Boolean)
    .join(' · ');
}

/**
 * `/events contacts …`: a page of people at a company, with the unlock buttons for them, Previous /
 * Next and Export CSV as on every free list (the search is free; emails stay as the search shows them).
 */
export function contactsCard(input: ListInput<ContactRow> & { query: ContactSearch }): SlackMessage {
  return listCard({
    kind: 'contact-search',
    title: (label) => `Contacts: ${label}`,
    noun: 'contacts',
    input: { label: searchedFor(input.query), ...input },
    row: contactLine,
    buttons: unlockButtons,
    exportable: true,
  });
}
