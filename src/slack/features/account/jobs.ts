import type { EisClient } from '../../../eis/index.ts';
import type { Command } from '../../commands/index.ts';
import { accountCard, linkedinCard } from './views.ts';
import { briefCard } from '../events/brief.ts';
import type { SlackMessage } from '../../views/types.ts';
import { renderList } from '../lists/index.ts';
import { utcDate } from '../../../time/local-time.ts';

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
  const today = utcDate(now());
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
      // A free list like any other: its Previous / Next and Export CSV carry this query.
      const { companyName, role, personName } = command;
      return renderList('contact-search', { companyName, role, personName }, 1, eis);
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
