import type { KnownBlock } from '@slack/types';
import { plural } from '../../domain/charging.ts';
import { actions, context, header, section } from './blocks.ts';
import { code, formatNumber, joinPresent } from './format.ts';
import { capRows, escapeMrkdwn, fitToLimits, LIMITS } from './limits.ts';
import { contactUnlockButtons } from './lists.ts';
import type { SlackMessage } from './types.ts';

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

export interface ContactSearchInput {
  /** What was searched, in words: `Acme Analytics · title VP`. */
  label: string;
  page: { items: readonly ContactRow[]; total?: number };
}

function contactLine(person: ContactRow): string {
  const name = person.fullName?.trim() || `Person ${person.id}`;
  const role = joinPresent([person.title, person.companyName]);
  const email = person.email?.trim()
    ? `:email: ${escapeMrkdwn(person.email.trim())}`
    : person.contactUnlockStatus === 'unlocking'
      ? ':hourglass_flowing_sand: Email unlocking…'
      : ':lock: Email locked';
  const phone = person.phone?.trim() ? `:telephone_receiver: ${escapeMrkdwn(person.phone.trim())}` : '';
  const facts = [
    joinPresent([person.seniorityLevel, person.department]),
    `ID ${code(person.id)}`,
    email,
    phone,
  ];
  return [`*${escapeMrkdwn(name)}*${role ? ` — ${role}` : ''}`, facts.filter(Boolean).join(' · ')].join('\n');
}

/** Emails / Phones for the people shown whose email or phone is still to unlock (the usual confirmation). */
function unlockButtons(people: readonly ContactRow[]) {
  const emails = people
    .filter((person) => !['unlocked', 'unlocking'].includes(person.contactUnlockStatus))
    .map(({ id }) => id);
  const phones = people
    .filter((person) => !['unlocked', 'unlocking'].includes(person.phoneUnlockStatus ?? 'locked'))
    .map(({ id }) => id);
  return actions(contactUnlockButtons({ emails, phones }), 'contact-unlocks');
}

/** `/events contacts …`: the first page of people at a company, with the unlock buttons for them. */
export function contactsCard({ label, page }: ContactSearchInput): SlackMessage {
  const title = `Contacts: ${label}`;
  const shown = page.items.length;
  const total = Math.max(page.total ?? shown, shown);
  if (shown === 0) {
    return fitToLimits({
      text: `${escapeMrkdwn(title)}: no matches.`,
      blocks: [header(title), section(`No contacts match “${escapeMrkdwn(label)}”.`)],
    });
  }
  const summary =
    total > shown
      ? `The first ${formatNumber(shown)} of ${formatNumber(total)}; narrow with \`title:\` or \`name:\` to see others.`
      : `${plural(total, 'contact', 'contacts')}`;
  const footer = [unlockButtons(page.items)].filter((block) => block !== undefined);
  const head: KnownBlock[] = [header(title), context(summary)];
  const rows = capRows(
    page.items.map((person) => section(contactLine(person))),
    LIMITS.blocksPerMessage - head.length - footer.length - 1,
    'contacts',
  );
  return fitToLimits({ text: `${escapeMrkdwn(title)}: ${summary}`, blocks: [...head, ...rows, ...footer] });
}
