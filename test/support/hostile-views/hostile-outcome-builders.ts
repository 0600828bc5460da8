/* The hostile-text property test's builders of an outcome's card (logged and deleted), its refusal and its form. */
import { newOutcome } from '../../../src/domain/outcomes.ts';
import type { OutcomeEntry } from '../../../src/domain/ports/records.ts';
import { outcomeModal } from '../../../src/slack/features/outcomes/log-form.ts';
import { outcomeCard, outcomeRefusal } from '../../../src/slack/features/outcomes/views.ts';
import { showsReturn } from '../../../src/domain/outcome-return.ts';
import { returnAnswer } from '../../../src/slack/features/returns/views.ts';
import type { Pool, Rendered } from '../hostile-fixtures.ts';

/** An entry whose show, account, watched company, note and people come from the pool. */
function entryOf(s: Pool): OutcomeEntry {
  return newOutcome({
    id: '0a1b2c3d',
    teamId: 'T0GENERAL',
    channelId: 'C0GENERAL',
    show: { eventId: '26855', name: s(0), dateStart: '2027-03-01', dateEnd: '2027-03-03' },
    kind: 'won',
    hundredths: 4_800_050,
    currency: 'EUR',
    account: s(1),
    company: { exhibitorId: '4100', name: s(2) },
    note: s(3),
    loggedBy: s(4),
    at: new Date('2027-03-04T10:00:00Z'),
  });
}

export const OUTCOME_BUILDERS: Record<string, (s: Pool) => Rendered> = {
  outcomeCard: (s) => ({
    messages: [
      outcomeCard(entryOf(s)),
      outcomeCard({ ...entryOf(s), deletedBy: s(5), deletedAt: '2027-03-05T10:00:00.000Z' }),
    ],
  }),
  // A return whose show's name, id and the period's title come from the pool.
  returnAnswer: (s) => {
    const entry = entryOf(s);
    const show = { eventId: s(5), name: s(0), dateStart: entry.showDateStart, dateEnd: entry.showDateEnd };
    const read = showsReturn([show], {
      channelId: entry.channelId,
      entries: [{ ...entry, eventId: s(5) }],
      spentOnShows: new Map([[s(5), 1_200]]),
      beyondCredits: new Map(),
      rate: { state: 'not-set' },
      watchAccounts: [],
    });
    return {
      messages: [
        returnAnswer(s(6), read, 'EUR', true),
        returnAnswer(s(7), { ...read, shows: [] }, 'EUR', true),
      ],
    };
  },
  outcomeRefusal: (s) => ({ messages: [outcomeRefusal(s(0))] }),
  // Log for a show, prefilled from a message whose text and show id come from the pool.
  outcomeModal: (s) => ({
    blocks: outcomeModal(
      { eventId: s(0), note: s(1), link: 'https://slack.com/archives/C0GENERAL/p1' },
      {
        channelId: 'C0GENERAL',
        threadTs: '1.000001',
      },
    ).blocks,
  }),
};
