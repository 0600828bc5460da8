import { type Answers, type AnswerTools, tryHelpMessage } from '../../kit/command-answers.ts';
import type { ACCOUNT_COMMANDS } from './commands.ts';
import { accountCard, linkedinCard } from './views.ts';
import { renderList } from '../lists/index.ts';
import { utcDate } from '../../../time/local-time.ts';

/** One page of a company's or person's events (the most the service gives), sorted upcoming first here. */
const EVENTS_FETCHED = 100;

/**
 * The free account-research look-ups (issue 14): an exhibitor's profile and events, a contact search, a
 * LinkedIn profile's events. `account` by company name is a paid search: it asks to confirm (its
 * `charge`) and never comes here.
 */
export function accountAnswers({
  deps: { eis, now },
  answer,
}: AnswerTools): Answers<typeof ACCOUNT_COMMANDS> {
  return {
    account: async (command, context, text) => {
      const today = utcDate(now());
      if (!('exhibitorId' in command)) return answer(context, tryHelpMessage());
      const [profile, events] = await Promise.all([
        eis.exhibitors.profile(command.exhibitorId),
        eis.exhibitors.events({ exhibitorId: command.exhibitorId, pageSize: EVENTS_FETCHED }),
      ]);
      return answer(context, accountCard(profile, events, today), { text });
    },
    // A free list like any other: its Previous / Next and Export CSV carry this query.
    contacts: async ({ companyName, role, personName }, context, text) => {
      const query = { companyName, role, personName };
      return answer(context, await renderList('contact-search', query, 1, eis, utcDate(now())), { text });
    },
    linkedin: async ({ linkedinUrl }, context, text) => {
      const today = utcDate(now());
      const found = await eis.personnel.eventsByLinkedin({ linkedinUrl, pageSize: EVENTS_FETCHED });
      return answer(context, linkedinCard(found.personnel, found.events, today), { text });
    },
  };
}
