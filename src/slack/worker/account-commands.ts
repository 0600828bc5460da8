import type { EisClient } from '../../eis/index.ts';
import type { Command } from '../command-parser.ts';
import { accountCard, linkedinCard } from '../views/account.ts';
import { briefCard } from '../views/brief.ts';
import { contactsCard } from '../views/contacts.ts';
import type { SlackMessage } from '../views/types.ts';

/** Rows per contact search: the same ten a page as every other list. */
const CONTACTS_PER_CARD = 10;
/** One page of a company's or person's events (the most the service gives), sorted upcoming first here. */
const EVENTS_FETCHED = 100;

type AccountCommand = Extract<Command, { name: 'account' | 'contacts' | 'linkedin' | 'brief' }>;

export const isAccountCommand = (command: Command): command is AccountCommand =>
  ['account', 'contacts', 'linkedin', 'brief'].includes(command.name);

/**
 * The free account-research look-ups (issue 14): an exhibitor's profile and events, a contact search, a
 * LinkedIn profile's events, an event brief. `account` by company name is a paid search and never
 * comes here (see `chargeActionOf`).
 */
export async function accountAnswer(
  command: AccountCommand,
  eis: EisClient,
  now: () => Date,
): Promise<SlackMessage | undefined> {
  const today = now().toISOString().slice(0, 10);
  switch (command.name) {
    case 'account': {
      if (!('exhibitorId' in command)) return undefined;
      const [profile, events] = await Promise.all([
        eis.exhibitors.profile(command.exhibitorId),
        eis.exhibitors.events({ exhibitorId: command.exhibitorId, pageSize: EVENTS_FETCHED }),
      ]);
      return accountCard(profile, events, today);
    }
    case 'contacts': {
      const page = await eis.contacts.search({
        companyName: command.companyName,
        ...(command.role ? { role: command.role } : {}),
        ...(command.personName ? { personName: command.personName } : {}),
        pageSize: CONTACTS_PER_CARD,
      });
      const label = [
        command.companyName,
        command.role ? `title ${command.role}` : '',
        command.personName ? `name ${command.personName}` : '',
      ]
        .filter(Boolean)
        .join(' · ');
      return contactsCard({ label, page });
    }
    case 'linkedin': {
      const found = await eis.personnel.eventsByLinkedin({
        linkedinUrl: command.linkedinUrl,
        pageSize: EVENTS_FETCHED,
      });
      return linkedinCard(found.personnel, found.events, today);
    }
    case 'brief':
      return briefCard(await eis.events.brief(command.eventId));
  }
}
